import { EventEmitter } from 'node:events';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { gunzipSync } from 'node:zlib';
import { publicContentChanged, publicContentGeneration } from '../common/public-content.js';
import { PageCache, pageCacheKey } from './page-cache.js';

const NONCE = 'AAAAAAAAAAAAAAAAAAAAAA==';

function page(html: string, headers: OutgoingHttpHeaders = {}) {
  return {
    status: 200,
    headers: {
      'content-type': 'text/html; charset=utf-8',
      'content-security-policy': `script-src 'self' 'nonce-${NONCE}'`,
      vary: 'Cookie',
      ...headers,
    },
    html,
    nonce: NONCE,
  };
}

/** A request and a response object that record what the cache wrote. */
function exchange(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const request = { method, url, headers } as unknown as IncomingMessage;
  const written: { status?: number; headers?: OutgoingHttpHeaders; body?: Buffer } = {};
  const chunks: Buffer[] = [];
  const response = Object.assign(new EventEmitter(), {
    writeHead(status: number, sent: OutgoingHttpHeaders) {
      written.status = status;
      written.headers = sent;
    },
    cork() {},
    write(chunk: Buffer) {
      chunks.push(chunk);
    },
    end() {
      written.body = Buffer.concat(chunks);
    },
  }) as unknown as ServerResponse;
  return { request, response, written };
}

describe('pageCacheKey', () => {
  it('keys by URL, colour mode and a well-formed dismissed announcement', () => {
    expect(pageCacheKey('/', undefined)).toBe('/\nsystem\n');
    expect(pageCacheKey('/?a=1', 'hs_color_mode=dark')).toBe('/?a=1\ndark\n');
    expect(pageCacheKey('/', 'hs_color_mode=purple')).toBe('/\nsystem\n');
    expect(pageCacheKey('/', 'x=1; hs_announcement=0123456789abcdef')).toBe('/\nsystem\n0123456789abcdef');
    expect(pageCacheKey('/', 'hs_announcement=<script>')).toBe('/\nsystem\n');
  });

  it('refuses any request with a session or a refresh cookie, whatever its value', () => {
    expect(pageCacheKey('/', 'hs_session=x')).toBeNull();
    expect(pageCacheKey('/', 'a=b; hs_refresh=')).toBeNull();
    expect(pageCacheKey('/', 'not_hs_session=x')).toBe('/\nsystem\n');
  });
});

