import { splitName } from './rules.js';
import type { AppLogParam } from './types.js';

/*
 * Parsers for the two value syntaxes Firebase prints.
 *
 * Android prints `Bundle.toString()`: `Bundle[{key(_short)=value, items=[Bundle[{…}], Bundle[{…}]]}]`.
 * Values are not quoted, so a value may hold commas, braces or `=`; a value ends only where the next
 * `, key=` begins or where its bundle closes (`}]`). That is ambiguous in theory (a value containing
 * `, word=` splits) but it is exactly what the SDK gives us, and it keeps `Shirt, blue {XL}` intact.
 *
 * iOS prints `NSDictionary.description`: `{ key (_short) = value; items = ( { … }, { … } ); }`, over
 * several lines, with strings quoted when they hold spaces or punctuation (`"Blue, large"`).
 */

const KEY_AT = /[A-Za-z0-9_]+(?:\(_[A-Za-z0-9_]*\))?=/y;

function keyAt(text: string, at: number): string | null {
  KEY_AT.lastIndex = at;
  const match = KEY_AT.exec(text);
  return match ? match[0].slice(0, -1) : null;
}

function makeParam(rawKey: string, value: string | null, items?: AppLogParam[][]): AppLogParam {
  const { name, shortName } = splitName(rawKey);
  const param: AppLogParam = { name, shortName, value };
  if (items) param.items = items;
  return param;
}

function literal(raw: string, nullWord: string): string | null {
  return raw === nullWord ? null : raw;
}

/** Parses `Bundle[{…}]` (or a bare `{…}`) into parameters; text it cannot read is ignored, never thrown. */
export function parseBundle(text: string): AppLogParam[] {
  const source = text.trim();
  if (source.startsWith('Bundle[')) return readBundle(source, 0).params;
  if (source.startsWith('{')) return readEntries(source, 1, '}').params;
  return [];
}

function readBundle(text: string, at: number): { params: AppLogParam[]; end: number } {
  // at points at "Bundle["
  let i = at + 'Bundle['.length;
  if (text[i] !== '{') {
    // Bundle[mParcelledData.dataSize=…] or Bundle[EMPTY_PARCEL]: not printable, skip to its ']'.
    const close = text.indexOf(']', i);
    return { params: [], end: close === -1 ? text.length : close + 1 };
  }
  i += 1;
  const { params, end } = readEntries(text, i, '}]');
  return { params, end };
}

/** Reads `key=value, key=value` up to `close`; returns the index after `close`. */
function readEntries(text: string, at: number, close: '}]' | '}'): { params: AppLogParam[]; end: number } {
  const params: AppLogParam[] = [];
  let i = at;
  if (text.startsWith(close, i)) return { params, end: i + close.length };
  while (i < text.length) {
    const key = keyAt(text, i);
    if (key === null) {
      const skip = text.indexOf(close, i);
      return { params, end: skip === -1 ? text.length : skip + close.length };
    }
    i += key.length + 1;
    if (text.startsWith('Bundle[', i)) {
      const nested = readBundle(text, i);
      params.push(makeParam(key, null, [nested.params]));
      i = nested.end;
    } else if (text[i] === '[' && (text.startsWith('[Bundle[', i) || text.startsWith('[]', i))) {
      const array = readArray(text, i);
      params.push(makeParam(key, null, array.items));
      i = array.end;
    } else {
      const end = plainEnd(text, i, close);
      params.push(makeParam(key, literal(text.slice(i, end), 'null')));
      i = end;
    }
    if (text.startsWith(', ', i)) {
      i += 2;
      continue;
    }
    if (text.startsWith(close, i)) return { params, end: i + close.length };
    // Unexpected text after a value: stop at the bundle's end.
    const skip = text.indexOf(close, i);
    return { params, end: skip === -1 ? text.length : skip + close.length };
  }
  return { params, end: text.length };
}

/** Where a plain (unquoted) value that starts at `at` ends: before `, key=` or `close`. */
function plainEnd(text: string, at: number, close: string): number {
  let from = at;
  for (;;) {
    const comma = text.indexOf(', ', from);
    const closing = text.indexOf(close, from);
    if (comma !== -1 && (closing === -1 || comma < closing)) {
      if (keyAt(text, comma + 2) !== null) return comma;
      from = comma + 2;
      continue;
    }
    return closing === -1 ? text.length : closing;
  }
}

function readArray(text: string, at: number): { items: AppLogParam[][]; end: number } {
  const items: AppLogParam[][] = [];
  let i = at + 1;
  while (i < text.length) {
    if (text[i] === ']') return { items, end: i + 1 };
    if (text.startsWith('Bundle[', i)) {
      const nested = readBundle(text, i);
      items.push(nested.params);
      i = nested.end;
    } else {
      const stop = text.indexOf(']', i);
      return { items, end: stop === -1 ? text.length : stop + 1 };
    }
    if (text.startsWith(', ', i)) i += 2;
  }
  return { items, end: text.length };
}

