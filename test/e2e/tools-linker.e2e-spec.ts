/**
 * Google tag linker API: POST /api/tools/linker/decode and /encode. Runs against an app of its own
 * with a database of its own, so the usage counters are exactly what this suite produced.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import { usageDay } from '../../lib/tools/tool-usage.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { LINKER_RUNS_PER_HOUR } from '../../src/tools/linker/linker.controller.js';
import { type Agent, signUp, type SignedUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

interface ReferenceCase {
  browser: { userAgent: string; timezoneOffset: number; language: string };
  time: number;
  pageCookies: Record<string, string>;
  linkerCookies: Record<string, string>;
  linker: string;
}
const [reference] = (
  JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/linker/gtag-reference.json'), 'utf8')) as { cases: ReferenceCase[] }
).cases;

let running: RunningApp;
let mongo: MongoClient;
let db: Db;
let user: SignedUp;

const agent = (): Agent => request.agent(running.app.getHttpServer());

async function runsOf(action: 'decode' | 'encode'): Promise<number> {
  const row = await db.collection('tool_usage_daily').findOne({ day: usageDay(new Date()), tool: 'linker', action });
  return (row?.runs as number | undefined) ?? 0;
}

const post = (person: SignedUp, action: 'decode' | 'encode', body: unknown) =>
  person.agent
    .post(`/api/tools/linker/${action}`)
    .set('x-csrf-token', person.token)
    .send(body as object);

beforeAll(async () => {
  running = await createApp(loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('linker'), LOG_LEVEL: 'error', PORT: '0' }));
  mongo = await MongoClient.connect(running.mongodbUri);
  db = mongo.db();
  user = await signUp({ agent: agent(), database: running.mongodbUri });
});

afterAll(async () => {
  await mongo?.close();
  await running?.close();
});

describe('POST /api/tools/linker/decode', () => {
  it('refuses anonymous callers with 401 and counts nothing', async () => {
    const anonymous = agent();
    const { body } = await anonymous.get('/api/auth/csrf').expect(200);
    await anonymous.post('/api/tools/linker/decode').set('x-csrf-token', body.token).send({ input: reference!.linker }).expect(401);
    await anonymous
      .post('/api/tools/linker/encode')
      .set('x-csrf-token', body.token)
      .send({ cookies: {}, browser: reference!.browser })
      .expect(401);
    expect(await runsOf('decode')).toBe(0);
    expect(await runsOf('encode')).toBe(0);
  });

  it('decodes a decorated URL made by gtag.js into its cookies and verifies it for the browser and time', async () => {
    const before = await runsOf('decode');
    const url = `https://shop.example.com/cart?step=2&_gl=${reference!.linker}#summary`;
    const response = await post(user, 'decode', { input: url, browser: reference!.browser, time: reference!.time + 60_000 }).expect(200);
    expect(response.body).toMatchObject({ ok: true, source: 'query', version: '1', linker: reference!.linker, warnings: [] });
    const cookies = Object.fromEntries(
      (response.body.cookies as { cookieName: string; cookieValue: string }[]).map((c) => [c.cookieName, c.cookieValue]),
    );
    expect(cookies).toEqual(reference!.pageCookies);
    expect(response.body.verification).toMatchObject({ status: 'valid', minutesAgo: 1 });
    expect(await runsOf('decode')).toBe(before + 1);
  });

  it('tells how long ago a link expired, taking the time as an ISO date-time', async () => {
    const time = new Date(reference!.time + 40 * 60_000).toISOString();
    const response = await post(user, 'decode', { input: reference!.linker, browser: reference!.browser, time }).expect(200);
    expect(response.body.verification).toMatchObject({ status: 'expired', minutesAgo: 40 });
    expect(response.body.verification.message).toMatch(/^Expired 37 minutes ago/);
  });

  it('answers 200 with ok: false and the reason for a malformed _gl, and counts the run', async () => {
    const before = await runsOf('decode');
    const response = await post(user, 'decode', { input: 'https://shop.example.com/?_gl=1*abc*_ga*M!Q' }).expect(200);
    expect(response.body).toEqual({ ok: false, error: expect.stringContaining('The value of "_ga" is not valid base64') });
    expect(await runsOf('decode')).toBe(before + 1);
  });

  it.each([
    ['no input', {}, 'input'],
    ['an empty input', { input: '' }, 'input'],
    ['a number as input', { input: 42 }, 'input'],
    ['an operator object', { input: { $gt: '' } }, 'input'],
    ['a too long input', { input: 'x'.repeat(16_385) }, 'input'],
    ['an extra field', { input: '1*a*', admin: true }, 'admin'],
    ['a browser that is not an object', { input: '1*a*', browser: 'Chrome' }, 'browser'],
    [
      'a fractional timezone offset',
      { input: '1*a*', browser: { userAgent: 'UA', timezoneOffset: 1.5, language: 'en' } },
      'browser.timezoneOffset',
    ],
    [
      'an out-of-range timezone offset',
      { input: '1*a*', browser: { userAgent: 'UA', timezoneOffset: 9999, language: 'en' } },
      'browser.timezoneOffset',
    ],
    ['a browser without user agent', { input: '1*a*', browser: { timezoneOffset: 0, language: 'en' } }, 'browser.userAgent'],
    [
      'an unknown browser field',
      { input: '1*a*', browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en', platform: 'x' } },
      'browser.platform',
    ],
    ['a time that is not a date', { input: '1*a*', time: 'yesterday' }, 'time'],
  ])('answers 400 with a field message for %s, counting nothing', async (_label, body, field) => {
    const before = await runsOf('decode');
    const response = await post(user, 'decode', body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
    // An operator object is refused before validation, under its full path (input.$gt).
    const key = Object.keys(response.body.fields).find((name) => name === field || name.startsWith(`${field}.`));
    expect(response.body.fields[key!]).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(await runsOf('decode')).toBe(before);
  });
});

describe('POST /api/tools/linker/encode', () => {
  it('makes exactly the link gtag.js made, decorates the URL, and round-trips through decode', async () => {
    const before = await runsOf('encode');
    const response = await post(user, 'encode', {
      cookies: reference!.linkerCookies,
      browser: reference!.browser,
      time: reference!.time,
      url: 'https://checkout.example.net/pay?order=7&_gl=1*old*#review',
    }).expect(200);
    expect(response.body).toMatchObject({
      value: reference!.linker,
      url: `https://checkout.example.net/pay?order=7&_gl=${reference!.linker}#review`,
    });
    expect(await runsOf('encode')).toBe(before + 1);

    const back = await post(user, 'decode', { input: response.body.url, browser: reference!.browser, time: reference!.time }).expect(200);
    expect(Object.fromEntries((back.body.cookies as { key: string; value: string }[]).map((c) => [c.key, c.value]))).toEqual(
      reference!.linkerCookies,
    );
    expect(back.body.verification.status).toBe('valid');
  });

  it('accepts cookies as they read on the page and a list form, and answers url: null without a URL', async () => {
    const response = await post(user, 'encode', {
      cookies: Object.entries(reference!.pageCookies).map(([key, value]) => ({ key, value })),
      browser: reference!.browser,
    }).expect(200);
    expect(response.body.url).toBeNull();
    expect(response.body.entries).toContainEqual({ key: '_ga', value: reference!.linkerCookies._ga });
    expect(response.body.value).toMatch(/^1\*[0-9a-z]+\*/);
  });

  it.each([
    ['no cookies', { browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' } }, 'cookies'],
    [
      'a cookie name with a separator',
      { cookies: { 'a*b': 'x' }, browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' } },
      'cookies',
    ],
    [
      'a cookie value that is not text',
      { cookies: { _ga: 5 }, browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' } },
      'cookies',
    ],
    ['no browser', { cookies: { _ga: '1.2' } }, 'browser'],
    [
      'a javascript: URL',
      { cookies: {}, browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' }, url: 'javascript:alert(1)' },
      'url',
    ],
    ['a relative URL', { cookies: {}, browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' }, url: '/cart' }, 'url'],
    [
      'an unknown placement',
      { cookies: {}, browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' }, placement: 'header' },
      'placement',
    ],
    ['a broken Unicode value', { cookies: { _ga: '\uD800' }, browser: { userAgent: 'UA', timezoneOffset: 0, language: 'en' } }, 'cookies'],
  ])('answers 400 with a field message for %s, counting nothing', async (_label, body, field) => {
    const before = await runsOf('encode');
    const response = await post(user, 'encode', body).expect(400);
    expect(response.body.fields[field]).toEqual(expect.arrayContaining([expect.any(String)]));
    expect(await runsOf('encode')).toBe(before);
  });

  it(`limits each user to ${LINKER_RUNS_PER_HOUR} runs an hour (429 with Retry-After), without limiting others`, async () => {
    const busy = await signUp({ agent: agent(), database: running.mongodbUri });
    for (let sent = 0; sent < LINKER_RUNS_PER_HOUR; sent += 25) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(25, LINKER_RUNS_PER_HOUR - sent) }, (_, i) =>
          post(
            busy,
            i % 2 ? 'decode' : 'encode',
            i % 2 ? { input: '1*a*' } : { cookies: {}, browser: { userAgent: '', timezoneOffset: 0, language: '' } },
          ),
        ),
      );
      expect(batch.every((response) => response.status === 200)).toBe(true);
    }
    const refused = await post(busy, 'decode', { input: '1*a*' }).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await post(user, 'decode', { input: '1*a*' }).expect(200);
  }, 120_000);
});
