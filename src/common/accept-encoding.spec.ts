import { chooseEncoding } from './accept-encoding.js';

describe('chooseEncoding', () => {
  it("picks the server's preferred coding among equally weighted ones", () => {
    expect(chooseEncoding('gzip, deflate, br, zstd', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('gzip, deflate, br, zstd', ['gzip', 'br'])).toBe('gzip');
    expect(chooseEncoding('br;q=1.0, gzip;q=1.0', ['br', 'gzip'])).toBe('br');
  });

  it('lets a higher q-value win over the preference', () => {
    expect(chooseEncoding('br;q=0.5, gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('gzip;q=0.2, br;q=0.9', ['gzip', 'br'])).toBe('br');
  });

  it('never sends a coding refused with q=0, or one not offered', () => {
    expect(chooseEncoding('br;q=0, gzip', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('gzip;q=0, br;q=0', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('deflate', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('identity', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('gzip', ['br'])).toBeNull();
    expect(chooseEncoding('br', ['br', 'gzip'])).toBe('br');
  });

  it('answers identity (null) without a header or with an empty one', () => {
    expect(chooseEncoding(undefined, ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding(' , ', ['br', 'gzip'])).toBeNull();
  });

  it('reads * as every coding the header does not name', () => {
    expect(chooseEncoding('*', ['br', 'gzip'])).toBe('br');
    expect(chooseEncoding('br;q=0, *', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('*;q=0', ['br', 'gzip'])).toBeNull();
    expect(chooseEncoding('gzip, *;q=0', ['br', 'gzip'])).toBe('gzip');
  });

  it('is case-insensitive and treats a malformed weight as a refusal', () => {
    expect(chooseEncoding('GZIP;Q=0.5', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=abc, gzip;q=0.1', ['br', 'gzip'])).toBe('gzip');
    expect(chooseEncoding('br;q=2', ['br'])).toBeNull();
    expect(chooseEncoding(['gzip', 'br'], ['br', 'gzip'])).toBe('br');
  });
});
