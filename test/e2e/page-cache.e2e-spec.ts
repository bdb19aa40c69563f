import { get, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';
import request from 'supertest';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { SITE_SETTINGS_CACHE_MS } from '../../src/settings/site-settings.service.js';
import { PAGE_CACHE_TTL_MS } from '../../src/ssr/page-cache.js';
import type { PageRenderer } from '../../src/ssr/page-renderer.js';
import { settlesTo, signUp, type SignedUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'page-cache-admin@example.test';

/** Counts the renders of a page, so a test can tell an answer from the cache from a fresh render. */
function countingRenderer(counter: { renders: number }) {
  return (renderer: PageRenderer): PageRenderer => ({
    ...renderer,
    mode: renderer.mode,
    async entry() {
      const entry = await renderer.entry();
      return {
        ...entry,
        render(input) {
          counter.renders += 1;
          return entry.render(input);
        },
      };
    },
  });
}

/** The bytes as sent (supertest would decompress them). */
async function rawGet(running: RunningApp, path: string, headers: Record<string, string>) {
  const server = running.app.getHttpServer() as Server;
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    get({ host: '127.0.0.1', port, path, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }));
    }).on('error', reject);
  });
}

const nonceOf = (csp: string) => /'nonce-([^']+)'/.exec(csp)?.[1] ?? '';

/** A response's headers as a reader compares them: without those that differ per response by nature. */
function comparableHeaders(headers: Record<string, string>, nonce: string) {
  const { date: _date, 'content-length': _length, ...rest } = headers;
  return Object.fromEntries(Object.entries(rest).map(([name, value]) => [name, String(value).split(nonce).join('{nonce}')]));
}

