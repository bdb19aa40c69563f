import type { ByteRange } from '../storage/file-storage.js';

/**
 * What a `Range` header asks of a file of `size` bytes (RFC 9110 §14): `null` for the whole file
 * (no header, another unit, several ranges, or a header that does not parse: all of these may be
 * ignored and answered 200), `'unsatisfiable'` for a range that starts past the end (416), or the
 * one range, clamped to the file.
 */
export function parseRange(header: string | undefined, size: number): ByteRange | 'unsatisfiable' | null {
  if (header === undefined) return null;
  const match = /^bytes=(\d{0,15})-(\d{0,15})$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return null;
  if (match[1] === '') {
    // A suffix: the last n bytes.
    const length = Number(match[2]);
    if (length === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - length), end: size - 1 };
  }
  const start = Number(match[1]);
  if (match[2] !== '' && Number(match[2]) < start) return null;
  if (start >= size) return 'unsatisfiable';
  const end = match[2] === '' ? size - 1 : Number(match[2]);
  return { start, end: Math.min(end, size - 1) };
}
