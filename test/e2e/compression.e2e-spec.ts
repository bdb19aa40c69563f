import { readdirSync, readFileSync, statSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { PROJECT_ROOT } from '../../src/common/project-root.js';
import { loadConfig } from '../../src/config/app-config.js';
import { e2eUrl, signInAdmin } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const CLIENT_DIR = join(PROJECT_ROOT, 'dist/client');
const BROWSER = 'gzip, deflate, br, zstd';

interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** One request with the bytes exactly as they came over the wire (supertest would decompress them). */
function raw(base: string, path: string, headers: Record<string, string> = {}, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const call = httpRequest(new URL(path, base), { method, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }));
      response.on('error', reject);
    });
    call.on('error', reject);
    call.end();
  });
}

const vary = (response: RawResponse) => String(response.headers.vary ?? '').toLowerCase();

/** The app's entry script, a file the build precompressed (hundreds of kB). */
async function entryScript(base: string): Promise<string> {
  const page = await raw(base, '/');
  return /src="(\/assets\/index-[\w-]+\.js)"/.exec(page.body.toString('utf8'))![1];
}

describe('precompressed client files (built by scripts/precompress.mjs)', () => {
  let base: string;
  let asset: string;
  let original: Buffer;
  beforeAll(async () => {
    base = e2eUrl();
    asset = await entryScript(base);
    original = readFileSync(join(CLIENT_DIR, asset));
  });

  it('has a .br and a .gz beside every published compressible file above 1 kB, and none for what is never served', () => {
    const files = readdirSync(CLIENT_DIR, { recursive: true, encoding: 'utf8' }).map((name) => name.split('\\').join('/'));
    const compressible = files.filter((name) => /\.(js|css|svg|json|txt|xml|webmanifest)$/.test(name) && !name.startsWith('.vite/'));
    const large = compressible.filter((name) => statSync(join(CLIENT_DIR, name)).size >= 1024);
    expect(large.length).toBeGreaterThan(20);
    for (const name of large) {
      const bytes = readFileSync(join(CLIENT_DIR, name));
      expect({ name, br: brotliDecompressSync(readFileSync(join(CLIENT_DIR, `${name}.br`))).equals(bytes) }).toEqual({ name, br: true });
      expect({ name, gz: gunzipSync(readFileSync(join(CLIENT_DIR, `${name}.gz`))).equals(bytes) }).toEqual({ name, gz: true });
    }
    for (const name of compressible.filter((file) => !large.includes(file))) expect(files).not.toContain(`${name}.br`);
    expect(files.filter((name) => name.startsWith('.vite/') && /\.(br|gz)$/.test(name))).toEqual([]);
    expect(files).not.toContain('client/index.html.br');
    expect(files).not.toContain('client/index.html.gz');
  });

  it('sends the Brotli file to a browser that offers br, with the headers of the original and bytes that decompress to it', async () => {
    const identity = await raw(base, asset, { 'accept-encoding': 'identity' });
    const response = await raw(base, asset, { 'accept-encoding': BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers['content-encoding']).toBe('br');
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['content-type']).toBe(identity.headers['content-type']);
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(vary(response)).toContain('accept-encoding');
    expect(Number(response.headers['content-length'])).toBe(response.body.length);
    expect(response.body.length).toBe(statSync(join(CLIENT_DIR, `${asset}.br`)).size);
    expect(response.body.length).toBeLessThan(original.length / 2);
    expect(brotliDecompressSync(response.body).equals(original)).toBe(true);
    // A different representation, a different validator.
    expect(response.headers.etag).toBeTruthy();
    expect(response.headers.etag).not.toBe(identity.headers.etag);
  });

  it('sends the gzip file when Brotli is not accepted (absent, or refused with q=0) or weighs less', async () => {
    for (const acceptEncoding of ['gzip', 'br;q=0, gzip', 'gzip, br;q=0.5', 'deflate, gzip;q=0.8']) {
      const response = await raw(base, asset, { 'accept-encoding': acceptEncoding });
      expect({ acceptEncoding, encoding: response.headers['content-encoding'] }).toEqual({ acceptEncoding, encoding: 'gzip' });
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(Number(response.headers['content-length'])).toBe(response.body.length);
      expect(gunzipSync(response.body).equals(original)).toBe(true);
    }
  });

  it('sends the file as it is when no coding is accepted, still varying on Accept-Encoding and never compressing it on the fly', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'accept-encoding': 'identity' },
      { 'accept-encoding': 'br;q=0, gzip;q=0' },
      { 'accept-encoding': 'deflate' },
    ]) {
      const response = await raw(base, asset, headers);
      expect({ headers, encoding: response.headers['content-encoding'] }).toEqual({ headers, encoding: undefined });
      expect(vary(response)).toContain('accept-encoding');
      expect(Number(response.headers['content-length'])).toBe(original.length);
      expect(response.body.equals(original)).toBe(true);
    }
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const get = await raw(base, asset, { 'accept-encoding': BROWSER });
    const head = await raw(base, asset, { 'accept-encoding': BROWSER }, 'HEAD');
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ['content-encoding', 'content-type', 'content-length', 'etag', 'last-modified', 'cache-control', 'vary']) {
      expect({ name, value: head.headers[name] }).toEqual({ name, value: get.headers[name] });
    }
  });

  it('answers a conditional GET with 304 for the same representation, and the full file for another', async () => {
    const first = await raw(base, asset, { 'accept-encoding': BROWSER });
    const etag = first.headers.etag!;
    const again = await raw(base, asset, { 'accept-encoding': BROWSER, 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.etag).toBe(etag);
    const since = await raw(base, asset, { 'accept-encoding': BROWSER, 'if-modified-since': first.headers['last-modified']! });
    expect(since.status).toBe(304);
    // The Brotli validator does not validate the gzip file.
    const gzip = await raw(base, asset, { 'accept-encoding': 'gzip', 'if-none-match': etag });
    expect(gzip.status).toBe(200);
    expect(gzip.headers['content-encoding']).toBe('gzip');
  });

  it('answers a Range request with bytes of the file itself (identity), whatever the browser accepts', async () => {
    const response = await raw(base, asset, { 'accept-encoding': BROWSER, range: 'bytes=0-99' });
    expect(response.status).toBe(206);
    expect(response.headers['content-encoding']).toBeUndefined();
    expect(response.headers['content-range']).toBe(`bytes 0-99/${original.length}`);
    expect(response.body.equals(original.subarray(0, 100))).toBe(true);
  });

  it('keeps one URL per file: the .br and .gz siblings are not addressable, and a missing asset is the 404 page', async () => {
    for (const path of [`${asset}.br`, `${asset}.gz`, '/assets/missing-0000.js']) {
      const response = await raw(base, path, { 'accept-encoding': BROWSER });
      expect({ path, status: response.status }).toEqual({ path, status: 404 });
      expect(response.headers['content-type']).toMatch(/^text\/html/);
    }
  });

  it('serves the other client files for an hour', async () => {
    const response = await raw(base, '/favicon.svg', { 'accept-encoding': BROWSER });
    expect(response.status).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=3600');
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.body.equals(readFileSync(join(CLIENT_DIR, 'favicon.svg')))).toBe(true);
  });
});

