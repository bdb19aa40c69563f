import { randomFillSync } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { constants, crc32, deflateRawSync } from 'node:zlib';
import { ANNOUNCEMENT_DISMISSED_COOKIE } from '../../lib/api/site-settings.js';
import { COLOR_MODE_COOKIE, parseColorMode } from '../../lib/client-constants.js';
import { RESERVED_PATH } from '../../lib/routes/reserved-paths.js';
import { chooseEncoding } from '../common/accept-encoding.js';
import { parseCookieHeader } from '../common/lazy-cookies.js';
import { publicContentGeneration } from '../common/public-content.js';
import { REFRESH_COOKIE, SESSION_COOKIE } from '../auth/sessions.service.js';

/**
 * How long an anonymous page is served from memory. Changes made on this instance drop it at once
 * (public-content.ts); another instance's change shows here after at most this plus the few seconds
 * the settings themselves are cached for (SITE_SETTINGS_CACHE_MS).
 */
export const PAGE_CACHE_TTL_MS = 2_000;

/** Headers that belong to one response, never replayed from a stored one. */
const PER_RESPONSE = new Set([
  'content-length',
  'etag',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-encoding',
  'vary',
]);

const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** A final, empty stored deflate block: the stream ends here. */
const DEFLATE_END = Buffer.from([1, 0, 0, 0xff, 0xff]);

/**
 * What an anonymous page's HTML depends on besides the data behind it: the URL as requested, the
 * colour mode cookie (the server renders the chosen theme) and a dismissed announcement. Null when
 * the request carries a session or a refresh cookie: such a page is the person's own, never cached
 * and never answered from the cache.
 */
export function pageCacheKey(url: string, cookieHeader: string | undefined): string | null {
  if (!cookieHeader) return `${url}\n${parseColorMode(undefined)}\n`;
  const cookies = parseCookieHeader(cookieHeader);
  if (SESSION_COOKIE in cookies || REFRESH_COOKIE in cookies) return null;
  const dismissed = cookies[ANNOUNCEMENT_DISMISSED_COOKIE] ?? '';
  // An announcement version is 16 hex digits; anything else dismisses nothing, like no cookie.
  return `${url}\n${parseColorMode(cookies[COLOR_MODE_COOKIE])}\n${/^[0-9a-f]{16}$/.test(dismissed) ? dismissed : ''}`;
}

/** CSP nonces from a pool of random bytes filled 256 at a time (one system call per 256 pages). */
class NoncePool {
  private readonly pool = Buffer.alloc(16 * 256);
  private offset = this.pool.length;

  next(): string {
    if (this.offset === this.pool.length) {
      randomFillSync(this.pool);
      this.offset = 0;
    }
    this.offset += 16;
    return this.pool.toString('base64', this.offset - 16, this.offset);
  }
}

/** A page as the uncached render answered it. */
export interface RenderedForCache {
  status: number;
  headers: OutgoingHttpHeaders;
  html: string;
  /** The nonce of that render: every place it appears gets the next response's own. */
  nonce: string;
}

interface Entry {
  status: number;
  /** Header name and value, the value split where the nonce was. */
  headers: Array<[string, string[]]>;
  vary: string | null;
  /** The HTML split where the nonce was, and each piece deflated once (see `gzipBody`). */
  pieces: Buffer[];
  deflated: Buffer[];
  bytes: number;
  generation: number;
  expiresAt: number;
}

export interface PageCacheOptions {
  maxBytes: number;
  ttlMs?: number;
  /** Answer `Accept-Encoding: gzip` with gzip (false behind a compressing proxy, COMPRESSION=off). */
  gzip: boolean;
  now?: () => number;
}

/**
 * Rendered anonymous pages, answered from memory before Express and Nest see the request, so a hit
 * costs little more than Node's HTTP stack itself. Each answer has its own CSP nonce, put where the
 * render's nonce was in the HTML and in the Content-Security-Policy header; every other header and
 * the status are those of the render. For gzip, each piece of HTML between nonces is deflated once
 * when stored; an answer is those pieces with its nonce between them as stored deflate blocks, and a
 * CRC-32 computed for it (RFC 1951 §3.2.4, RFC 1952): about 8 µs for the 26 kB home page against
 * about 60 µs to gzip it afresh at level 1.
 *
 * Bounded by bytes (least recently used out first); an entry is dropped after `ttlMs` or when public
 * content changes on this instance (public-content.ts).
 */
export class PageCache {
  private readonly entries = new Map<string, Entry>();
  private readonly nonces = new NoncePool();
  private bytes = 0;
  private readonly ttlMs: number;
  private readonly now: () => number;

  constructor(private readonly options: PageCacheOptions) {
    this.ttlMs = options.ttlMs ?? PAGE_CACHE_TTL_MS;
    this.now = options.now ?? Date.now;
  }

