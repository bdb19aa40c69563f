import type { AddressInfo } from 'node:net';
import { MongoClient } from 'mongodb';
import { generateKey } from '../../lib/licences/key.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { confirmationLinkFor, PASSWORD } from '../support/e2e.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { testDatabaseUri } from '../support/test-database.js';

/*
 * A database that stalls (a network partition: connections stay open, no byte comes back) under a
 * steady load of reads and writes. Every call must answer within the request timeout (5 s, with
 * 0.5 s of slack for the test's own scheduling), 503 with Retry-After rather than 500, no write
 * that was acknowledged may be lost, a write answered 503 must succeed when retried with the same
 * input (its outcome was unknown), and writes must succeed again within 3 s of the database
 * coming back.
 */

const STALL_MS = 10_000;
const LIMIT_MS = 5_500;

interface Call {
  kind: 'register' | 'rename' | 'me' | 'page' | 'activate';
  input?: { email?: string; name?: string };
  startedAt: number;
  ms: number;
  status: number;
  retryAfter: string | null;
}

/** A browser-like client: keeps cookies, sends the CSRF token on writes. */
class Client {
  private readonly cookies = new Map<string, string>();
  private csrf = '';

  constructor(private readonly base: string) {}

  private cookieHeader() {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  async send(method: string, path: string, body?: unknown): Promise<{ status: number; retryAfter: string | null; json: unknown }> {
    const response = await fetch(`${this.base}${path}`, {
      method,
      headers: {
        accept: 'application/json',
        cookie: this.cookieHeader(),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(method === 'GET' ? {} : { 'x-csrf-token': this.csrf }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
      redirect: 'manual',
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(';');
      const at = pair.indexOf('=');
      this.cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const text = await response.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // a page
    }
    return { status: response.status, retryAfter: response.headers.get('retry-after'), json };
  }

  async start() {
    this.csrf = ((await this.send('GET', '/api/auth/csrf')).json as { token: string }).token;
  }
}

describe('when the database stalls under load', () => {
  let running: RunningApp;
  let proxy: TcpProxy;
  let base: string;
  let databaseUri: string;

  beforeAll(async () => {
    databaseUri = testDatabaseUri('stall');
    const target = new URL(databaseUri);
    proxy = new TcpProxy(target.hostname, Number(target.port || 27017));
    target.host = `127.0.0.1:${await proxy.start()}`;
    running = await createApp(
      loadConfig({ NODE_ENV: 'test', MONGODB_URI: target.toString(), LOG_LEVEL: 'error', PORT: '0', RATE_LIMIT_MULTIPLIER: '1000' }),
    );
    await running.app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(running.app.getHttpServer().address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    proxy.resume();
    await running?.close();
    await proxy.cut();
  });

  it('answers every call within 5 s, never 500, loses no acknowledged write, and recovers within 3 s', async () => {
    const owner = new Client(base);
    await owner.start();
    expect(
      (await owner.send('POST', '/api/auth/register', { name: 'Stall owner', email: 'stall-owner@example.test', password: PASSWORD }))
        .status,
    ).toBe(202);
    expect((await owner.send('GET', await confirmationLinkFor('stall-owner@example.test', databaseUri))).status).toBe(302);
    await owner.start(); // signing in replaced the CSRF cookie

    const calls: Call[] = [];
    const track = async (kind: Call['kind'], run: () => Promise<{ status: number; retryAfter: string | null }>, input?: Call['input']) => {
      const startedAt = Date.now();
      const { status, retryAfter } = await run();
      calls.push({ kind, input, startedAt, ms: Date.now() - startedAt, status, retryAfter });
    };

    let sequence = 0;
    let running_ = true;
    const load = (async () => {
      const pending: Promise<void>[] = [];
      while (running_) {
        sequence += 1;
        const n = sequence;
        const email = `stall-${n}@example.test`;
        const visitor = new Client(base);
        pending.push(
          track(
            'register',
            async () => {
              await visitor.start().catch(() => undefined);
              return visitor.send('POST', '/api/auth/register', { name: `Stall ${n}`, email, password: PASSWORD });
            },
            { email },
          ),
          track('rename', () => owner.send('PATCH', '/api/profile', { name: `Owner ${n}` }), { name: `Owner ${n}` }),
          track('me', () => owner.send('GET', '/api/auth/me')),
          // Answered in the fast lane, outside Nest (src/fast-lane/fast-lane.ts): the same deadline.
          track('activate', () =>
            owner.send('POST', '/api/v1/licenses/activate', {
              key: generateKey('hitscope-for-apps').formatted,
              product: 'hitscope-for-apps',
              fingerprint: 'e'.repeat(64),
            }),
          ),
        );
        if (n % 3 === 0) pending.push(track('page', () => owner.send('GET', '/dashboard/lounge')));
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      await Promise.all(pending);
    })();

    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const stalledAt = Date.now();
    proxy.stall();
    await new Promise((resolve) => setTimeout(resolve, STALL_MS));
    proxy.resume();
    const resumedAt = Date.now();
    await new Promise((resolve) => setTimeout(resolve, 5_000));
    running_ = false;
    await load;

    // Retry every write whose answer was not a success, with the same input, as a client would.
    const retries: Array<{ email: string; status: number }> = [];
    for (const call of calls.filter((entry) => entry.kind === 'register' && (entry.status < 200 || entry.status >= 300))) {
      const again = new Client(base);
      await again.start();
      const answer = await again.send('POST', '/api/auth/register', { name: 'Retry', email: call.input!.email, password: PASSWORD });
      retries.push({ email: call.input!.email!, status: answer.status });
    }

    const during = calls.filter((call) => call.startedAt >= stalledAt && call.startedAt < resumedAt);
    const slowest = Math.max(...calls.map((call) => call.ms));
    const errors500 = calls.filter((call) => call.status >= 500 && call.status !== 503);
    const unavailable = calls.filter((call) => call.status === 503);
    const firstWriteBack = calls
      .filter((call) => (call.kind === 'register' || call.kind === 'rename') && call.startedAt >= resumedAt && call.status < 300)
      .map((call) => call.startedAt + call.ms)
      .sort((a, b) => a - b)[0];
    const time503 = during.filter((call) => call.status === 503).map((call) => call.ms);
    const client = await MongoClient.connect(databaseUri);
    const stored = new Set(
      (
        await client
          .db()
          .collection('users')
          .find({}, { projection: { email: 1 } })
          .toArray()
      ).map((user) => user.email),
    );
    await client.close();
    const acknowledged = calls.filter((call) => call.kind === 'register' && call.status === 202);
    const lost = acknowledged.filter((call) => !stored.has(call.input!.email));
    const failedButHappened = retries.filter((retry) => retry.status !== 202);

    console.log(
      [
        `Database stall of ${STALL_MS / 1000} s under load: ${calls.length} calls, ${during.length} started during the stall`,
        `  slowest call ${slowest} ms; 503 answers ${unavailable.length} (during the stall: time to 503 median ${median(time503)} ms, max ${Math.max(0, ...time503)} ms)`,
        `  HTTP 5xx other than 503: ${errors500.length}; acknowledged registrations lost: ${lost.length} of ${acknowledged.length}`,
        `  registrations retried after a failure: ${retries.length}, of which refused: ${failedButHappened.length}`,
        `  recovery: first successful write ${firstWriteBack === undefined ? 'never' : `${firstWriteBack - resumedAt} ms`} after the database came back`,
      ].join('\n'),
    );

    expect(calls.filter((call) => call.ms > LIMIT_MS).map((call) => `${call.kind} ${call.status} ${call.ms} ms`)).toEqual([]);
    expect(errors500.map((call) => `${call.kind} ${call.status}`)).toEqual([]);
    expect(unavailable.every((call) => call.retryAfter !== null)).toBe(true);
    expect(during.length).toBeGreaterThan(20);
    expect(lost).toEqual([]);
    expect(failedButHappened).toEqual([]);
    expect(firstWriteBack).toBeDefined();
    expect(firstWriteBack! - resumedAt).toBeLessThan(3_000);
  }, 90_000);
});

function median(values: number[]): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