describe('compression of pages and API answers (COMPRESSION=on, the default)', () => {
  it('gzip-compresses pages rather than Brotli when the browser offers both, Brotli only for a br-only client', async () => {
    const page = await raw(e2eUrl(), '/', { 'accept-encoding': BROWSER });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(vary(page)).toContain('accept-encoding');
    const html = gunzipSync(page.body).toString('utf8');
    expect(html).toMatch(/^<!DOCTYPE html>/i);
    expect(page.body.length).toBeLessThan(Buffer.byteLength(html) / 3);

    const brOnly = await raw(e2eUrl(), '/', { 'accept-encoding': 'br' });
    expect(brOnly.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(brOnly.body).toString('utf8')).toMatch(/^<!DOCTYPE html>/i);

    const none = await raw(e2eUrl(), '/', { 'accept-encoding': 'identity' });
    expect(none.headers['content-encoding']).toBeUndefined();
    expect(vary(none)).toContain('accept-encoding');
  });

  it('gzip-compresses JSON above 1 kB and leaves small answers alone', async () => {
    const catalogue = await raw(e2eUrl(), '/api/catalogue', { 'accept-encoding': BROWSER });
    expect(catalogue.status).toBe(200);
    expect(catalogue.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(catalogue.body).toString('utf8'))).toBeTruthy();
    const csrf = await raw(e2eUrl(), '/api/auth/csrf', { 'accept-encoding': BROWSER });
    expect(csrf.body.length).toBeLessThan(1024);
    expect(csrf.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(csrf.body.toString('utf8'))).toHaveProperty('token');
  });

  it('compresses a streamed CSV export (written chunk by chunk) into a complete gzip stream', async () => {
    const { session } = await signInAdmin();
    const response = await raw(e2eUrl(), '/api/admin/newsletter/subscribers.csv', {
      'accept-encoding': BROWSER,
      cookie: `hs_session=${session}`,
    });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-encoding']).toBe('gzip');
    const csv = gunzipSync(response.body).toString('utf8');
    expect(csv.split('\n')[0]).toMatch(/email/i);
  });
});

describe('COMPRESSION=off (a compressing proxy in front)', () => {
  let running: RunningApp;
  let base: string;
  beforeAll(async () => {
    running = await createApp(
      loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('compression'), LOG_LEVEL: 'error', PORT: '0', COMPRESSION: 'off' }),
    );
    await running.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
  }, 60_000);
  afterAll(async () => {
    await running?.close();
  });

  it('sends pages and API answers uncompressed, whatever the browser accepts', async () => {
    for (const path of ['/', '/api/catalogue']) {
      const response = await raw(base, path, { 'accept-encoding': BROWSER });
      expect({ path, status: response.status, encoding: response.headers['content-encoding'] }).toEqual({
        path,
        status: 200,
        encoding: undefined,
      });
      expect(vary(response)).not.toContain('accept-encoding');
    }
    expect((await raw(base, '/', { 'accept-encoding': BROWSER })).body.toString('utf8')).toMatch(/^<!DOCTYPE html>/i);
  });

  it('still serves the precompressed files, which cost no CPU (a proxy passes an encoded answer on)', async () => {
    const asset = await entryScript(base);
    const response = await raw(base, asset, { 'accept-encoding': BROWSER });
    expect(response.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(response.body).equals(readFileSync(join(CLIENT_DIR, asset)))).toBe(true);
  });
});