  get enabled(): boolean {
    return this.options.maxBytes > 0;
  }

  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.bytes };
  }

  /**
   * Keeps a render for the requests after it. `generation` is the public-content generation read
   * before rendering began, so a change made during the render is not hidden by its result.
   */
  store(key: string, page: RenderedForCache, generation: number): void {
    if (!this.enabled || !page.nonce) return;
    if (page.headers['set-cookie'] !== undefined) return;
    const pieces = page.html.split(page.nonce).map((piece) => Buffer.from(piece));
    const deflated = this.options.gzip
      ? pieces.map((piece) => deflateRawSync(piece, { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_SYNC_FLUSH }))
      : [];
    const headers: Entry['headers'] = [];
    for (const [name, value] of Object.entries(page.headers)) {
      if (value === undefined || PER_RESPONSE.has(name)) continue;
      headers.push([name, String(value).split(page.nonce)]);
    }
    const bytes = [...pieces, ...deflated].reduce((sum, piece) => sum + piece.length, key.length + 512);
    if (bytes > this.options.maxBytes) return;
    this.remove(key);
    const vary = typeof page.headers.vary === 'string' ? page.headers.vary : null;
    this.entries.set(key, { status: page.status, headers, vary, pieces, deflated, bytes, generation, expiresAt: this.now() + this.ttlMs });
    this.bytes += bytes;
    for (const [oldest] of this.entries) {
      if (this.bytes <= this.options.maxBytes) break;
      this.remove(oldest);
    }
  }

  /** Answers a GET from memory; false (and nothing written) when the request must go to the app. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || !this.entries.size) return false;
    const url = request.url ?? '/';
    // The API and the probes are never pages: no cookie parsing for them.
    if (RESERVED_PATH.test(url)) return false;
    const key = pageCacheKey(url, request.headers.cookie);
    if (key === null) return false;
    const entry = this.entries.get(key);
    if (!entry) return false;
    if (entry.generation !== publicContentGeneration() || entry.expiresAt <= this.now()) {
      this.remove(key);
      return false;
    }
    // The codings the app chooses between for a page (src/common/response-compression.ts): gzip
    // first; a client that takes only Brotli is left to the app.
    const coding = this.options.gzip ? chooseEncoding(request.headers['accept-encoding'], ['gzip', 'br']) : null;
    if (coding === 'br') return false;
    // Most recently used last: the oldest go first when the bound is reached.
    this.entries.delete(key);
    this.entries.set(key, entry);

    const nonce = this.nonces.next();
    const headers: OutgoingHttpHeaders = {};
    for (const [name, parts] of entry.headers) headers[name] = parts.length === 1 ? parts[0] : parts.join(nonce);
    const nonceBytes = Buffer.from(nonce, 'latin1');
    let body: Buffer[];
    if (this.options.gzip) {
      headers.vary = entry.vary ? `${entry.vary}, Accept-Encoding` : 'Accept-Encoding';
      if (coding === 'gzip') {
        headers['content-encoding'] = 'gzip';
        body = gzipBody(entry, nonceBytes);
      } else body = identityBody(entry, nonceBytes);
    } else {
      if (entry.vary) headers.vary = entry.vary;
      body = identityBody(entry, nonceBytes);
    }
    headers['content-length'] = body.reduce((length, chunk) => length + chunk.length, 0);
    response.writeHead(entry.status, headers);
    // The stored pieces go out as they are, gathered into one write (no 31 kB copy per answer).
    response.cork();
    for (const chunk of body) response.write(chunk);
    response.end();
    return true;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }
}

function identityBody(entry: Entry, nonce: Buffer): Buffer[] {
  const chunks: Buffer[] = [];
  entry.pieces.forEach((piece, index) => {
    if (index > 0) chunks.push(nonce);
    chunks.push(piece);
  });
  return chunks;
}

/** The stored pieces, deflated once, with this answer's nonce between them as stored (uncompressed) blocks. */
function gzipBody(entry: Entry, nonce: Buffer): Buffer[] {
  // A non-final stored block: header bits 0 (not final) and 00 (stored), padded to the byte; then
  // LEN and its one's complement. Z_SYNC_FLUSH left every deflated piece on a byte boundary.
  const storedHeader = Buffer.from([0, nonce.length & 0xff, nonce.length >> 8, ~nonce.length & 0xff, (~nonce.length >> 8) & 0xff]);
  const chunks: Buffer[] = [GZIP_HEADER];
  let crc = 0;
  let size = 0;
  entry.pieces.forEach((piece, index) => {
    if (index > 0) {
      chunks.push(storedHeader, nonce);
      crc = crc32(nonce, crc);
      size += nonce.length;
    }
    chunks.push(entry.deflated[index]);
    crc = crc32(piece, crc);
    size += piece.length;
  });
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(size >>> 0, 4);
  chunks.push(DEFLATE_END, trailer);
  return chunks;
}
