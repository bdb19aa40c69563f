import { lastValue, type Pairs, parsePairs, safeDecode } from '../query.js';
import type { CapturedRequest } from '../request.js';

/**
 * Body and value readers the decoders share. None of them throws: real captures hold truncated
 * JSON, bodies the exporter could not decode and values encoded twice.
 */

/** A flattened JSON value never yields more parameters than this (a huge body stays readable). */
export const MAX_FLAT_PARAMS = 400;

/** JSON.parse of a text that looks like a JSON object or array; undefined otherwise. */
export function tryJson(text: string | null | undefined): unknown {
  if (!text) return undefined;
  const trimmed = text.trim();
  const first = trimmed[0];
  if (first !== '{' && first !== '[') return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return undefined;
  }
}

export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value as text: strings as they are, the rest as JSON (null and undefined as ''). */
export function text(value: unknown): string {
  if (value === null || value === undefined) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** A string or number field, as text; undefined for anything else. */
export function field(value: unknown): string | undefined {
  return typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : undefined;
}

/** Leaves of a JSON value as [path, text] pairs: `a.b.c` (dots) or `a[b][0]` (brackets). */
export function flatten(value: unknown, prefix: string, style: 'dot' | 'bracket', out: Pairs, depth = 0): Pairs {
  if (out.length >= MAX_FLAT_PARAMS) return out;
  if (value !== null && typeof value === 'object' && depth < 8) {
    const entries = Array.isArray(value) ? value.map((each, index) => [String(index), each] as const) : Object.entries(value);
    if (entries.length === 0) {
      out.push([prefix, Array.isArray(value) ? '[]' : '{}']);
      return out;
    }
    for (const [key, child] of entries) {
      const path = !prefix ? key : style === 'dot' ? `${prefix}.${key}` : `${prefix}[${key}]`;
      flatten(child, path, style, out, depth + 1);
    }
    return out;
  }
  out.push([prefix, text(value)]);
  return out;
}

/** The request's URL-encoded form body (or the pairs the HAR exporter already parsed); [] for JSON. */
export function bodyPairs(request: CapturedRequest): Pairs {
  if (request.bodyParams?.length) return request.bodyParams;
  const body = request.body?.trim();
  if (!body || body[0] === '{' || body[0] === '[') return [];
  return multipartPairs(body) ?? parsePairs(body);
}

/** Query pairs plus the form body's. */
export function formPairs(request: CapturedRequest, queryPairs: Pairs): Pairs {
  const body = bodyPairs(request);
  return body.length ? [...queryPairs, ...body] : queryPairs;
}

/** The parts of a multipart/form-data body (null when it is not one). */
export function multipartPairs(body: string): Pairs | null {
  const boundary = /^--([^\r\n]+)\r?\n/.exec(body);
  if (!boundary) return null;
  const pairs: Pairs = [];
  for (const part of body.split(`--${boundary[1]}`)) {
    const name = /name="([^"]+)"/.exec(part);
    if (!name) continue;
    const valueStart = part.search(/\r?\n\r?\n/);
    if (valueStart === -1) continue;
    const value = part
      .slice(valueStart)
      .replace(/^\r?\n\r?\n/, '')
      .replace(/\r?\n$/, '');
    pairs.push([name[1]!, value]);
  }
  return pairs;
}

/**
 * The JSON of a request: its body, or (for GET / beacon fallbacks) a query parameter holding JSON,
 * or a form body field holding it (`data=[…]`, `e=[…]`). Undefined when none parses.
 */
export function jsonOf(request: CapturedRequest, queryPairs: Pairs, fields: readonly string[] = []): unknown {
  const fromBody = tryJson(request.body);
  if (fromBody !== undefined) return fromBody;
  const form = bodyPairs(request);
  for (const key of fields) {
    const value = lastValue(form, key) ?? lastValue(queryPairs, key);
    const parsed = tryJson(value) ?? tryJson(maybeBase64(value));
    if (parsed !== undefined) return parsed;
  }
  return undefined;
}

/** A URL value that was encoded twice (`https%3A%2F%2F…`), decoded once more. */
export function decodedUrl(value: string | null | undefined): string | null {
  if (!value) return null;
  return /^https?%3A/i.test(value) ? safeDecode(value) : value;
}

const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;

/** Base64 (standard or URL-safe) text decoded as UTF-8, or undefined when it is not base64. */
export function maybeBase64(value: string | undefined): string | undefined {
  if (!value || value.length < 4 || !BASE64.test(value)) return undefined;
  try {
    const binary = atob(value.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** True when the body starts with gzip's magic bytes as a browser exports them (binary as text). */
export function looksCompressed(body: string | null): boolean {
  if (!body) return false;
  return body.charCodeAt(0) === 0x1f && (body.charCodeAt(1) === 0x8b || body.charCodeAt(1) === 0xfffd);
}

/** First value among `keys` in `pairs` (later values of one key win, as in the collectors). */
export function firstOf(pairs: Pairs, ...keys: string[]): string | undefined {
  for (const key of keys) {
    const value = lastValue(pairs, key);
    if (value !== undefined && value !== '') return value;
  }
  return undefined;
}

/** Pairs as a map (last value of each key wins). */
export function valuesOf(pairs: Pairs): Map<string, string> {
  const map = new Map<string, string>();
  for (const [key, value] of pairs) map.set(key, value);
  return map;
}

/** The host's subdomain before `suffix` ("acme" for "acme.tt.omtrdc.net" and ".tt.omtrdc.net"). */
export function subdomain(host: string, suffix: string): string | null {
  if (!host.endsWith(suffix) || host.length === suffix.length) return null;
  const rest = host.slice(0, -suffix.length).replace(/\.$/, '');
  return rest || null;
}
