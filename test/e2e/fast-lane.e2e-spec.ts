import { jest } from '@jest/globals';
import request from 'supertest';
import { generateKey } from '../../lib/licences/key.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { FastLaneRouter } from '../../src/fast-lane/fast-lane.js';
import { loadConfig } from '../../src/config/app-config.js';
import { stripeSignature } from '../support/stripe-events.js';
import { testDatabaseUri } from '../support/test-database.js';

/*
 * The fast lane (src/fast-lane/fast-lane.ts) answers the licensing API and the liveness probe before
 * Express and Nest. Express routes `/api/v1/licenses/validate/` (a trailing slash) to the same Nest
 * handler through the whole pipeline, and the lane does not take that spelling: so every request
 * below is sent both ways, and the two answers must be the same, byte for byte but for the clock.
 */

const APPS = 'hitscope-for-apps';
const FINGERPRINT = 'c'.repeat(64);
const EXTENSION = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';

let running: RunningApp;
const server = () => running.app.getHttpServer();
const laneDispatches = jest.spyOn(FastLaneRouter.prototype as unknown as { dispatch: () => Promise<void> }, 'dispatch');

beforeAll(async () => {
  const stripeApi = process.env.HITSCOPE_TEST_STRIPE_API_BASE;
  if (!stripeApi) throw new Error('HITSCOPE_TEST_STRIPE_API_BASE is not set: global setup starts stripe-mock');
  running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: testDatabaseUri('fast-lane'),
      LOG_LEVEL: 'error',
      PORT: '0',
      STRIPE_SECRET_KEY: 'sk_test_fastlane0123',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_BASE: stripeApi,
    }),
  );
  await running.app.listen(0, '127.0.0.1');
});

afterAll(async () => {
  await running?.close();
});

interface Call {
  method: 'get' | 'head' | 'post';
  path: string;
  headers?: Record<string, string>;
  /** Sent as is (a string can be malformed JSON). */
  body?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  text: string;
}

/** The answer, without what changes from one request to the next (the date, the clock in the body, the uptime). */
async function send({ method, path, headers = {}, body }: Call): Promise<Answer> {
  let call = request(server())[method](path);
  for (const [name, value] of Object.entries(headers)) call = call.set(name, value);
  const response = body === undefined ? await call : await call.send(body);
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, ...rest } = response.headers as Record<string, string>;
  const text = (response.text ?? '').replace(/"ts":"[^"]+"/, '"ts":"…"').replace(/"uptimeSeconds":\d+/, '"uptimeSeconds":…');
  return { status: response.status, headers: rest, text };
}

/** Sends `call` to the lane and, with a trailing slash, through Express and Nest; answers both. */
async function bothWays(call: Call): Promise<{ lane: Answer; full: Answer }> {
  laneDispatches.mockClear();
  const lane = await send(call);
  expect(laneDispatches).toHaveBeenCalledTimes(1);
  const [path, query] = call.path.split('?');
  const full = await send({ ...call, path: `${path}/${query === undefined ? '' : `?${query}`}` });
  expect(laneDispatches).toHaveBeenCalledTimes(1);
  return { lane, full };
}

const json = { 'Content-Type': 'application/json' };
const WEBHOOK_SECRET = 'whsec_fastlane0123456789';
/** A signed Stripe event of a type the app stores and ignores (nothing is called at Stripe for it). */
const signedEvent = (id: string, secret = WEBHOOK_SECRET, object: Record<string, unknown> = { id: 'cus_1' }) => {
  const body = JSON.stringify({ id, object: 'event', type: 'customer.created', created: 1_780_000_000, data: { object } });
  return { body, headers: { 'Content-Type': 'application/json; charset=utf-8', 'Stripe-Signature': stripeSignature(body, secret) } };
};
const decision = (extra: Record<string, unknown> = {}) =>
  JSON.stringify({ key: generateKey(APPS).formatted, product: APPS, fingerprint: FINGERPRINT, nonce: 'n0nce', ...extra });

