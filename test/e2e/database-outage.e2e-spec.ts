import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { generateKey } from '../../lib/licences/key.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { SESSION_CACHE_MS } from '../../src/auth/sessions.service.js';
import { DatabaseAvailability } from '../../src/database/database-availability.js';
import { loadConfig } from '../../src/config/app-config.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { testDatabaseUri } from '../support/test-database.js';
import { settlesTo, signUp } from '../support/e2e.js';

describe('when the database becomes unreachable', () => {
  let running: RunningApp;
  let proxy: TcpProxy;
  let sessionCookie: string;
  const http = () => request(running.app.getHttpServer());

  beforeAll(async () => {
    const target = new URL(testDatabaseUri('outage'));
    proxy = new TcpProxy(target.hostname, Number(target.port || 27017));
    const port = await proxy.start();
    target.host = `127.0.0.1:${port}`;
    running = await createApp(loadConfig({ NODE_ENV: 'test', MONGODB_URI: target.toString(), LOG_LEVEL: 'error', PORT: '0' }));

    ({ session: sessionCookie } = await signUp({ agent: request.agent(running.app.getHttpServer()), database: target.toString() }));
    sessionCookie = `hs_session=${sessionCookie}`;
  });

  afterAll(async () => {
    await proxy.restore();
    await running?.close();
    await proxy.cut();
  });

  /** The database answers again, and the session was read a moment ago (SESSION_CACHE_MS): a page gets as far as its loaders. */
  async function connectedWithFreshSession(): Promise<void> {
    await proxy.restore();
    await settlesTo(async () => (await http().get('/health/ready')).status, 200, 15_000);
    await http().get('/api/auth/me').set('Cookie', sessionCookie).expect(200);
  }

  /** The 503 screen: HTML with Retry-After, and nothing of the database's own words. */
  function expect503Screen(page: request.Response): void {
    expect(page.status).toBe(503);
    expect(page.headers['retry-after']).toBe('5');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.text).not.toMatch(/Mongo|ECONNREFUSED|at .*\.js/);
  }

  it('is ready while the database answers', async () => {
    const response = await http().get('/health/ready').expect(200);
    expect(response.body.database.status).toBe('up');
  });

  it('turns readiness to 503, keeps liveness at 200, and answers API calls with 503 within 5 s', async () => {
    await proxy.cut();

    const ready = await http().get('/health/ready').expect(503);
    expect(ready.body).toEqual({ status: 'unavailable', database: { status: 'down' } });
    expect(ready.headers['retry-after']).toBe('5');
    await http().get('/health/live').expect(200);
    // The session was read a moment ago (signing up ends with /api/auth/me), and a session read in
    // the last SESSION_CACHE_MS is answered from memory (docs/performance.md). Past that, it is read again.
    await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS));

    const started = Date.now();
    const me = await http().get('/api/auth/me').set('Cookie', sessionCookie);
    const elapsed = Date.now() - started;
    expect(me.status).toBe(503);
    expect(me.headers['retry-after']).toBe('5');
    expect(me.body).toEqual({
      statusCode: 503,
      error: 'Service Unavailable',
      message: 'The service is temporarily unavailable. Try again in a moment.',
    });
    expect(elapsed).toBeLessThan(5000);

    // The licensing API is answered in the fast lane (src/fast-lane/fast-lane.ts), outside Nest: the same 503.
    const activateStarted = Date.now();
    const activate = await http()
      .post('/api/v1/licenses/activate')
      .send({ key: generateKey('hitscope-for-apps').formatted, product: 'hitscope-for-apps', fingerprint: 'd'.repeat(64) });
    expect(Date.now() - activateStarted).toBeLessThan(5000);
    expect(activate.status).toBe(503);
    expect(activate.headers['retry-after']).toBe('5');
    expect(activate.body).toEqual(me.body);

    const page = await http().get('/dashboard/lounge').set('Cookie', sessionCookie);
    expect(page.status).toBe(503);
    expect(page.text).toContain('Internal Server Error');
    expect(page.text).not.toMatch(/Mongo|ECONNREFUSED|at .*\.js/);
  });

  it('answers a page whose data cannot be read with the 503 screen at once, without retrying on the server', async () => {
    await connectedWithFreshSession();
    await proxy.cut();
    const started = Date.now();
    const page = await http().get('/dashboard/user/orders').set('Cookie', sessionCookie);
    const elapsed = Date.now() - started;
    expect503Screen(page);
    // Retried as the browser retries (after 1 s, then 2 s), the answer took over 3 s.
    expect(elapsed).toBeLessThan(1_000);
  }, 20_000);

  it('answers the 503 screen at once when the database goes away while a page is reading it (no wait for the driver’s retry)', async () => {
    await connectedWithFreshSession();
    // The page's reads are on their way when the connection breaks: the driver marks the server
    // unknown and would retry the read once, after waiting up to 2.5 s for a server.
    proxy.stall();
    const pending = http()
      .get('/dashboard/user/orders')
      .set('Cookie', sessionCookie)
      .then((response) => response);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const cutAt = Date.now();
    await proxy.cut();
    proxy.resume(); // nothing is held any more; the next start of the proxy forwards again
    const page = await pending;
    const afterCut = Date.now() - cutAt;
    expect503Screen(page);
    // The driver's retry alone waited 2.5 s for a server here.
    expect(afterCut).toBeLessThan(1_000);
  }, 20_000);

  it('once the driver has found the database gone, answers at once (no wait for a server), and serves again within seconds of its return', async () => {
    await proxy.restore();
    await settlesTo(async () => (await http().get('/health/ready')).status, 200, 15_000);
    const availability = DatabaseAvailability.watch(running.app.get<Connection>(getConnectionToken()));
    await proxy.cut();
    // The driver's monitor finds the server gone at its next heartbeat (every 10 s while idle).
    await settlesTo(async () => availability.down, true, 15_000);
    await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS)); // the session is read again

    // Each of these waited for a server (serverSelectionTimeoutMS, 2.5 s) before its 503.
    for (const [what, ask] of [
      ['a page', () => http().get('/dashboard/user/orders').set('Cookie', sessionCookie)],
      ['an API call', () => http().get('/api/auth/me').set('Cookie', sessionCookie)],
      [
        'the licensing API',
        () =>
          http()
            .post('/api/v1/licenses/activate')
            .send({ key: generateKey('hitscope-for-apps').formatted, product: 'hitscope-for-apps', fingerprint: 'e'.repeat(64) }),
      ],
    ] as const) {
      const started = Date.now();
      const response = await ask();
      const elapsed = Date.now() - started;
      expect({ what, status: response.status, retryAfter: response.headers['retry-after'] }).toEqual({
        what,
        status: 503,
        retryAfter: '5',
      });
      expect({ what, fast: elapsed < 1_000 }).toEqual({ what, fast: true });
    }

    // Nothing reaches the driver while requests fail at once: the breaker's own probe finds the database back.
    await proxy.restore();
    const backAfter = await settlesTo(async () => (await http().get('/api/auth/me').set('Cookie', sessionCookie)).status, 200, 10_000);
    // Left to the driver's monitor, that is its next heartbeat: up to 10 s.
    expect(backAfter).toBeLessThan(3_000);
    expect(availability.down).toBe(false);
  }, 45_000);

  it('recovers when the database comes back', async () => {
    await proxy.restore();
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline) {
      status = (await http().get('/health/ready')).status;
      if (status === 200) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    await http().get('/api/auth/me').set('Cookie', sessionCookie).expect(200);
  }, 20_000);
});
