/**
 * The base64 variant gtag.js uses for linker values: the URL-safe alphabet (`-` and `_` instead of
 * `+` and `/`) and `.` as the padding character, so a value never needs percent-encoding in a URL.
 *
 * Text is carried as UTF-8. gtag itself encodes `charCodeAt` values as bytes, which is the same for
 * ASCII (every real cookie value); beyond ASCII, UTF-8 is the only choice that round-trips.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const PAD = '.';

/** Index of each accepted character; `+` and `/` (standard base64) are read too, but flagged. */
const LOOKUP: Record<string, number> = Object.fromEntries([...ALPHABET].map((char, index) => [char, index]));
const STANDARD_ONLY: Record<string, number> = { '+': 62, '/': 63 };

const encoder = new TextEncoder();
const utf8 = new TextDecoder('utf-8', { fatal: true });

export function encodeBytes(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const hasB = i + 1 < bytes.length;
    const hasC = i + 2 < bytes.length;
    const b = hasB ? bytes[i + 1]! : 0;
    const c = hasC ? bytes[i + 2]! : 0;
    out += ALPHABET[a >> 2]! + ALPHABET[((a & 3) << 4) | (b >> 4)]!;
    out += hasB ? ALPHABET[((b & 15) << 2) | (c >> 6)]! : PAD;
    out += hasC ? ALPHABET[c & 63]! : PAD;
  }
  return out;
}

export function encodeText(text: string): string {
  return encodeBytes(encoder.encode(text));
}

export type Base64Result =
  { ok: true; bytes: Uint8Array; standardAlphabet: boolean; missingPadding: boolean } | { ok: false; error: string };

/** Reads gtag's base64; like gtag, padding may be missing. Never throws. */
export function decodeBytes(input: string): Base64Result {
  let standardAlphabet = false;
  const sextets: number[] = [];
  let padding = 0;
  for (let i = 0; i < input.length; i++) {
    const char = input[i]!;
    if (char === PAD || char === '=') {
      padding++;
      continue;
    }
    if (padding > 0) return { ok: false, error: `padding "${PAD}" in the middle of the value (position ${i + 1})` };
    let value = LOOKUP[char];
    if (value === undefined) {
      value = STANDARD_ONLY[char];
      if (value === undefined) return { ok: false, error: `"${char}" is not a base64 character (position ${i + 1})` };
      standardAlphabet = true;
    }
    sextets.push(value);
  }
  if (sextets.length % 4 === 1) return { ok: false, error: 'truncated base64 value (one character too many or too few)' };
  if (padding > 2 || (padding > 0 && (sextets.length + padding) % 4 !== 0)) {
    return { ok: false, error: 'wrong amount of padding' };
  }
  const bytes = new Uint8Array(Math.floor((sextets.length * 6) / 8));
  let byte = 0;
  for (let i = 0; i < sextets.length; i += 4) {
    const a = sextets[i]!;
    const b = sextets[i + 1]!;
    const c = sextets[i + 2];
    const d = sextets[i + 3];
    bytes[byte++] = (a << 2) | (b >> 4);
    if (c !== undefined) bytes[byte++] = ((b & 15) << 4) | (c >> 2);
    if (d !== undefined) bytes[byte++] = ((c! & 3) << 6) | d;
  }
  return { ok: true, bytes, standardAlphabet, missingPadding: padding === 0 && sextets.length % 4 !== 0 };
}

export type Base64TextResult =
  { ok: true; text: string; standardAlphabet: boolean; missingPadding: boolean; latin1: boolean } | { ok: false; error: string };

/** Bytes as UTF-8, or, when they are not valid UTF-8, one character per byte (what gtag does). */
export function decodeText(input: string): Base64TextResult {
  const decoded = decodeBytes(input);
  if (!decoded.ok) return decoded;
  const { bytes, standardAlphabet, missingPadding } = decoded;
  try {
    return { ok: true, text: utf8.decode(bytes), standardAlphabet, missingPadding, latin1: false };
  } catch {
    let text = '';
    for (const value of bytes) text += String.fromCharCode(value);
    return { ok: true, text, standardAlphabet, missingPadding, latin1: true };
  }
}