/* ---------------------------------- iOS ---------------------------------- */

/** Parses an NSDictionary description `{ key (_s) = value; … }` into parameters; never throws. */
export function parseDictionary(text: string): AppLogParam[] {
  const start = text.indexOf('{');
  if (start === -1) return [];
  return new DictionaryReader(text, start).dictionary();
}

class DictionaryReader {
  constructor(
    private readonly text: string,
    private i: number,
  ) {}

  private spaces(): void {
    // Char codes, not /\s/: NSDictionary descriptions are mostly indentation.
    for (;;) {
      const code = this.text.charCodeAt(this.i);
      if (code !== 32 && code !== 10 && code !== 13 && code !== 9) return;
      this.i++;
    }
  }

  dictionary(): AppLogParam[] {
    const params: AppLogParam[] = [];
    this.i++; // {
    for (;;) {
      this.spaces();
      if (this.i >= this.text.length) return params;
      if (this.text[this.i] === '}') {
        this.i++;
        return params;
      }
      const key = this.key();
      if (key === null) return params;
      this.spaces();
      params.push(this.value(key));
      this.spaces();
      if (this.text[this.i] === ';') this.i++;
    }
  }

  private key(): string | null {
    if (this.text[this.i] === '"') {
      const quoted = this.quoted();
      this.spaces();
      if (this.text[this.i] === '=') this.i++;
      return quoted;
    }
    const equals = this.text.indexOf('=', this.i);
    const close = this.text.indexOf('}', this.i);
    if (equals === -1 || (close !== -1 && close < equals)) {
      this.i = close === -1 ? this.text.length : close;
      return null;
    }
    const key = this.text.slice(this.i, equals).trim();
    this.i = equals + 1;
    return key;
  }

  private value(key: string): AppLogParam {
    const char = this.text[this.i];
    if (char === '{') return makeParam(key, null, [this.dictionary()]);
    if (char === '(') return makeParam(key, null, this.array());
    if (char === '"') return makeParam(key, this.quoted());
    let end = this.i;
    while (end < this.text.length && this.text[end] !== ';' && this.text[end] !== '}' && this.text[end] !== '\n') end++;
    const raw = this.text.slice(this.i, end).trim();
    this.i = end;
    return makeParam(key, literal(raw, '<null>'));
  }

  private array(): AppLogParam[][] {
    const items: AppLogParam[][] = [];
    this.i++; // (
    for (;;) {
      this.spaces();
      const char = this.text[this.i];
      if (char === undefined) return items;
      if (char === ')') {
        this.i++;
        return items;
      }
      if (char === '{') items.push(this.dictionary());
      else if (char === '"') items.push([{ name: String(items.length), shortName: null, value: this.quoted() }]);
      else {
        let end = this.i;
        while (end < this.text.length && !',)'.includes(this.text[end])) end++;
        items.push([{ name: String(items.length), shortName: null, value: this.text.slice(this.i, end).trim() }]);
        this.i = end;
      }
      this.spaces();
      if (this.text[this.i] === ',') this.i++;
    }
  }

  /** A quoted string with NSString escapes (\" \\ \n \t \Uxxxx). */
  private quoted(): string {
    let out = '';
    this.i++; // opening quote
    while (this.i < this.text.length) {
      const char = this.text[this.i];
      if (char === '"') {
        this.i++;
        return out;
      }
      if (char === '\\') {
        const next = this.text[this.i + 1];
        if (next === 'U' || next === 'u') {
          const hex = this.text.slice(this.i + 2, this.i + 6);
          if (/^[0-9a-fA-F]{4}$/.test(hex)) {
            out += String.fromCharCode(parseInt(hex, 16));
            this.i += 6;
            continue;
          }
        }
        out += next === 'n' ? '\n' : next === 't' ? '\t' : (next ?? '');
        this.i += 2;
        continue;
      }
      out += char;
      this.i++;
    }
    return out;
  }
}

/**
 * Bracket depth after `text`, for deciding whether a message continues on the next line. Quoted
 * strings are skipped when `quotes` is set (iOS); Android values are unquoted, so only brackets count.
 */
export function openBrackets(text: string, quotes: boolean): number {
  let depth = 0;
  let inQuote = false;
  for (let i = 0; i < text.length; i++) {
    const char = text.charCodeAt(i);
    if (inQuote) {
      if (char === 92) i++;
      else if (char === 34) inQuote = false;
      continue;
    }
    if (quotes && char === 34) inQuote = true;
    else if (char === 123 || char === 40 || char === 91) depth++;
    else if (char === 125 || char === 41 || char === 93) depth--;
  }
  return depth;
}
