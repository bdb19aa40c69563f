import { decodeBytes, decodeText, encodeBytes, encodeText } from './base64.js';

describe('gtag base64', () => {
  it.each([
    ['', ''],
    ['f', 'Zg..'],
    ['fo', 'Zm8.'],
    ['foo', 'Zm9v'],
    ['foob', 'Zm9vYg..'],
    ['fooba', 'Zm9vYmE.'],
    ['foobar', 'Zm9vYmFy'],
  ])('encodes the RFC 4648 vector %j with "." padding', (text, encoded) => {
    expect(encodeText(text)).toBe(encoded);
    expect(decodeText(encoded)).toMatchObject({ ok: true, text });
  });

  it('uses "-" and "_" instead of "+" and "/"', () => {
    expect(encodeBytes(new Uint8Array([0xfb, 0xff]))).toBe('-_8.');
    expect(decodeBytes('-_8.')).toMatchObject({ ok: true, standardAlphabet: false });
    expect(Array.from((decodeBytes('-_8.') as { bytes: Uint8Array }).bytes)).toEqual([0xfb, 0xff]);
  });

  it('reads standard-alphabet and unpadded values but says so', () => {
    expect(decodeBytes('+/8=')).toMatchObject({ ok: true, standardAlphabet: true });
    expect(decodeText('Zg')).toMatchObject({ ok: true, text: 'f', missingPadding: true });
  });

  it('refuses characters outside the alphabet, misplaced padding and truncated values', () => {
    expect(decodeBytes('Zm9v!')).toEqual({ ok: false, error: '"!" is not a base64 character (position 5)' });
    expect(decodeBytes('Zg.v')).toMatchObject({ ok: false });
    expect(decodeBytes('Zm9vY')).toMatchObject({ ok: false, error: expect.stringContaining('truncated') });
    expect(decodeBytes('Zm8...')).toMatchObject({ ok: false });
  });

  it('round-trips Unicode as UTF-8 and falls back to one character per byte', () => {
    expect(decodeText(encodeText('café ☕ 𝄞'))).toMatchObject({ ok: true, text: 'café ☕ 𝄞', latin1: false });
    expect(decodeText(encodeBytes(new Uint8Array([0xe9])))).toMatchObject({ ok: true, text: 'é', latin1: true });
  });
});
