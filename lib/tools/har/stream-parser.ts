import { HarError } from './analyse.js';

/*
 * An incremental reader for HAR files: text goes in chunk by chunk (as a TextDecoder gives it), each
 * element of `log.entries` comes out as soon as its closing brace has arrived, and the text itself is
 * never held whole — only the entry being read.
 *
 * It is a structural scanner, not a full JSON parser: it follows strings, brackets and separators
 * through the whole file (so braces in strings, escaped quotes and UTF-8 split across chunks are of
 * no consequence), and hands the text of one entry at a time to the native JSON.parse, which builds
 * the objects far faster than JavaScript could and checks the entry's syntax. Strings are crossed
 * with indexOf (no per-character loop over a response body). Values the analyser never reads
 * (response bodies above all, `skip` below) are crossed without being copied into the entry's text:
 * they come out as `null`. Outside the entries only `log.version` and `log.creator` are kept.
 *
 * Inside an entry, only the keys on the way to a skipped value are read (the entry itself, response,
 * response.content); every other object or array is crossed by a tight loop that only pairs up
 * brackets and jumps over strings (cross()), which is what makes the scan about as fast as one
 * JSON.parse of the whole text.
 *
 * Validation: outside the entries the whole syntax is checked (brackets, commas, colons, literals,
 * numbers); an entry is checked by JSON.parse, except its skipped values, of which only the brackets
 * (and the end of a string) are looked at — not their escapes, commas or literals.
 */

/** A path of keys inside one entry, e.g. ['response', 'content', 'text']. */
export type EntryPath = readonly string[];

/**
 * What the HAR analyser does not read (lib/tools/har/analyse.ts reads startedDateTime, request.*
 * and response.status): the response body, which is most of a capture's bytes, and Chrome's
 * per-entry extras that can be large (the initiator's stack trace, WebSocket frames).
 */
export const HAR_ANALYSER_SKIP: readonly EntryPath[] = [['response', 'content', 'text'], ['_initiator'], ['_webSocketMessages']];

export interface HarStreamOptions {
  /** Each element of log.entries, in file order, as soon as it is complete. */
  onEntry: (entry: unknown, index: number) => void;
  /** Values inside an entry to drop (they come out as null). Default: HAR_ANALYSER_SKIP. */
  skip?: readonly EntryPath[];
}

export interface HarStreamEnd {
  /** How many entries were handed to onEntry. */
  entries: number;
  version?: string;
  creator?: { name?: string; version?: string };
}

interface Trie {
  /** The value at this key is dropped. */
  skip: boolean;
  children: Map<string, Trie>;
  /** Bit n set when a child key is n characters long: other keys are not even sliced out. */
  lengths: number;
}

/** The `lengths` bit of a key (keys of 31 characters or more share the last bit). */
const lengthBit = (length: number) => 1 << Math.min(length, 31);

function trieOf(paths: readonly EntryPath[]): Trie {
  const root: Trie = { skip: false, children: new Map(), lengths: 0 };
  for (const path of paths) {
    let node = root;
    for (const key of path) {
      let next = node.children.get(key);
      if (!next) node.children.set(key, (next = { skip: false, children: new Map(), lengths: 0 }));
      node.lengths |= lengthBit(key.length);
      node = next;
    }
    node.skip = true;
  }
  return root;
}

// What the scanner expects next.
const START = 0; // the root value (only whitespace so far)
const VALUE = 1; // a value (after ':' or ',' in an array)
const ARRAY_FIRST = 2; // a value or ']' (after '[')
const OBJECT_FIRST = 3; // a key or '}' (after '{')
const KEY = 4; // a key (after ',' in an object)
const COLON = 5;
const AFTER = 6; // ',' or the closing bracket, after a value
const STRING = 7; // inside a string value
const KEY_STRING = 8; // inside a key
const LITERAL = 9; // inside a number, true, false or null
const END = 10; // after the root object: whitespace only
const CROSS = 11; // inside a container whose content does not matter here (see cross())

