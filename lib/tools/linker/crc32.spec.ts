import { CRC32_START, crc32, crc32Final, crc32Update } from './crc32.js';

describe('crc32', () => {
  it('matches the standard CRC-32 check values', () => {
    expect(crc32('')).toBe(0);
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('The quick brown fox jumps over the lazy dog')).toBe(0x414fa339);
  });

  it('hashes the low byte of each UTF-16 code unit, as gtag.js does', () => {
    // "Ā" is U+0100: its low byte is 0x00, so it hashes like "\0".
    expect(crc32('\u0100')).toBe(crc32('\u0000'));
  });
});

describe('crc32Update', () => {
  it('continues a CRC across pieces of text', () => {
    expect(crc32Final(crc32Update(crc32Update(CRC32_START, '12345'), '6789'))).toBe(0xcbf43926);
  });
});