describe('PageCache', () => {
  it('puts a fresh nonce everywhere the render had one, in the body and the CSP header', () => {
    const cache = new PageCache({ maxBytes: 1 << 20, gzip: false });
    cache.store(
      pageCacheKey('/', undefined)!,
      page(`<script nonce="${NONCE}">a</script><script nonce="${NONCE}">b</script>`),
      publicContentGeneration(),
    );
    const miss = exchange('/other');
    expect(cache.answer(miss.request, miss.response)).toBe(false);
    expect(miss.written.status).toBeUndefined();
    const hit = exchange('/');
    expect(cache.answer(hit.request, hit.response)).toBe(true);
    expect(hit.written.status).toBe(200);
    const nonce = /'nonce-([^']+)'/.exec(String(hit.written.headers!['content-security-policy']))![1];
    expect(nonce).not.toBe(NONCE);
    expect(hit.written.body!.toString()).toBe(`<script nonce="${nonce}">a</script><script nonce="${nonce}">b</script>`);
    expect(hit.written.headers!['content-length']).toBe(hit.written.body!.length);
    expect(hit.written.headers!.vary).toBe('Cookie');
  });

  it('builds a valid gzip stream around each answer’s nonce (several nonces, large pieces)', () => {
    const cache = new PageCache({ maxBytes: 1 << 22, gzip: true });
    const filler = 'lorem ipsum dolor sit amet '.repeat(3000);
    const html = `<head><script nonce="${NONCE}">1</script></head>${filler}<script nonce="${NONCE}">2</script>${filler}<i>${NONCE}</i>`;
    cache.store(pageCacheKey('/big', undefined)!, page(html), publicContentGeneration());
    for (let index = 0; index < 3; index += 1) {
      const hit = exchange('/big', { 'accept-encoding': 'gzip' });
      expect(cache.answer(hit.request, hit.response)).toBe(true);
      expect(hit.written.headers!['content-encoding']).toBe('gzip');
      expect(hit.written.headers!.vary).toBe('Cookie, Accept-Encoding');
      const nonce = /'nonce-([^']+)'/.exec(String(hit.written.headers!['content-security-policy']))![1];
      expect(gunzipSync(hit.written.body!).toString()).toBe(html.split(NONCE).join(nonce));
      expect(hit.written.body!.length).toBeLessThan(html.length / 20);
    }
  });

  it('gives gzip to a client that takes it, identity to one that takes nothing, and leaves a Brotli-only client to the app', () => {
    const cache = new PageCache({ maxBytes: 1 << 20, gzip: true });
    cache.store(pageCacheKey('/', undefined)!, page('<p>hi</p>'), publicContentGeneration());
    const zipped = exchange('/', { 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(cache.answer(zipped.request, zipped.response)).toBe(true);
    expect(zipped.written.headers!['content-encoding']).toBe('gzip');
    const plain = exchange('/', { 'accept-encoding': 'identity' });
    expect(cache.answer(plain.request, plain.response)).toBe(true);
    expect(plain.written.headers!['content-encoding']).toBeUndefined();
    expect(plain.written.headers!.vary).toBe('Cookie, Accept-Encoding');
    const brotliOnly = exchange('/', { 'accept-encoding': 'br' });
    expect(cache.answer(brotliOnly.request, brotliOnly.response)).toBe(false);
    expect(brotliOnly.written.status).toBeUndefined();
  });

  it('answers nothing to HEAD, POST, or a request with a session cookie', () => {
    const cache = new PageCache({ maxBytes: 1 << 20, gzip: false });
    cache.store(pageCacheKey('/', undefined)!, page('<p>hi</p>'), publicContentGeneration());
    expect(cache.answer(exchange('/', {}, 'HEAD').request, exchange('/').response)).toBe(false);
    expect(cache.answer(exchange('/', {}, 'POST').request, exchange('/').response)).toBe(false);
    const signedIn = exchange('/', { cookie: 'hs_session=abc' });
    expect(cache.answer(signedIn.request, signedIn.response)).toBe(false);
    expect(signedIn.written.status).toBeUndefined();
  });

  it('refuses to keep a response that set a cookie', () => {
    const cache = new PageCache({ maxBytes: 1 << 20, gzip: false });
    cache.store(pageCacheKey('/', undefined)!, page('<p>hi</p>', { 'set-cookie': ['a=b'] }), publicContentGeneration());
    expect(cache.size.entries).toBe(0);
  });

  it('drops entries on a public content change and after their time to live', () => {
    let now = 1_000;
    const cache = new PageCache({ maxBytes: 1 << 20, gzip: false, ttlMs: 2_000, now: () => now });
    const key = pageCacheKey('/', undefined)!;
    cache.store(key, page('<p>hi</p>'), publicContentGeneration());
    expect(cache.answer(exchange('/').request, exchange('/').response)).toBe(true);
    publicContentChanged();
    expect(cache.answer(exchange('/').request, exchange('/').response)).toBe(false);
    expect(cache.size.entries).toBe(0);

    cache.store(key, page('<p>hi</p>'), publicContentGeneration());
    now += 1_999;
    expect(cache.answer(exchange('/').request, exchange('/').response)).toBe(true);
    now += 1;
    expect(cache.answer(exchange('/').request, exchange('/').response)).toBe(false);
  });

  it('does not keep a render that began before a change finished after it (the generation read first)', () => {
    const cache = new PageCache({ maxBytes: 1 << 20, gzip: false });
    const before = publicContentGeneration();
    publicContentChanged();
    cache.store(pageCacheKey('/', undefined)!, page('<p>old</p>'), before);
    expect(cache.answer(exchange('/').request, exchange('/').response)).toBe(false);
  });

  it('stays within its byte bound, the least recently used going first', () => {
    const html = 'x'.repeat(10_000);
    const cache = new PageCache({ maxBytes: 35_000, gzip: false });
    const generation = publicContentGeneration();
    for (const path of ['/a', '/b', '/c']) cache.store(pageCacheKey(path, undefined)!, page(html), generation);
    expect(cache.size.entries).toBe(3);
    expect(cache.answer(exchange('/a').request, exchange('/a').response)).toBe(true); // /a is now the most recent
    cache.store(pageCacheKey('/d', undefined)!, page(html), generation);
    expect(cache.size.entries).toBe(3);
    expect(cache.size.bytes).toBeLessThanOrEqual(35_000);
    expect(cache.answer(exchange('/b').request, exchange('/b').response)).toBe(false);
    expect(cache.answer(exchange('/a').request, exchange('/a').response)).toBe(true);
    // A page larger than the whole bound is not kept at all.
    cache.store(pageCacheKey('/huge', undefined)!, page('y'.repeat(40_000)), generation);
    expect(cache.answer(exchange('/huge').request, exchange('/huge').response)).toBe(false);
  });

  it('keeps nothing when switched off (PAGE_CACHE_MB=0)', () => {
    const cache = new PageCache({ maxBytes: 0, gzip: false });
    cache.store(pageCacheKey('/', undefined)!, page('<p>hi</p>'), publicContentGeneration());
    expect(cache.enabled).toBe(false);
    expect(cache.answer(exchange('/').request, exchange('/').response)).toBe(false);
  });
});
