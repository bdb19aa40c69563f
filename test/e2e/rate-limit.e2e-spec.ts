import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { MAX_BUFFERED_COUNTERS, RateLimitService, TooManyRequestsException } from '../../src/rate-limit/rate-limit.service.js';
import { PASSWORD, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

/** A client of one app instance: CSRF cookie + token, optional X-Forwarded-For. */
async function client(running: RunningApp) {
  const http = request(running.app.getHttpServer());
  const csrf = await http.get('/api/auth/csrf').expect(200);
  const cookie = (csrf.headers['set-cookie'] as unknown as string[])[0].split(';')[0];
  return (email: string, forwardedFor?: string) => {
    const call = http.post('/api/auth/login').set('Cookie', cookie).set('x-csrf-token', csrf.body.token);
    if (forwardedFor) call.set('X-Forwarded-For', forwardedFor);
    return call.send({ email, password: 'not the password at all' });
  };
}

/** Waits, when the current fixed window of `seconds` ends within 5 s, for the next one to begin. */
async function insideOneWindow(seconds: number): Promise<void> {
  const left = seconds * 1000 - (Date.now() % (seconds * 1000));
  if (left < 5000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('abuse limits on sign-in (stored in the database, shared by instances)', () => {
  let direct: RunningApp;
  let behindProxy: RunningApp;

  // A fresh database for each test, so that one test's counters never spend another's budget.
  beforeEach(async () => {
    const shared = { NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('ratelimit'), LOG_LEVEL: 'error', PORT: '0' };
    direct = await createApp(loadConfig({ ...shared, TRUST_PROXY: 'false' }));
    behindProxy = await createApp(loadConfig({ ...shared, TRUST_PROXY: 'loopback' }));
  });
  afterEach(async () => {
    await direct?.close();
    await behindProxy?.close();
  });

  it('allows 10 attempts per account per 15 minutes from browsers that never signed in to it, across instances, then answers 429 with Retry-After', async () => {
    const [onA, onB] = [await client(direct), await client(behindProxy)];
    const email = 'victim@example.test';
    for (let attempt = 0; attempt < 10; attempt += 1) {
      const login = attempt % 2 ? onA : onB;
      await login(email, `198.51.100.${attempt}`).expect(401);
    }
    const limited = await onA(email).expect(429);
    expect(limited.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' });
    const retryAfter = Number(limited.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(15 * 60);
    await onB(email.toUpperCase(), '198.51.100.77').expect(429);
    await onA('someone-else@example.test').expect(401);
  }, 60_000);

  it('evaluates exactly 10 of 20 simultaneous attempts on one account from 20 addresses and refuses the other 10 with 429', async () => {
    const login = await client(behindProxy);
    await insideOneWindow(15 * 60);
    const responses = await Promise.all(Array.from({ length: 20 }, (_, index) => login('burst@example.test', `198.51.100.${index}`)));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([]);
    // Exact on every database and connection pool: the k-th attempt claims slot k with a unique
    // insert, so of attempts racing for a slot exactly one gets it, whatever the interleaving.
    expect(statuses.filter((status) => status === 401)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(10);
    for (const limited of responses.filter((response) => response.status === 429)) {
      expect(limited.body).toEqual({
        statusCode: 429,
        error: 'Too Many Requests',
        message: `Too many attempts. Try again in ${limited.headers['retry-after']} seconds.`,
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    }
    await login('burst@example.test', '198.51.100.99').expect(429);
  }, 60_000);

  it("an attacker's 50 wrong passwords from 50 addresses do not stop the owner's sign-in from a known browser, and do slow the attacker", async () => {
    const owner = await signUp({ agent: request.agent(behindProxy.app.getHttpServer()), database: behindProxy.mongodbUri });
    await owner.agent.post('/api/auth/logout').set('x-csrf-token', owner.token).expect(204);
    const attempt = await client(behindProxy);
    await insideOneWindow(15 * 60);

    const answers = [];
    for (let index = 0; index < 50; index += 1) answers.push(await attempt(owner.email, `203.0.113.${index + 1}`));
    const statuses = answers.map((answer) => answer.status);
    // Ten guesses, then nothing: a stranger is held for the rest of the quarter hour, whatever the address.
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(401));
    expect(statuses.slice(10)).toEqual(Array(40).fill(429));
    expect(Number(answers[49].headers['retry-after'])).toBeGreaterThan(0);

    // The owner, in the browser that has signed in before (its device cookie), from yet another address.
    const token = (await owner.agent.get('/api/auth/csrf').expect(200)).body.token as string;
    await owner.agent
      .post('/api/auth/login')
      .set('x-csrf-token', token)
      .set('X-Forwarded-For', '198.51.100.200')
      .send({ email: owner.email, password: PASSWORD })
      .expect(200);
    // A browser the account has never seen waits like the stranger's: the owner can also reset the password by e-mail.
    const stranger = await client(behindProxy);
    await stranger(owner.email, '198.51.100.201').expect(429);

    // The windows escalate: the quarter hour's counter is gone (as when it ends), yet a guesser who kept
    // trying is still held, by the hour and the day. The counter is its ten claimed slots, one per
    // attempt that passed; the refused ones took none.
    const quarter = Math.floor(Date.now() / (15 * 60 * 1000));
    const mongo = await MongoClient.connect(behindProxy.mongodbUri);
    try {
      const removed = await mongo
        .db()
        .collection<{ _id: string }>('rate_limit_counters')
        .deleteMany({ _id: { $regex: new RegExp(`^signin-account:account:[^:]+:${quarter}#\\d+$`) } });
      expect(removed.deletedCount).toBe(10);
    } finally {
      await mongo.close();
    }
    const later = await attempt(owner.email, '203.0.113.99').expect(429);
    const quarterLeft = 15 * 60 - Math.floor((Date.now() / 1000) % (15 * 60));
    expect(Number(later.headers['retry-after'])).toBeGreaterThanOrEqual(quarterLeft);
  }, 90_000);

  it('limits each client on one account: the 6th wrong password from one address waits, another address does not', async () => {
    const attempt = await client(behindProxy);
    await insideOneWindow(15 * 60);
    for (let index = 0; index < 5; index += 1) await attempt('per-client@example.test', '192.0.2.10').expect(401);
    await attempt('per-client@example.test', '192.0.2.10').expect(429);
    await attempt('per-client@example.test', '192.0.2.11').expect(401);
  }, 60_000);

  it('ignores X-Forwarded-For unless TRUST_PROXY allows it', async () => {
    const login = await client(direct);
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await login(`ip-${attempt}@example.test`, `203.0.113.${attempt}`).expect(401);
    }
    // Spoofed addresses did not help: every attempt counted against the real peer, 127.0.0.1.
    await login('ip-final@example.test', '203.0.113.250').expect(429);

    const proxied = await client(behindProxy);
    for (let attempt = 0; attempt < 30; attempt += 1) {
      await proxied(`proxied-${attempt}@example.test`, '192.0.2.1').expect(401);
    }
    await proxied('proxied-final@example.test', '192.0.2.1').expect(429);
    await proxied('proxied-other@example.test', '192.0.2.2').expect(401);
  }, 90_000);
});

describe('buffered limits (the licensing API: counted in memory, shared once a second)', () => {
  let first: RunningApp;
  let second: RunningApp;
  const rule = { scope: 'ip', limit: 30, windowSeconds: 600, buffered: true } as const;

  beforeEach(async () => {
    const shared = { NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('ratelimit_buffered'), LOG_LEVEL: 'error', PORT: '0' };
    [first, second] = [await createApp(loadConfig(shared)), await createApp(loadConfig(shared))];
  });
  afterEach(async () => {
    await first?.close();
    await second?.close();
  });

  /** How many of `count` hits pass before the first 429. */
  async function take(limits: RateLimitService, subject: string, count: number): Promise<number> {
    for (let taken = 0; taken < count; taken += 1) {
      try {
        await limits.hitBuffered('bench', rule, subject);
      } catch (error) {
        if (error instanceof TooManyRequestsException) return taken;
        throw error;
      }
    }
    return count;
  }

  it('is exact on one instance, and instances share their counts through the database', async () => {
    await insideOneWindow(rule.windowSeconds);
    const [a, b] = [first.app.get(RateLimitService), second.app.get(RateLimitService)];
    expect(await take(a, '198.51.100.7', 20)).toBe(20);
    await a.flushBuffered();
    expect(await take(b, '198.51.100.7', 5)).toBe(5);
    await b.flushBuffered(); // b now knows of a's 20
    expect(await take(b, '198.51.100.7', 10)).toBe(5);
    await b.flushBuffered();
    // a learns the total when it next writes its own hits: until then (a second at most) it may let
    // one more through, then it refuses.
    expect(await take(a, '198.51.100.7', 1)).toBe(1);
    await a.flushBuffered();
    expect(await take(a, '198.51.100.7', 1)).toBe(0);
    // Another subject has its own budget; the shared counter holds the total, not the raw address.
    expect(await take(a, '198.51.100.8', 1)).toBe(1);
    await a.flushBuffered();
    const mongo = await MongoClient.connect(first.mongodbUri);
    try {
      const counters = await mongo
        .db()
        .collection('rate_limit_counters')
        .find({ _id: { $regex: '^bench:' } as never })
        .toArray();
      expect(counters.map((counter) => counter.count).sort()).toEqual([1, 31]);
      expect(JSON.stringify(counters)).not.toContain('198.51.100');
    } finally {
      await mongo.close();
    }
  });

  it(`counts at most ${MAX_BUFFERED_COUNTERS} subjects in memory; beyond, a new subject's hit is counted in the database at once`, async () => {
    const limits = first.app.get(RateLimitService);
    // Fill the memory with subjects of a window that is over (the next flush drops them unwritten).
    const past = Date.now() - 2 * rule.windowSeconds * 1000;
    for (let i = 0; i < MAX_BUFFERED_COUNTERS; i += 1) await limits.hitBuffered('crowd', rule, `10.0.${i >> 8}.${i & 255}`, past);
    await limits.hitBuffered('newcomer', rule, '203.0.113.99');
    const mongo = await MongoClient.connect(first.mongodbUri);
    try {
      // No flush has written it (it is not in memory): the hit itself did, as an unbuffered hit does.
      const stored = await mongo
        .db()
        .collection('rate_limit_counters')
        .find({ _id: { $regex: '^newcomer:' } as never })
        .toArray();
      expect(stored.map((counter) => counter.count)).toEqual([1]);
    } finally {
      await mongo.close();
    }
  });

  it('answers the licensing API 429 with Retry-After once the per-address limit is spent', async () => {
    await insideOneWindow(600);
    const http = request(first.app.getHttpServer());
    const statuses = new Map<number, number>();
    // 300 calls per address in 10 minutes; a malformed key is refused offline, so each call costs no lookup.
    for (let call = 0; call < 301; call += 1) {
      const response = await http
        .post('/api/v1/licenses/validate')
        .send({ key: 'HSA-NOTAKEY', product: 'hitscope-for-apps', fingerprint: 'f'.repeat(64) });
      statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      if (response.status === 429) expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(Object.fromEntries(statuses)).toEqual({ 200: 300, 429: 1 });
  }, 60_000);
});
