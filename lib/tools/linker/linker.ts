import { decodeText, encodeText } from './base64.js';
import { type CookieInterpretation, interpret, toLinkerKey, toLinkerValue } from './cookies.js';
import { fingerprint, type LinkerBrowser, minuteIndex, verify, type Verification } from './fingerprint.js';

/**
 * The Google tag (gtag.js) cross-domain linker parameter:
 *
 *     _gl=1*<fingerprint>*<key>*<value>*<key>*<value>…
 *
 * `1` is the only version gtag reads; values are base64 with the URL-safe alphabet and `.` padding
 * (see base64.ts); the fingerprint ties the link to one browser and a minute (see fingerprint.ts).
 * gtag looks for `_gl` in the query string and in the fragment, and percent-decodes the value up to
 * three times until it has the `a*b*c` shape.
 */
export const LINKER_PARAM = '_gl';
export const LINKER_VERSION = '1';

export interface LinkerEntry extends CookieInterpretation {
  key: string;
  /** The base64 text as it stands in the link. */
  rawValue: string;
  /** The decoded linker value (what gtag hands to the cookie writer). */
  value: string;
}

export interface DecodedLinker {
  ok: true;
  /** The `_gl` value that was decoded, percent-decoding undone. */
  linker: string;
  /** Where it was found: the input was the bare value, or a URL's query or fragment. */
  source: 'value' | 'query' | 'fragment';
  version: string;
  fingerprint: string;
  /** `key*base64*…`, the part the fingerprint covers. */
  payload: string;
  cookies: LinkerEntry[];
  /** Things gtag would do differently or that look unusual; the decode still went through. */
  warnings: string[];
  verification?: Verification;
}

export interface LinkerError {
  ok: false;
  error: string;
}

export type DecodeResult = DecodedLinker | LinkerError;

const SHAPE = /^(.*?)\*(.*?)\*(.*)$/s;
const MAX_INPUT = 16_384;

function fail(error: string): LinkerError {
  return { ok: false, error };
}