// The keys read at the top (log) and in log (entries, creator, version).
const ROOT_KEYS = lengthBit(3);
const LOG_KEYS = lengthBit(7);

const LITERAL_SYNTAX = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)$/;

// Kinds of captured values.
const ENTRY = 1;
const META = 2;

const isSpace = (code: number) => code === 32 || code === 10 || code === 13 || code === 9;
const isLiteralChar = (code: number) =>
  (code >= 48 && code <= 57) || (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || code === 45 || code === 43 || code === 46;

function invalid(detail: string): HarError {
  return new HarError('invalid_json', `The file is not valid JSON (${detail}). Was the export interrupted?`);
}

const NOT_HAR =
  'This is JSON but not a HAR file: it has no "log.entries" list. Export it from the browser devtools Network panel ("Save all as HAR").';

export class HarStreamParser {
  private readonly onEntry: (entry: unknown, index: number) => void;
  private readonly skipTrie: Trie;

  private state = START;
  /** Per open container: 1 for an object, 0 for an array. */
  private readonly containers: number[] = [];
  /** Per open container inside an entry: the skip-trie node its keys are looked up in. */
  private readonly tries: Array<Trie | null> = [];
  /** The key of the member being read, in the containers where keys matter (else null). */
  private key: string | null = null;
  /** The `lengths` of the keys that matter in the current object (0: none does). */
  private keyLengths = 0;
  /** The string being crossed had a backslash (its raw length is not its length). */
  private escaped = false;
  private keyParts: string[] = [];
  private literalParts: string[] = [];
  private literalStart = 0;
  /** A backslash ended the last chunk inside a string: the next chunk's first character is escaped. */
  private escapePending = false;
  /** Characters before the current chunk (for error positions). */
  private offset = 0;
  /** The chunk being scanned and where its next backslash is (cached: indexOf from each quote would be quadratic). */
  private chunk = '';
  private nextBackslash = -1;

  // Where the interesting parts are: depths of the log object and of the entries array (0: not inside).
  private logDepth = 0;
  private entriesDepth = 0;
  private sawLog = false;
  private sawEntries = false;
  private entriesNotArray = false;

  // The value being captured (an entry, or log.version / log.creator).
  private capture = 0;
  private captureDepth = 0;
  private captureKey = '';
  private captureStart = 0;
  private captureParts: string[] = [];
  /** Depth of the value being skipped inside a captured entry (0: not skipping). */
  private skipDepth = 0;

  private entryCount = 0;
  private readonly meta: HarStreamEnd = { entries: 0 };

  constructor(options: HarStreamOptions) {
    this.onEntry = options.onEntry;
    this.skipTrie = trieOf(options.skip ?? HAR_ANALYSER_SKIP);
  }

  /** log.version and log.creator when they have been read (before the end, too: for a file cut short). */
  get log(): Pick<HarStreamEnd, 'version' | 'creator'> {
    return { version: this.meta.version, creator: this.meta.creator };
  }

  /** How many entries have been handed to onEntry so far. */
  get entries(): number {
    return this.entryCount;
  }

  /** Scans the next piece of text. Throws HarError as soon as the text cannot be a HAR file. */
  push(text: string): void {
    const chunk = text;
    const length = chunk.length;
    this.chunk = chunk;
    this.nextBackslash = -1;
    let pos = 0;
    let state = this.state;
    while (pos < length) {
      if (state === STRING || state === KEY_STRING) {
        const start = pos;
        // A backslash ended the last chunk: this chunk's first character is the one it escapes.
        const end = this.stringEnd(this.escapePending ? ((this.escapePending = false), pos + 1) : pos);
        if (end < 0) {
          if (state === KEY_STRING && this.keyLengths) this.keyParts.push(chunk.slice(start));
          pos = length;
          break;
        }
        pos = end + 1;
        if (state === KEY_STRING) {
          if (this.keyParts.length) {
            this.keyParts.push(chunk.slice(start, end));
            this.key = this.decodeKey(this.keyParts.join(''));
            this.keyParts = [];
          } else if (this.keyLengths && (this.escaped || this.keyLengths & lengthBit(end - start))) {
            this.key = this.decodeKey(chunk.slice(start, end));
          }
          this.escaped = false;
          state = COLON;
        } else {
          state = this.valueEnded(pos);
        }
        continue;
      }
      if (state === CROSS) {
        const end = this.cross(pos);
        if (end < 0) break;
        pos = end;
        state = this.valueEnded(pos);
        continue;
      }
      const code = chunk.charCodeAt(pos);
      if (state === LITERAL) {
        if (isLiteralChar(code)) {
          pos++;
          continue;
        }
        this.endLiteral(pos);
        state = this.valueEnded(pos);
        continue;
      }
      if (isSpace(code)) {
        pos++;
        continue;
      }
      switch (state) {
        case AFTER:
          if (code === 44) {
            // ','
            if (this.containers[this.containers.length - 1] === 1) {
              state = KEY;
              this.keyLengths = this.wantedKeys();
            } else state = VALUE;
            pos++;
          } else if (code === 125 || code === 93) {
            // '}' or ']'
            const depth = this.containers.length;
            if (this.containers[depth - 1] !== (code === 125 ? 1 : 0)) throw this.unexpected(pos);
            this.close(depth);
            pos++;
            state = depth === 1 ? END : this.valueEnded(pos);
          } else throw this.unexpected(pos);
          break;
        case OBJECT_FIRST:
        case KEY:
          if (code === 34) {
            state = KEY_STRING;
            this.escaped = false;
            pos++;
          } else if (code === 125 && state === OBJECT_FIRST) {
            const depth = this.containers.length;
            this.close(depth);
            pos++;
            state = depth === 1 ? END : this.valueEnded(pos);
          } else throw this.unexpected(pos);
          break;
        case COLON:
          if (code !== 58) throw this.unexpected(pos);
          state = VALUE;
          pos++;
          break;
        case ARRAY_FIRST:
        case VALUE:
          if (code === 93 && state === ARRAY_FIRST) {
            this.close(this.containers.length);
            pos++;
            state = this.valueEnded(pos);
            break;
          }
          if (this.valueStarts(pos, code) && (code === 123 || code === 91)) {
            this.crossing.push(code);
            state = CROSS;
            pos++;
          } else if (code === 123) {
            this.open(1);
            state = OBJECT_FIRST;
            this.keyLengths = this.wantedKeys();
            pos++;
          } else if (code === 91) {
            this.open(0);
            state = ARRAY_FIRST;
            pos++;
          } else if (code === 34) {
            state = STRING;
            pos++;
          } else if (isLiteralChar(code)) {
            state = LITERAL;
            this.literalStart = pos;
            pos++;
          } else throw this.unexpected(pos);
          break;
        case START:
          if (code !== 123) throw new HarError('not_har', 'This is not a HAR file: a HAR file is a JSON object starting with "{".');
          this.open(1);
          state = OBJECT_FIRST;
          this.keyLengths = ROOT_KEYS;
          pos++;
          break;
        case END:
          throw invalid(`unexpected data after the end of the JSON object, at character ${this.offset + pos + 1}`);
      }
    }
    // Keep what the next chunk continues.
    if (state === LITERAL) this.literalParts.push(chunk.slice(this.literalStart));
    this.literalStart = 0;
    if (this.capture && !this.skipDepth) {
      this.captureParts.push(chunk.slice(this.captureStart));
    }
    this.captureStart = 0;
    this.state = state;
    this.offset += length;
    this.chunk = '';
  }

  /** The end of the text: throws HarError when it is not a complete HAR file. */
  end(): HarStreamEnd {
    if (this.state === START) throw new HarError('empty', 'The file is empty.');
    if (this.state !== END) {
      throw invalid(
        `it ends in the middle of the data, after ${this.entryCount.toLocaleString('en-GB')} complete ${this.entryCount === 1 ? 'entry' : 'entries'}`,
      );
    }
    if (!this.sawEntries || this.entriesNotArray) throw new HarError('not_har', NOT_HAR);
    this.meta.entries = this.entryCount;
    return this.meta;
  }

  /** Index of the quote closing the string that continues at `pos`, or -1 when it goes on past the chunk. */
  private stringEnd(from: number): number {
    const chunk = this.chunk;
    let pos = from;
    for (;;) {
      const quote = chunk.indexOf('"', pos);
      if (quote < 0) {
        // A backslash as the chunk's last character escapes the next chunk's first one.
        let backslashes = 0;
        for (let at = chunk.length - 1; at >= pos && chunk.charCodeAt(at) === 92; at--) backslashes++;
        this.escapePending = backslashes % 2 === 1;
        if (backslashes) this.escaped = true;
        return -1;
      }
      if (this.nextBackslash !== Infinity && this.nextBackslash < pos) {
        const found = chunk.indexOf('\\', pos);
        this.nextBackslash = found < 0 ? Infinity : found;
      }
      if (this.nextBackslash < quote) {
        this.escaped = true;
        pos = this.nextBackslash + 2;
        if (pos > chunk.length) {
          this.escapePending = true;
          return -1;
        }
        continue;
      }
      return quote;
    }
  }

  private decodeKey(raw: string): string {
    if (!raw.includes('\\')) return raw;
    try {
      return JSON.parse(`"${raw}"`) as string;
    } catch {
      throw invalid(`a key has an invalid escape, near character ${this.offset}`);
    }
  }

  private unexpected(pos: number): HarError {
    const char = this.chunk[pos] ?? '';
    const shown = char.charCodeAt(0) < 32 ? `U+${char.charCodeAt(0).toString(16).padStart(4, '0')}` : `"${char}"`;
    return invalid(`unexpected ${shown} at character ${(this.offset + pos + 1).toLocaleString('en-GB')}`);
  }

  /** Which keys of the object just opened (or being continued) must be read: their `lengths`. */
  private wantedKeys(): number {
    const depth = this.containers.length;
    if (depth === 1) return ROOT_KEYS;
    if (depth === this.logDepth) return LOG_KEYS;
    if (this.capture !== ENTRY || this.skipDepth) return 0;
    return this.tries[depth - 1]?.lengths ?? 0;
  }

  private open(isObject: number): void {
    this.containers.push(isObject);
    this.tries.push(this.trieSlot);
    this.trieSlot = null;
  }

  private close(depth: number): void {
    if (depth === this.entriesDepth) this.entriesDepth = 0;
    if (depth === this.logDepth) this.logDepth = 0;
    this.containers.pop();
    this.tries.pop();
  }

  /**
   * A value starts at `pos` (first character `code`) in the current container. Answers whether
   * nothing inside it matters beyond where it ends (a container is then crossed by cross()).
   */
  private valueStarts(pos: number, code: number): boolean {
    const depth = this.containers.length;
    const key = this.key;
    this.key = null;
    if (this.capture) {
      if (this.skipDepth || this.capture !== ENTRY) return true;
      const parent = this.tries[depth - 1];
      const node = parent && key !== null ? parent.children.get(key) : undefined;
      if (!node) return true;
      if (node.skip) {
        this.captureParts.push(this.chunk.slice(this.captureStart, pos), 'null');
        this.skipDepth = depth;
        return true;
      }
      // The object about to open looks its keys up in this node.
      if (code === 123) this.trieSlot = node;
      return false;
    }
    if (depth === 1) {
      if (key === 'log' && !this.sawLog) {
        this.sawLog = true;
        if (code === 123) this.logDepth = 2;
      }
      return false;
    }
    if (depth === this.logDepth) {
      if (key === 'entries' && !this.sawEntries) {
        this.sawEntries = true;
        if (code === 91) this.entriesDepth = depth + 1;
        else this.entriesNotArray = true;
      } else if (key === 'version' || key === 'creator') {
        this.startCapture(META, depth, pos, key);
        return true;
      }
      return false;
    }
    if (depth === this.entriesDepth) {
      this.startCapture(ENTRY, depth, pos, '');
      if (code === 123) this.trieSlot = this.skipTrie;
    }
    return false;
  }

  /**
   * Crosses a container whose content does not matter here — inside an entry (JSON.parse checks it
   * later) or inside a value being skipped — from `pos`: strings and brackets only, the brackets
   * still checked to pair up. Answers the position after its closing bracket, or -1 when it goes on
   * past the chunk. Most of an entry (request, headers, timings…) is crossed this way.
   */
  private cross(from: number): number {
    const chunk = this.chunk;
    const length = chunk.length;
    const open = this.crossing;
    let pos = from;
    if (this.crossingString) {
      const end = this.stringEnd(this.escapePending ? ((this.escapePending = false), pos + 1) : pos);
      if (end < 0) return -1;
      this.crossingString = false;
      pos = end + 1;
    }
    while (pos < length) {
      const code = chunk.charCodeAt(pos);
      if (code === 34) {
        const end = this.stringEnd(pos + 1);
        if (end < 0) {
          this.crossingString = true;
          return -1;
        }
        pos = end + 1;
        continue;
      }
      if (code === 123 || code === 91) open.push(code);
      else if (code === 125 || code === 93) {
        // '{' and '}', '[' and ']' are two apart.
        if (open.pop() !== code - 2) throw this.unexpected(pos);
        if (open.length === 0) return pos + 1;
      }
      pos++;
    }
    return -1;
  }

  /** The opening brackets of the containers cross() is in, innermost last. */
  private readonly crossing: number[] = [];
  /** cross() stopped at the end of a chunk inside a string. */
  private crossingString = false;

  /** The skip-trie node for the object that opens next: set by valueStarts, taken by open(). */
  private trieSlot: Trie | null = null;

  private startCapture(kind: number, depth: number, pos: number, key: string): void {
    this.capture = kind;
    this.captureDepth = depth;
    this.captureKey = key;
    this.captureStart = pos;
    this.captureParts = [];
  }

  /** A value (string, literal or container) ended just before `pos`: what comes next. */
  private valueEnded(pos: number): number {
    const depth = this.containers.length;
    if (this.skipDepth === depth) {
      this.skipDepth = 0;
      this.captureStart = pos;
    } else if (this.capture && depth === this.captureDepth) {
      this.captureParts.push(this.chunk.slice(this.captureStart, pos));
      const text = this.captureParts.join('');
      this.captureParts = [];
      const kind = this.capture;
      this.capture = 0;
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (error) {
        throw invalid(
          kind === ENTRY
            ? `entry ${(this.entryCount + 1).toLocaleString('en-GB')}: ${error instanceof Error ? error.message : String(error)}`
            : `log.${this.captureKey}: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (kind === ENTRY) {
        const index = this.entryCount++;
        this.onEntry(value, index);
      } else if (this.captureKey === 'version') {
        if (typeof value === 'string') this.meta.version = value;
      } else if (typeof value === 'object' && value !== null) {
        this.meta.creator = value as HarStreamEnd['creator'];
      }
    }
    return AFTER;
  }

  private endLiteral(pos: number): void {
    let token = this.chunk.slice(this.literalStart, pos);
    if (this.literalParts.length) {
      token = this.literalParts.join('') + token;
      this.literalParts = [];
    }
    if ((!this.capture || this.skipDepth) && !LITERAL_SYNTAX.test(token)) {
      throw invalid(`"${token.slice(0, 20)}" is not a JSON value, before character ${(this.offset + pos + 1).toLocaleString('en-GB')}`);
    }
  }
}