describe('the page cache: anonymous pages answered from memory, correct in every way a render is', () => {
  const mongodbUri = testDatabaseUri('page_cache');
  const counterA = { renders: 0 };
  const counterB = { renders: 0 };
  let a: RunningApp;
  let b: RunningApp;
  let admin: SignedUp;
  const httpA = () => request(a.app.getHttpServer());
  const httpB = () => request(b.app.getHttpServer());

  beforeAll(async () => {
    const config = () =>
      loadConfig({
        NODE_ENV: 'test',
        MONGODB_URI: mongodbUri,
        LOG_LEVEL: 'error',
        PORT: '0',
        ADMIN_EMAILS: ADMIN,
        RATE_LIMIT_MULTIPLIER: '100',
      });
    a = await createApp(config(), { decorateRenderer: countingRenderer(counterA) });
    b = await createApp(config(), { decorateRenderer: countingRenderer(counterB) });
    admin = await signUp({ agent: request.agent(a.app.getHttpServer()), email: ADMIN, database: a.mongodbUri });
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
  });

  const putGeneral = (siteName: string) =>
    admin.agent.put('/api/admin/site-settings/general').set('x-csrf-token', admin.token).send({ siteName }).expect(200);

  it('answers a second anonymous request without rendering, with the same status, headers and HTML but its own nonce', async () => {
    const first = await httpA().get('/?from=cache-test').set('Accept-Encoding', 'identity').expect(200);
    const renders = counterA.renders;
    const second = await httpA().get('/?from=cache-test').set('Accept-Encoding', 'identity').expect(200);
    expect(counterA.renders).toBe(renders);

    const [firstNonce, secondNonce] = [
      nonceOf(first.headers['content-security-policy']),
      nonceOf(second.headers['content-security-policy']),
    ];
    expect(firstNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(secondNonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(secondNonce).not.toBe(firstNonce);
    // Every inline script carries this response's nonce, none the first one's.
    expect(second.text).toContain(`nonce="${secondNonce}"`);
    expect(second.text).not.toContain(firstNonce);
    expect(second.text.split(secondNonce).join('{nonce}')).toBe(first.text.split(firstNonce).join('{nonce}'));
    expect(comparableHeaders(second.headers, secondNonce)).toEqual(comparableHeaders(first.headers, firstNonce));
    expect(second.headers['content-length']).toBe(String(Buffer.byteLength(second.text)));
    // The app's entry module, which holds the analytics tracker (client/features/analytics/tracker.ts), with this answer's nonce.
    expect(second.text).toMatch(
      new RegExp(`<script nonce="${secondNonce.replace(/[+/=]/g, '\\$&')}" type="module"[^>]* src="/assets/index-[\\w-]+\\.js"`),
    );
  });

  it('gives each of many cached answers a different nonce', async () => {
    await httpA().get('/login').expect(200);
    const nonces = new Set<string>();
    for (let index = 0; index < 20; index += 1)
      nonces.add(nonceOf((await httpA().get('/login').expect(200)).headers['content-security-policy']));
    expect(nonces.size).toBe(20);
  });

  it('serves gzip to a browser that accepts it: the bytes of the identity answer, with its own nonce', async () => {
    await httpA().get('/sponsor').expect(200);
    const renders = counterA.renders;
    const zipped = await rawGet(a, '/sponsor', { 'Accept-Encoding': 'gzip, deflate, br' });
    expect(counterA.renders).toBe(renders);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toBe('Cookie, Accept-Encoding');
    expect(zipped.body.subarray(0, 2)).toEqual(Buffer.from([0x1f, 0x8b]));
    expect(zipped.body.length).toBe(Number(zipped.headers['content-length']));
    const html = gunzipSync(zipped.body).toString('utf8');
    const nonce = nonceOf(String(zipped.headers['content-security-policy']));
    const plain = await httpA().get('/sponsor').set('Accept-Encoding', 'identity').expect(200);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(html.split(nonce).join('{nonce}')).toBe(plain.text.split(nonceOf(plain.headers['content-security-policy'])).join('{nonce}'));
  });

  it('keys by colour mode, query and dismissed announcement: each renders once', async () => {
    const renders = counterA.renders;
    const dark = await httpA().get('/register').set('Cookie', 'hs_color_mode=dark').expect(200);
    const light = await httpA().get('/register').set('Cookie', 'hs_color_mode=light').expect(200);
    const query = await httpA().get('/register?ref=newsletter').expect(200);
    const dismissed = await httpA().get('/register').set('Cookie', 'hs_announcement=0123456789abcdef').expect(200);
    expect(counterA.renders).toBe(renders + 4);
    expect(dark.text).toContain('data-color-mode="dark"');
    expect(light.text).toContain('data-color-mode="light"');
    expect(query.text).toContain('data-color-mode="system"');
    await httpA().get('/register').set('Cookie', 'hs_color_mode=dark').expect(200);
    await httpA().get('/register').set('Cookie', 'other=1; hs_color_mode=light').expect(200);
    await httpA().get('/register?ref=newsletter').expect(200);
    await httpA().get('/register').set('Cookie', 'hs_announcement=0123456789abcdef').expect(200);
    expect(counterA.renders).toBe(renders + 4);
    expect(dismissed.status).toBe(200);
  });

  it('never answers from the cache with a session or refresh cookie, and never caches a signed-in page', async () => {
    await httpA().get('/').expect(200);
    const renders = counterA.renders;
    const own = await admin.agent.get('/').expect(200);
    expect(own.text).toContain(ADMIN);
    await admin.agent.get('/').expect(200);
    await httpA().get('/').set('Cookie', 'hs_refresh=not-a-real-token').expect(200);
    expect(counterA.renders).toBe(renders + 3);
    // The anonymous page after those is still the anonymous one.
    expect((await httpA().get('/').expect(200)).text).not.toContain(ADMIN);
  });

  it('does not cache a 404 or a redirect: each is rendered, with its own status', async () => {
    const renders = counterA.renders;
    await httpA().get('/no/such/page').expect(404);
    await httpA().get('/no/such/page').expect(404);
    const guarded = await httpA().get('/dashboard/lounge').redirects(0).expect(302);
    await httpA().get('/dashboard/lounge').redirects(0).expect(302);
    expect(guarded.headers.location).toMatch(/^\/login/);
    expect(counterA.renders).toBeGreaterThanOrEqual(renders + 2);
    const again = counterA.renders;
    await httpA().get('/dashboard/lounge').redirects(0).expect(302);
    expect(counterA.renders).toBe(again + 1);
  });

  it('shows an admin’s change on this instance’s next page, and on another instance within seconds', async () => {
    await httpA().get('/privacy-policy').expect(200);
    await httpB().get('/privacy-policy').expect(200);
    const name = `Cached ${Date.now().toString(36)}`;
    await putGeneral(name);
    expect((await httpA().get('/privacy-policy').expect(200)).text).toContain(name);
    const waited = await settlesTo(
      async () => (await httpB().get('/privacy-policy').expect(200)).text.includes(name),
      true,
      SITE_SETTINGS_CACHE_MS + PAGE_CACHE_TTL_MS + 1_000,
    );
    expect(waited).toBeLessThanOrEqual(SITE_SETTINGS_CACHE_MS + PAGE_CACHE_TTL_MS + 1_000);
  });

  it('drops an entry after its time to live even with nothing changed', async () => {
    await httpB().get('/login?ttl').expect(200);
    const renders = counterB.renders;
    await httpB().get('/login?ttl').expect(200);
    expect(counterB.renders).toBe(renders);
    await new Promise((resolve) => setTimeout(resolve, PAGE_CACHE_TTL_MS + 100));
    await httpB().get('/login?ttl').expect(200);
    expect(counterB.renders).toBe(renders + 1);
  });

  it('lets HEAD and other methods through to the app', async () => {
    await httpA().get('/').expect(200);
    const head = await httpA().head('/').expect(200);
    expect(head.headers['content-type']).toMatch(/^text\/html/);
    await httpA().post('/').send({}).expect(404);
  });
});