describe('the fast lane answers exactly as Express and Nest would', () => {
  const key = generateKey(APPS).formatted;
  const cases: Array<[string, Call]> = [
    [
      'a decision (an unknown key: NOT_FOUND)',
      { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: decision({ key }) },
    ],
    ['activate', { method: 'post', path: '/api/v1/licenses/activate', headers: json, body: decision({ key }) }],
    ['deactivate', { method: 'post', path: '/api/v1/licenses/deactivate', headers: json, body: decision({ key }) }],
    ['a key with a typo', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: decision({ key: 'HSA-TYPO' }) }],
    ['field errors', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '{"product":"x","fingerprint":7}' }],
    ['an unknown field', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: decision({ admin: true }) }],
    ['null where text goes', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: decision({ name: null }) }],
    ['an operator key', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '{"key":{"$ne":null}}' }],
    ['a prototype key', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '{"__proto__":{"admin":true}}' }],
    ['an operator key in the query', { method: 'post', path: '/api/v1/licenses/validate?$where=1', headers: json, body: decision() }],
    ['malformed JSON', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '{"key":' }],
    ['a JSON string, not an object', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '"key"' }],
    ['an array', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '[1,2]' }],
    ['an empty body', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: '' }],
    ['no body at all', { method: 'post', path: '/api/v1/licenses/validate' }],
    ['a byte-order mark', { method: 'post', path: '/api/v1/licenses/validate', headers: json, body: `\uFEFF${decision({ key })}` }],
    [
      'UTF-8 named',
      {
        method: 'post',
        path: '/api/v1/licenses/validate',
        headers: { 'Content-Type': 'application/json; charset=UTF-8' },
        body: decision({ key }),
      },
    ],
    [
      'an extension origin (CORS headers)',
      { method: 'post', path: '/api/v1/licenses/validate', headers: { ...json, Origin: EXTENSION }, body: decision({ key }) },
    ],
    [
      'a web origin (no CORS headers)',
      { method: 'post', path: '/api/v1/licenses/validate', headers: { ...json, Origin: 'https://evil.example' }, body: decision({ key }) },
    ],
    // Sent twice (the lane, then Express): stored the first time, a redelivery the second, both 200.
    ['a Stripe event, signed', { method: 'post', path: '/api/billing/webhook', ...signedEvent('evt_lane_signed') }],
    [
      'a Stripe event signed with another secret',
      { method: 'post', path: '/api/billing/webhook', ...signedEvent('evt_lane_other', 'whsec_other0123456') },
    ],
    [
      'a Stripe event without its signature',
      { method: 'post', path: '/api/billing/webhook', headers: json, body: signedEvent('evt_lane_none').body },
    ],
    [
      'a Stripe event that is not JSON',
      {
        method: 'post',
        path: '/api/billing/webhook',
        headers: { ...json, 'Stripe-Signature': stripeSignature('{"id":', WEBHOOK_SECRET) },
        body: '{"id":',
      },
    ],
    [
      'a Stripe event with an operator key (its body is not parsed)',
      {
        method: 'post',
        path: '/api/billing/webhook',
        ...signedEvent('evt_lane_operator', WEBHOOK_SECRET, { id: 'cus_2', metadata: { $where: '1' } }),
      },
    ],
    ['no body at the webhook', { method: 'post', path: '/api/billing/webhook' }],
    ['the liveness probe', { method: 'get', path: '/health/live' }],
    ['the liveness probe, HEAD', { method: 'head', path: '/health/live' }],
    ['the liveness probe with a query', { method: 'get', path: '/health/live?from=balancer' }],
  ];

  it.each(cases)('%s', async (_name, call) => {
    const { lane, full } = await bothWays(call);
    expect(lane).toEqual(full);
  });

  it('answers the decisions with their real content (this is not two identical errors)', async () => {
    const { lane } = await bothWays({ method: 'post', path: '/api/v1/licenses/validate', headers: json, body: decision({ key }) });
    expect(lane.status).toBe(200);
    expect(JSON.parse(lane.text)).toMatchObject({ valid: false, code: 'NOT_FOUND', nonce: 'n0nce' });
    expect(lane.headers['cache-control']).toBe('no-store');
    const live = await bothWays({ method: 'get', path: '/health/live' });
    expect(live.lane.text).toBe('{"status":"ok","uptimeSeconds":…}');
  });
});

describe('what the fast lane leaves to Express', () => {
  const leftAlone: Array<[string, Call, number]> = [
    ['another method', { method: 'get', path: '/api/v1/licenses/validate' }, 404],
    [
      'a body that is not JSON',
      { method: 'post', path: '/api/v1/licenses/validate', headers: { 'Content-Type': 'text/plain' }, body: '{}' },
      415,
    ],
    [
      'another charset',
      { method: 'post', path: '/api/v1/licenses/validate', headers: { 'Content-Type': 'application/json; charset=latin1' }, body: '{}' },
      415,
    ],
    ['a POST to the probe', { method: 'post', path: '/health/live', headers: json, body: '{}' }, 404],
  ];

  it.each(leftAlone)('%s: answered by Express', async (_name, call, status) => {
    laneDispatches.mockClear();
    const answer = await send(call);
    expect(answer.status).toBe(status);
    expect(laneDispatches).not.toHaveBeenCalled();
  });

  it('a CORS preflight from the extension: answered by the CORS middleware, 204', async () => {
    laneDispatches.mockClear();
    const response = await request(server())
      .options('/api/v1/licenses/validate')
      .set('Origin', EXTENSION)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type')
      .expect(204);
    expect(response.headers['access-control-allow-origin']).toBe(EXTENSION);
    expect(laneDispatches).not.toHaveBeenCalled();
  });

  it('a body declared over the limit: 413 at once, by Express', async () => {
    laneDispatches.mockClear();
    const response = await request(server())
      .post('/api/v1/licenses/validate')
      .set('Content-Type', 'application/json')
      .set('Content-Length', String(200 * 1024))
      .send('');
    expect(response.status).toBe(413);
    expect(laneDispatches).not.toHaveBeenCalled();
  });

  it('a body over the limit sent without a length (chunked): 413 from the lane, like the JSON parser', async () => {
    const big = JSON.stringify({ key: 'x'.repeat(120 * 1024) });
    const chunked = async (path: string) => {
      const call = request(server()).post(path).set('Content-Type', 'application/json').set('Transfer-Encoding', 'chunked');
      call.write(big.slice(0, 60 * 1024));
      call.write(big.slice(60 * 1024));
      return call;
    };
    laneDispatches.mockClear();
    const lane = await chunked('/api/v1/licenses/validate');
    expect(laneDispatches).toHaveBeenCalledTimes(1);
    const full = await chunked('/api/v1/licenses/validate/');
    expect(lane.status).toBe(413);
    expect(lane.body).toEqual(full.body);
    expect(lane.body).toEqual({ statusCode: 413, error: 'Payload Too Large', message: 'Request body is too large' });
  });
});