function safeDecode(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** `_gl` values in a query string or fragment (`a=1&_gl=…`). */
function paramValues(part: string): string[] {
  const values: string[] = [];
  for (const pair of part.split('&')) {
    const equals = pair.indexOf('=');
    const name = equals < 0 ? pair : pair.slice(0, equals);
    if (name === LINKER_PARAM || safeDecode(name) === LINKER_PARAM) values.push(equals < 0 ? '' : pair.slice(equals + 1));
  }
  return values;
}

interface Located {
  value: string;
  source: DecodedLinker['source'];
  warnings: string[];
}

function locate(input: string): Located | LinkerError {
  let text = input;
  // A whole URL pasted percent-encoded (e.g. copied out of a redirect parameter).
  for (let i = 0; i < 3 && !/(^|[?&#])_gl=/.test(text) && /_gl%3D/i.test(text); i++) {
    const decoded = safeDecode(text);
    if (decoded === undefined) break;
    text = decoded;
  }
  const bare = text.startsWith(`${LINKER_PARAM}=`) ? text.slice(LINKER_PARAM.length + 1) : undefined;
  if (bare !== undefined && !/[?#&]/.test(bare)) return { value: bare, source: 'value', warnings: [] };
  const hashAt = text.indexOf('#');
  const beforeHash = hashAt < 0 ? text : text.slice(0, hashAt);
  const fragment = hashAt < 0 ? '' : text.slice(hashAt + 1);
  const queryAt = beforeHash.indexOf('?');
  const query = queryAt < 0 ? (bare !== undefined ? beforeHash : '') : beforeHash.slice(queryAt + 1);
  const inQuery = paramValues(query);
  const inFragment = paramValues(fragment);
  const warnings: string[] = [];
  if (inQuery.length + inFragment.length > 1) {
    warnings.push(
      'The URL has more than one _gl parameter; the first one is decoded (gtag reads one from the query and one from the fragment).',
    );
  }
  if (inQuery.length) return { value: inQuery[0]!, source: 'query', warnings };
  if (inFragment.length) return { value: inFragment[0]!, source: 'fragment', warnings };
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(text) || text.includes('?') || text.includes('#')) {
    if (text.includes(`${LINKER_PARAM}=`)) {
      // e.g. a hash route `#/checkout?_gl=…`: gtag only reads `_gl` right after `?`, `#` or `&`.
      return fail(
        'This URL has "_gl=" but not as a parameter gtag.js reads: it must follow "?", "#" or "&" directly (a hash route such as #/page?_gl=… is not read).',
      );
    }
    return fail('No _gl parameter in this URL (neither in the query string nor in the fragment).');
  }
  return { value: text, source: 'value', warnings };
}

/**
 * Decodes a `_gl` value, `_gl=…`, or a URL carrying one (query or fragment, percent-encoded or
 * not). Never throws: malformed input gives `{ ok: false, error }`. With `browser` and `time` the
 * fingerprint is verified too.
 */
export function decode(input: unknown, check?: { browser: LinkerBrowser; time: number }): DecodeResult {
  if (typeof input !== 'string') return fail('Enter a _gl value or a URL.');
  const trimmed = input.trim();
  if (!trimmed) return fail('Enter a _gl value or a URL.');
  if (trimmed.length > MAX_INPUT) return fail(`The input is longer than ${MAX_INPUT} characters.`);
  const located = locate(trimmed);
  if ('ok' in located) return located;
  const warnings = [...located.warnings];

  let value = located.value.trim();
  let shape = SHAPE.exec(value);
  for (let i = 0; i < 3 && !shape; i++) {
    const decoded = safeDecode(value);
    if (decoded === undefined) return fail('The _gl value has a broken percent-escape (a "%" not followed by two hex digits).');
    if (decoded === value) break;
    value = decoded;
    shape = SHAPE.exec(value);
  }
  if (!value) return fail('The _gl parameter is empty.');
  if (!shape) return fail('Not a _gl value: expected 1*<fingerprint>*<key>*<value>…, separated by "*".');
  const [, version, fingerprintValue, payload] = shape as unknown as [string, string, string, string];
  if (version !== LINKER_VERSION) {
    return fail(`Unsupported linker version "${version.slice(0, 20)}": gtag.js only reads version 1 (a _gl value starts with "1*").`);
  }
  if (!fingerprintValue) warnings.push('The fingerprint is empty; gtag would never accept this link.');
  else if (!/^[0-9a-z]{1,7}$/.test(fingerprintValue)) {
    warnings.push('The fingerprint is not a base-36 CRC-32 (1 to 7 characters 0-9 a-z); gtag would never accept this link.');
  }

  const cookies: LinkerEntry[] = [];
  const parts = payload === '' ? [] : payload.split('*');
  if (parts.length % 2 === 1) {
    return fail(`The key "${parts[parts.length - 1]!.slice(0, 60)}" has no value: keys and values must come in pairs.`);
  }
  const seen = new Set<string>();
  let standardAlphabet = false;
  for (let i = 0; i < parts.length; i += 2) {
    const key = parts[i]!;
    const rawValue = parts[i + 1]!;
    if (!key) return fail(`Entry ${i / 2 + 1} has an empty key.`);
    const decoded = decodeText(rawValue);
    if (!decoded.ok) return fail(`The value of "${key.slice(0, 60)}" is not valid base64: ${decoded.error}.`);
    standardAlphabet ||= decoded.standardAlphabet;
    if (seen.has(key)) warnings.push(`"${key}" appears more than once; gtag keeps the last one.`);
    seen.add(key);
    cookies.push({ key, rawValue, value: decoded.text, ...interpret(key, decoded.text) });
  }
  if (standardAlphabet) {
    warnings.push('A value uses "+" or "/" (standard base64): gtag.js only reads the URL-safe alphabet and would ignore the whole link.');
  }
  const result: DecodedLinker = {
    ok: true,
    linker: value,
    source: located.source,
    version,
    fingerprint: fingerprintValue,
    payload,
    cookies,
    warnings,
  };
  if (check) result.verification = verify(fingerprintValue, payload, check.browser, check.time);
  return result;
}

export type LinkerCookies = Record<string, string> | ReadonlyArray<{ key: string; value: string }>;

export interface EncodeInput {
  /**
   * Cookie names and values, in link order. Values may be given as they read on the page
   * (`GA1.1.…`, `GS2.1.…`, `1.1.…`) or as the link carries them; see `normalize`.
   */
  cookies: LinkerCookies;
  browser: LinkerBrowser;
  /** Epoch milliseconds of the click; the fingerprint uses its minute. */
  time: number;
  /** A URL to decorate: any existing `_gl` (query or fragment) is replaced. */
  url?: string;
  /** Put `_gl` in the fragment instead of the query (gtag's `url_position: 'fragment'`). */
  placement?: 'query' | 'fragment';
  /** Strip the cookie prefixes the link does not carry, as gtag does (default true). */
  normalize?: boolean;
}

export interface EncodedLinker {
  ok: true;
  /** The `_gl` value (`1*…`). */
  value: string;
  /** The decorated URL, when a URL was given. */
  url?: string;
  fingerprint: string;
  minute: number;
  /** The entries as they went into the link, after normalising. */
  entries: { key: string; value: string }[];
}

export type EncodeResult = EncodedLinker | LinkerError;

/** Keys travel unencoded, so only URL-safe characters that cannot be mistaken for separators. */
export const LINKER_KEY = /^[A-Za-z0-9_.-]{1,100}$/;
export const MAX_COOKIES = 50;
export const MAX_VALUE_LENGTH = 4096;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function entriesOf(cookies: LinkerCookies): { key: string; value: string }[] {
  return Array.isArray(cookies)
    ? (cookies as { key: string; value: string }[]).map(({ key, value }) => ({ key, value }))
    : Object.entries(cookies as Record<string, string>).map(([key, value]) => ({ key, value }));
}

/** Builds a `_gl` value, and a decorated URL when `url` is given. Never throws. */
export function encode(input: EncodeInput): EncodeResult {
  const normalize = input.normalize ?? true;
  const raw = entriesOf(input.cookies);
  if (raw.length > MAX_COOKIES) return fail(`At most ${MAX_COOKIES} cookies.`);
  const entries: { key: string; value: string }[] = [];
  for (const { key, value } of raw) {
    if (typeof key !== 'string' || !LINKER_KEY.test(key)) {
      return fail(`Cookie name "${String(key).slice(0, 60)}" must be 1 to 100 letters, digits, "_", "-" or ".".`);
    }
    if (typeof value !== 'string') return fail(`The value of "${key}" must be text.`);
    if (value.length > MAX_VALUE_LENGTH) return fail(`The value of "${key}" is longer than ${MAX_VALUE_LENGTH} characters.`);
    if (LONE_SURROGATE.test(value)) return fail(`The value of "${key}" has a broken Unicode character.`);
    const linkKey = normalize ? toLinkerKey(key) : key;
    entries.push({ key: linkKey, value: normalize ? toLinkerValue(linkKey, value) : value });
  }
  const keys = new Set(entries.map((entry) => entry.key));
  if (keys.size !== entries.length) return fail('Each cookie may appear only once.');
  if (!Number.isFinite(input.time)) return fail('The time is not a valid date.');
  const payload = entries.map(({ key, value }) => `${key}*${encodeText(value)}`).join('*');
  const minute = minuteIndex(input.time);
  const print = fingerprint(payload, input.browser, minute);
  const value = [LINKER_VERSION, print, payload].join('*');
  const result: EncodedLinker = { ok: true, value, fingerprint: print, minute, entries };
  if (input.url !== undefined && input.url.trim() !== '') {
    const decorated = decorate(input.url.trim(), value, input.placement ?? 'query');
    if (!decorated.ok) return decorated;
    result.url = decorated.url;
  }
  return result;
}

function withoutLinker(part: string): string {
  return part
    .split('&')
    .filter((pair) => pair !== '' && pair.split('=')[0] !== LINKER_PARAM)
    .join('&');
}

/**
 * Puts `_gl=<value>` into a URL's query (or fragment), after its other parameters, removing any
 * `_gl` already in the query or the fragment. Like gtag, it leaves everything else untouched.
 */
export function decorate(url: string, value: string, placement: 'query' | 'fragment' = 'query'): { ok: true; url: string } | LinkerError {
  const match = /^([^?#]+)(\?[^#]*)?(#.*)?$/s.exec(url);
  if (!match) return fail('Enter a URL to decorate, such as https://shop.example.com/cart.');
  const base = match[1]!;
  let query = withoutLinker((match[2] ?? '').slice(1));
  let fragment = withoutLinker((match[3] ?? '').slice(1));
  const param = `${LINKER_PARAM}=${value}`;
  if (placement === 'fragment') fragment = fragment ? `${fragment}&${param}` : param;
  else query = query ? `${query}&${param}` : param;
  return { ok: true, url: `${base}${query ? `?${query}` : ''}${fragment || match[3] === '#' ? `#${fragment}` : ''}` };
}
