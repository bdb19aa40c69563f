/**
 * Licences end to end: entitlements in, keys, seats and devices under concurrency, signed leases
 * checked offline by the reference client (scripts/licence-client.mjs), the dashboard and admin
 * APIs, and what a database dump holds. An app of this suite's own, on the real database.
 */
import { MIGRATIONS_COLLECTION } from '../../src/database/once.js';
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import type {
  AdminLicenceList,
  AdminSigningKeyList,
  LicenceApiResponse,
  LicensingJwks,
  OwnedLicenceList,
  RotateSigningKeyResponse,
} from '../../lib/api/licences.js';
import { parseKey } from '../../lib/licences/key.js';
import { fingerprintOf, LicenceClient, memoryStore, newDeviceId } from '../../lib/licensing/client.js';
import { check, verifyLease } from '../../scripts/licence-client.mjs';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { type Entitlement, ENTITLEMENT_SINK, type EntitlementSink } from '../../src/billing/entitlement-sink.js';
import { loadConfig } from '../../src/config/app-config.js';
import { LicencesService } from '../../src/licences/licences.service.js';
import { SigningKeysService } from '../../src/licences/signing-keys.service.js';
import { DOWNLOAD_ENTITLEMENT, type DownloadEntitlement } from '../../src/releases/download-entitlement.js';
import { PASSWORD, type SignedUp, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const APPS = 'hitscope-for-apps';
const BROWSERS = 'hitscope-for-browsers';
const ADMIN = 'licences-admin@example.test';
const DAY = 24 * 60 * 60 * 1000;

let running: RunningApp;
let mongo: MongoClient;
let db: Db;
let sink: EntitlementSink;
let downloads: DownloadEntitlement;
let baseUrl: string;
let owner: SignedUp;
let admin: SignedUp;

const server = () => running.app.getHttpServer();
const device = () => createHash('sha256').update(randomBytes(16)).digest('hex');
const source = () => ({ kind: 'subscription' as const, id: `sub_${randomBytes(8).toString('hex')}` });

function entitlement(overrides: Partial<Entitlement> = {}): Entitlement {
  return {
    source: source(),
    userId: owner.user.id,
    planId: 'team-monthly',
    products: [APPS],
    seats: 3,
    state: 'active',
    expiresAt: new Date(Date.now() + 30 * DAY),
    graceUntil: null,
    ...overrides,
  };
}

/** Applies an entitlement and answers the key of its licence for `product`, as the owner's dashboard shows it. */
async function licensed(
  overrides: Partial<Entitlement> = {},
  product = APPS,
): Promise<{ key: string; id: string; entitlement: Entitlement }> {
  const applied = entitlement(overrides);
  await sink.apply(applied);
  const listed = await owner.agent.get('/api/licences');
  if (listed.status !== 200) throw new Error(`GET /api/licences answered ${listed.status}: ${listed.text}`);
  const list = listed.body as OwnedLicenceList;
  const licence = list.licences.find((item) => item.id === idOf(applied, product));
  if (!licence?.key) throw new Error('the applied licence is not listed with its key');
  return { key: licence.key, id: licence.id, entitlement: applied };
}

const ids = new Map<string, string>();
function idOf(applied: Entitlement, product: string): string | undefined {
  return ids.get(`${applied.source.id}:${product}`);
}

function call(operation: 'activate' | 'validate' | 'deactivate', body: Record<string, unknown>) {
  return request(server()).post(`/api/v1/licenses/${operation}`).send(body);
}

async function decide(operation: 'activate' | 'validate' | 'deactivate', body: Record<string, unknown>): Promise<LicenceApiResponse> {
  const response = await call(operation, body).expect(200);
  return response.body as LicenceApiResponse;
}

beforeAll(async () => {
  running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: testDatabaseUri('licences'),
      LOG_LEVEL: 'error',
      PORT: '0',
      AUTH_SECRET: 'licences-suite-secret-0123456789-abcdefghijklmnop',
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MULTIPLIER: '1000',
      // 50 activations queue on the one database connection; on a machine busy with other suites the
      // last ones can take longer than the default 5 s deadline (a 503, which clients treat as offline).
      REQUEST_TIMEOUT_MS: '30000',
    }),
  );
  await running.app.listen(0, '127.0.0.1');
  baseUrl = `http://127.0.0.1:${(server().address() as AddressInfo).port}`;
  mongo = await MongoClient.connect(running.mongodbUri);
  db = mongo.db();
  sink = running.app.get(ENTITLEMENT_SINK);
  downloads = running.app.get(DOWNLOAD_ENTITLEMENT);
  [owner, admin] = await Promise.all([
    signUp({ agent: request.agent(server()), database: running.mongodbUri }),
    signUp({ agent: request.agent(server()), email: ADMIN, name: 'Admin', database: running.mongodbUri }),
  ]);
  // Licence ids are deterministic: learn them from the documents as entitlements are applied.
  const original = { apply: sink.apply.bind(sink), licencesOf: sink.licencesOf.bind(sink) };
  sink = {
    licencesOf: (source) => original.licencesOf(source),
    apply: async (applied: Entitlement) => {
      await original.apply(applied);
      for (const doc of await db.collection('licences').find({ 'source.id': applied.source.id }).toArray()) {
        ids.set(`${applied.source.id}:${doc.product as string}`, String(doc._id));
      }
    },
  };
});

afterAll(async () => {
  await mongo?.close();
  await running?.close();
});

describe('entitlements', () => {
  it('applying the same entitlement twice makes one licence with one key; a change updates it in place', async () => {
    const { key, id, entitlement: applied } = await licensed({ products: [APPS, BROWSERS] });
    expect(id).toMatch(/^lic_[0-9a-z]{26}$/);
    expect(parseKey(key)?.product).toBe(APPS);
    await sink.apply(applied);
    await sink.apply({ ...applied, seats: 5 });
    const docs = await db.collection('licences').find({ 'source.id': applied.source.id }).toArray();
    expect(docs.map((doc) => doc.product).sort()).toEqual([APPS, BROWSERS]);
    const listed = await owner.agent.get('/api/licences');
    if (listed.status !== 200) throw new Error(`GET /api/licences answered ${listed.status}: ${listed.text}`);
    const list = listed.body as OwnedLicenceList;
    const mine = list.licences.filter((licence) => docs.some((doc) => String(doc._id) === licence.id));
    expect(mine.find((licence) => licence.product === APPS)).toMatchObject({ key, seats: 5, valid: true, source: 'subscription' });
    expect(mine.find((licence) => licence.product === BROWSERS)?.key).toMatch(/^HSB-/);
  });

  it('an entitlement applied again unchanged writes nothing; one that differs in any field is written', async () => {
    const { entitlement: applied } = await licensed({ products: [APPS, BROWSERS] });
    const stored = () => db.collection('licences').find({ 'source.id': applied.source.id }).sort({ product: 1 }).toArray();
    const stamps = async () => (await stored()).map((doc) => (doc.updatedAt as Date).getTime());
    const tick = () => new Promise((resolve) => setTimeout(resolve, 5));
    const first = await stamps();
    await tick();
    // The same values in new objects (every event of a source applies its entitlement again).
    await sink.apply({ ...applied, products: [BROWSERS, APPS], expiresAt: new Date(applied.expiresAt!.getTime()) });
    expect(await stamps()).toEqual(first);
    const changes: Array<Partial<Entitlement>> = [
      { seats: 4 },
      { state: 'past_due', graceUntil: new Date(Date.now() + 3 * DAY) },
      { expiresAt: null },
      { planId: 'solo-monthly', expiresAt: null },
    ];
    let current = applied;
    for (const change of changes) {
      const before = await stamps();
      await tick();
      current = { ...applied, ...change };
      await sink.apply(current);
      const after = await stamps();
      expect(after.every((stamp, index) => stamp > before[index])).toBe(true);
    }
    expect((await stored()).map(({ planId, seats, state, expiresAt }) => ({ planId, seats, state, expiresAt }))).toEqual([
      { planId: 'solo-monthly', seats: 3, state: 'active', expiresAt: null },
      { planId: 'solo-monthly', seats: 3, state: 'active', expiresAt: null },
    ]);
  });

  it('a product the source no longer covers is revoked', async () => {
    const { key, entitlement: applied } = await licensed({ products: [APPS, BROWSERS] });
    await sink.apply({ ...applied, products: [BROWSERS] });
    expect(await decide('validate', { key, product: APPS, fingerprint: device() })).toMatchObject({ valid: false, code: 'REVOKED' });
  });

  it.each([
    ['suspended', { state: 'suspended' as const }, 'SUSPENDED'],
    ['revoked', { state: 'revoked' as const }, 'REVOKED'],
    ['expired', { state: 'expired' as const }, 'EXPIRED'],
    ['active with its paid period over', { expiresAt: new Date(Date.now() - DAY) }, 'EXPIRED'],
    [
      'past due within grace',
      { state: 'past_due' as const, expiresAt: new Date(Date.now() - DAY), graceUntil: new Date(Date.now() + 3 * DAY) },
      'VALID',
    ],
    [
      'past due after grace',
      { state: 'past_due' as const, expiresAt: new Date(Date.now() - 9 * DAY), graceUntil: new Date(Date.now() - DAY) },
      'EXPIRED',
    ],
  ])('an activated device sees the change of state: %s', async (_label, change, code) => {
    const { key, entitlement: applied } = await licensed();
    const fingerprint = device();
    expect(await decide('activate', { key, product: APPS, fingerprint })).toMatchObject({ valid: true, code: 'VALID' });
    await sink.apply({ ...applied, ...change });
    const answer = await decide('validate', { key, product: APPS, fingerprint });
    expect(answer).toMatchObject({ valid: code === 'VALID', code });
    expect(answer.lease === null).toBe(code !== 'VALID');
    // Back to active: valid again, on the same seat.
    await sink.apply(applied);
    expect(await decide('validate', { key, product: APPS, fingerprint })).toMatchObject({ valid: true, code: 'VALID' });
  });

  it('downloads ask the same rule (DownloadEntitlement)', async () => {
    const { key, entitlement: applied } = await licensed({ products: [BROWSERS] }, BROWSERS);
    expect(await downloads.keyAllows(key, BROWSERS)).toBe(true);
    expect(await downloads.keyAllows(key, APPS)).toBe(false);
    expect(await downloads.canDownload(owner.user.id, BROWSERS)).toBe(true);
    await sink.apply({ ...applied, state: 'revoked' });
    expect(await downloads.keyAllows(key, BROWSERS)).toBe(false);
  });
});

describe('the licensing API', () => {
  it('answers NOT_FOUND to a key with a bad check character, and to an unknown well-formed key', async () => {
    const { key } = await licensed();
    const typo = key.slice(0, -1) + (key.endsWith('0') ? '1' : '0');
    const answer = await decide('validate', { key: typo, product: APPS, fingerprint: device(), nonce: 'n1' });
    expect(answer).toEqual({
      valid: false,
      code: 'NOT_FOUND',
      detail: expect.any(String),
      ts: expect.any(String),
      nonce: 'n1',
      licence: null,
      activation: null,
      lease: null,
    });
    const unknown = parseKey(key.replace(/^HSA-[0-9A-Z]/, 'HSA-0'))?.formatted ?? 'HSA-00000-00000-00000-00000-0';
    if (unknown !== key) expect((await decide('validate', { key: unknown, product: APPS, fingerprint: device() })).code).toBe('NOT_FOUND');
  });

  it('answers WRONG_PRODUCT to a key used in the other product', async () => {
    const { key } = await licensed();
    expect(await decide('activate', { key, product: BROWSERS, fingerprint: device() })).toMatchObject({
      valid: false,
      code: 'WRONG_PRODUCT',
    });
  });

  it('validates only activated devices: NOT_ACTIVATED before, VALID with a lease after', async () => {
    const { key } = await licensed();
    const fingerprint = device();
    expect(await decide('validate', { key, product: APPS, fingerprint })).toMatchObject({
      valid: false,
      code: 'NOT_ACTIVATED',
      lease: null,
    });
    await decide('activate', { key, product: APPS, fingerprint, name: 'Laptop', platform: 'linux', appVersion: '1.2.0' });
    const answer = await decide('validate', { key, product: APPS, fingerprint });
    expect(answer).toMatchObject({
      valid: true,
      code: 'VALID',
      activation: { id: fingerprint, name: 'Laptop', platform: 'linux', appVersion: '1.2.0' },
    });
    expect(answer.licence).toMatchObject({ seats: 3, seatsUsed: 1, status: 'active' });
  });

  it('50 simultaneous activations from distinct devices on a 3-seat licence: exactly 3 VALID, 47 NO_SEATS_LEFT', async () => {
    const { key, id } = await licensed({ seats: 3 });
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: 50 }, () => decide('activate', { key, product: APPS, fingerprint: device() })));
    const elapsed = Date.now() - started;
    const codes = answers.map((answer) => answer.code);
    expect(codes.filter((code) => code === 'VALID')).toHaveLength(3);
    expect(codes.filter((code) => code === 'NO_SEATS_LEFT')).toHaveLength(47);
    expect(await db.collection('licence_seats').countDocuments({ licenceId: id, kind: 'seat' })).toBe(3);
    expect(await db.collection('licence_activations').countDocuments({ licenceId: id, status: 'active' })).toBe(3);
    const seats = answers.filter((answer) => answer.valid).map((answer) => answer.activation!.id);
    expect(new Set(seats).size).toBe(3);
    console.log(`50 concurrent activations on 3 seats: ${elapsed} ms`);
  });

  it('the same device activating again (even 10 times at once) keeps one seat', async () => {
    const { key, id } = await licensed({ seats: 2 });
    const fingerprint = device();
    const first = await decide('activate', { key, product: APPS, fingerprint });
    const again = await Promise.all(
      Array.from({ length: 10 }, () => decide('activate', { key, product: APPS, fingerprint, name: 'Renamed' })),
    );
    expect(again.every((answer) => answer.code === 'VALID')).toBe(true);
    const seats = await db.collection('licence_seats').find({ licenceId: id, kind: 'seat' }).toArray();
    expect(seats).toHaveLength(1);
    expect((await db.collection('licence_activations').findOne({ _id: `${id}:${fingerprint}` as never }))?.seat).toBe(0);
    expect(first.licence?.seatsUsed).toBe(1);
    expect(again[9].licence?.seatsUsed).toBe(1);
    // The other seat is still free for another device.
    expect((await decide('activate', { key, product: APPS, fingerprint: device() })).code).toBe('VALID');
  });

  it('a new device activating 10 times at once gets one activation and holds one seat (the losers give theirs back)', async () => {
    const { key, id } = await licensed({ seats: 5 });
    const fingerprint = device();
    const answers = await Promise.all(Array.from({ length: 10 }, () => decide('activate', { key, product: APPS, fingerprint })));
    expect(answers.map((answer) => answer.code)).toEqual(Array(10).fill('VALID'));
    expect(await db.collection('licence_activations').countDocuments({ licenceId: id })).toBe(1);
    const seats = await db.collection('licence_seats').find({ licenceId: id, kind: 'seat' }).toArray();
    expect(seats).toHaveLength(1);
    const activation = await db.collection('licence_activations').findOne({ licenceId: id });
    expect(seats[0]._id).toBe(`${id}:${activation!.seat as number}`);
    expect(seats[0].claim).toBe(activation!.claim);
  });

  it('a device unseen for 30 days gives its seat to a new one; it is listed as released and can come back when a seat frees', async () => {
    const { key, id } = await licensed({ seats: 1 });
    const old = device();
    await decide('activate', { key, product: APPS, fingerprint: old, name: 'Old PC' });
    const newer = device();
    expect((await decide('activate', { key, product: APPS, fingerprint: newer })).code).toBe('NO_SEATS_LEFT');
    await db
      .collection('licence_activations')
      .updateOne({ _id: `${id}:${old}` as never }, { $set: { lastSeenAt: new Date(Date.now() - 31 * DAY) } });
    expect((await decide('activate', { key, product: APPS, fingerprint: newer })).code).toBe('VALID');
    expect((await decide('validate', { key, product: APPS, fingerprint: old })).code).toBe('NOT_ACTIVATED');
    const listed = await owner.agent.get('/api/licences');
    if (listed.status !== 200) throw new Error(`GET /api/licences answered ${listed.status}: ${listed.text}`);
    const list = listed.body as OwnedLicenceList;
    const devices = list.licences.find((licence) => licence.id === id)!.activations;
    expect(devices.map((item) => ({ id: item.id, released: item.released }))).toEqual(
      expect.arrayContaining([
        { id: old, released: true },
        { id: newer, released: false },
      ]),
    );
    // A device seen 29 days ago keeps its seat.
    await db
      .collection('licence_activations')
      .updateOne({ _id: `${id}:${newer}` as never }, { $set: { lastSeenAt: new Date(Date.now() - 29 * DAY) } });
    expect((await decide('activate', { key, product: APPS, fingerprint: old })).code).toBe('NO_SEATS_LEFT');
  });

  it('deactivation frees the seat, within a budget of 10 a month', async () => {
    const { key } = await licensed({ seats: 1 });
    for (let i = 0; i < 10; i += 1) {
      const fingerprint = device();
      expect((await decide('activate', { key, product: APPS, fingerprint })).code).toBe('VALID');
      expect(await decide('deactivate', { key, product: APPS, fingerprint })).toMatchObject({ valid: false, code: 'DEACTIVATED' });
    }
    const last = device();
    expect((await decide('activate', { key, product: APPS, fingerprint: last })).code).toBe('VALID');
    expect((await decide('deactivate', { key, product: APPS, fingerprint: last })).code).toBe('DEACTIVATION_LIMIT');
    expect((await decide('validate', { key, product: APPS, fingerprint: last })).code).toBe('VALID');
    expect((await decide('deactivate', { key, product: APPS, fingerprint: device() })).code).toBe('NOT_ACTIVATED');
  });

  it('validate answers from a read cache, yet the next validate sees every change made through this instance', async () => {
    const { key, id, entitlement: applied } = await licensed({ seats: 3 });
    const [first, second, third] = [device(), device(), device()];
    for (const fingerprint of [first, second, third]) await decide('activate', { key, product: APPS, fingerprint });
    const valid = async (fingerprint: string) => decide('validate', { key, product: APPS, fingerprint });
    // Read twice: the second answer may come from the cache, and must agree.
    expect((await valid(first)).licence?.seatsUsed).toBe(3);
    expect((await valid(first)).licence?.seatsUsed).toBe(3);

    // The owner deactivates a device from the dashboard.
    await owner.agent.post(`/api/licences/${id}/activations/${second}/deactivate`).set('x-csrf-token', owner.token).expect(200);
    expect(await valid(second)).toMatchObject({ valid: false, code: 'NOT_ACTIVATED' });
    expect((await valid(first)).licence?.seatsUsed).toBe(2);

    // The app deactivates itself.
    await decide('deactivate', { key, product: APPS, fingerprint: third });
    expect(await valid(third)).toMatchObject({ code: 'NOT_ACTIVATED' });
    expect((await valid(first)).licence?.seatsUsed).toBe(1);

    // Billing lowers the seats: a device beyond them no longer counts (first holds seat 0, so it stays).
    await decide('activate', { key, product: APPS, fingerprint: second });
    expect((await valid(second)).code).toBe('VALID');
    await sink.apply({ ...applied, seats: 1 });
    expect(await valid(second)).toMatchObject({ code: 'NOT_ACTIVATED', licence: { seats: 1, seatsUsed: 1 } });
    expect((await valid(first)).code).toBe('VALID');

    // An administrator resets the devices, then revokes the licence.
    await admin.agent.post(`/api/admin/licences/${id}/activations/reset`).set('x-csrf-token', admin.token).expect(200);
    expect(await valid(first)).toMatchObject({ code: 'NOT_ACTIVATED', licence: { seatsUsed: 0 } });
    await decide('activate', { key, product: APPS, fingerprint: first });
    expect((await valid(first)).code).toBe('VALID');
    await admin.agent.post(`/api/admin/licences/${id}/revoke`).set('x-csrf-token', admin.token).expect(200);
    expect(await valid(first)).toMatchObject({ valid: false, code: 'REVOKED', lease: null });
  });

  it('refuses malformed requests with 400 and field messages', async () => {
    const response = await call('activate', { key: 42, product: 'hitscope-pro', fingerprint: 'abc', extra: true }).expect(400);
    expect(Object.keys(response.body.fields).sort()).toEqual(['extra', 'fingerprint', 'key', 'product']);
  });

  it('takes no cookies and no CSRF token, and answers extension origins with CORS (preflight included)', async () => {
    const { key } = await licensed();
    const origin = 'chrome-extension://abcdefghijklmnopabcdefghijklmnop';
    const preflight = await request(server())
      .options('/api/v1/licenses/validate')
      .set('Origin', origin)
      .set('Access-Control-Request-Method', 'POST')
      .set('Access-Control-Request-Headers', 'content-type')
      .expect(204);
    expect(preflight.headers['access-control-allow-origin']).toBe(origin);
    expect(preflight.headers['access-control-allow-methods']).toBe('POST');
    const answer = await request(server())
      .post('/api/v1/licenses/validate')
      .set('Origin', 'moz-extension://7b0c2a4e-1111-2222-3333-444455556666')
      .send({ key, product: APPS, fingerprint: device() })
      .expect(200);
    expect(answer.headers['access-control-allow-origin']).toBe('moz-extension://7b0c2a4e-1111-2222-3333-444455556666');
    expect(answer.headers['set-cookie']).toBeUndefined();
    const foreign = await request(server()).options('/api/v1/licenses/validate').set('Origin', 'https://evil.example');
    expect(foreign.status).toBeLessThan(500);
    expect(foreign.headers['access-control-allow-origin']).toBeUndefined();
    // Nothing else of the API answers CORS, even to an extension.
    const elsewhere = await request(server()).get('/api/auth/csrf').set('Origin', origin).expect(200);
    expect(elsewhere.headers['access-control-allow-origin']).toBeUndefined();
  });
});

describe('leases, verified offline by the reference client', () => {
  let jwks: LicensingJwks;

  beforeAll(async () => {
    const response = await request(server()).get('/.well-known/hitscope-licensing-keys.json').expect(200);
    expect(response.headers['cache-control']).toMatch(/public, max-age=\d+/);
    expect(response.headers['content-type']).toMatch(/application\/json/);
    jwks = response.body as LicensingJwks;
  });

  it('answers other /.well-known paths with a JSON 404, not a page', async () => {
    const response = await request(server()).get('/.well-known/unknown.json').expect(404);
    expect(response.headers['content-type']).toMatch(/application\/json/);
  });

  it('publishes Ed25519 keys (JWKS), not a page', () => {
    expect(jwks.keys[0]).toEqual({ kty: 'OKP', crv: 'Ed25519', x: expect.any(String), kid: expect.any(String), alg: 'EdDSA', use: 'sig' });
  });

  it('activates and validates with a lease for this licence, product, device and nonce', async () => {
    const { key, id } = await licensed();
    const fingerprint = device();
    const activated = await check('activate', { baseUrl, key, product: APPS, fingerprint, device: { name: 'CI' } });
    expect(activated.status).toBe('valid');
    if (activated.status !== 'valid') return;
    expect(activated.payload).toMatchObject({ sub: 'lease', lic: id, prod: APPS, plan: 'team-monthly', fp: fingerprint, seats: 3 });
    expect(activated.payload.exp - activated.payload.iat).toBe(7 * 86400);
    expect(activated.payload.grace - activated.payload.exp).toBe(30 * 86400);
    const validated = await check('validate', { baseUrl, key, product: APPS, fingerprint, licenceId: id, jwks });
    expect(validated.status).toBe('valid');

    // The same lease, checked for something else, is refused.
    const lease = activated.lease;
    const nonce = activated.payload.nonce;
    expect(await verifyLease(lease, jwks, { product: APPS, fingerprint, licenceId: id, nonce })).toMatchObject({ ok: true });
    expect(await verifyLease(lease, jwks, { product: APPS, fingerprint: device(), licenceId: id })).toEqual({
      ok: false,
      reason: 'lease for another device',
    });
    expect(await verifyLease(lease, jwks, { product: APPS, fingerprint, licenceId: 'lic_00000000000000000000000000' })).toEqual({
      ok: false,
      reason: 'lease for another licence',
    });
    expect(await verifyLease(lease, jwks, { product: APPS, fingerprint, licenceId: id, nonce: 'another' })).toEqual({
      ok: false,
      reason: 'nonce mismatch (replayed answer)',
    });
    expect(await verifyLease(lease, jwks, { product: BROWSERS, fingerprint })).toEqual({ ok: false, reason: 'lease for another product' });
    const [h, p, s] = lease.split('.');
    const forged = Buffer.from(JSON.stringify({ ...activated.payload, seats: 1000 })).toString('base64url');
    expect(await verifyLease(`${h}.${forged}.${s}`, jwks, { product: APPS, fingerprint })).toEqual({ ok: false, reason: 'bad signature' });
    expect(await verifyLease(`${h}.${p}.${s}`, { keys: [] }, { product: APPS, fingerprint })).toMatchObject({ ok: false });
    expect(await verifyLease(lease, jwks, { product: APPS, fingerprint }, (activated.payload.grace + 1) * 1000)).toEqual({
      ok: false,
      reason: 'lease and its grace are over',
    });
  });

  it('the extension gets 7 days of grace; a licence ending sooner ends the lease sooner', async () => {
    const expiresAt = new Date(Date.now() + 2 * DAY);
    const { key } = await licensed({ products: [BROWSERS], expiresAt }, BROWSERS);
    const decision = await check('activate', { baseUrl, key, product: BROWSERS, fingerprint: device(), jwks });
    expect(decision.status).toBe('valid');
    if (decision.status !== 'valid') return;
    expect(decision.payload.exp).toBe(Math.floor(expiresAt.getTime() / 1000));
    expect(decision.payload.grace - decision.payload.exp).toBe(7 * 86400);
  });

  it('denies what the server denies, and a lease answered for another device', async () => {
    const { key } = await licensed();
    expect(await check('validate', { baseUrl, key, product: APPS, fingerprint: device(), jwks })).toMatchObject({
      status: 'denied',
      code: 'NOT_ACTIVATED',
    });
    // A man in the middle replaying a valid answer of another device (and another nonce).
    const fingerprint = device();
    const real = await decide('activate', { key, product: APPS, fingerprint: device() });
    const replay: typeof fetch = async () =>
      new Response(JSON.stringify(real), { status: 200, headers: { 'content-type': 'application/json' } });
    expect(await check('validate', { baseUrl, key, product: APPS, fingerprint, jwks, fetch: replay })).toMatchObject({
      status: 'denied',
      code: 'INVALID_LEASE',
      reason: 'lease for another device',
    });
  });

  it('keeps rotated-out keys published, so leases they signed still verify', async () => {
    const { key, id } = await licensed();
    const fingerprint = device();
    const before = await check('activate', { baseUrl, key, product: APPS, fingerprint, jwks });
    expect(before.status).toBe('valid');
    if (before.status !== 'valid') return;
    const rotated = await running.app.get(SigningKeysService).rotate();
    const published = (await request(server()).get('/.well-known/hitscope-licensing-keys.json').expect(200)).body as LicensingJwks;
    expect(published.keys.map((jwk) => jwk.kid)).toEqual([rotated.current, rotated.retired]);
    expect(await verifyLease(before.lease, published, { product: APPS, fingerprint, licenceId: id })).toMatchObject({ ok: true });
    const after = await check('validate', { baseUrl, key, product: APPS, fingerprint, licenceId: id });
    expect(after.status).toBe('valid');
    if (after.status === 'valid')
      expect(JSON.parse(Buffer.from(after.lease.split('.')[0], 'base64url').toString()).kid).toBe(rotated.current);
  });
});

describe('signing keys in the administration', () => {
  const jwksNow = async () => (await request(server()).get('/.well-known/hitscope-licensing-keys.json').expect(200)).body as LicensingJwks;
  const kidOf = (lease: string) => (JSON.parse(Buffer.from(lease.split('.')[0], 'base64url').toString()) as { kid: string }).kid;

  it('lists and rotates for administrators only: a user gets 403, nobody 401, and nothing rotates', async () => {
    const before = await jwksNow();
    await owner.agent.get('/api/admin/licensing/signing-keys').expect(403);
    await owner.agent.post('/api/admin/licensing/signing-keys/rotate').set('x-csrf-token', owner.token).expect(403);
    await request(server()).get('/api/admin/licensing/signing-keys').expect(401);
    await admin.agent.post('/api/admin/licensing/signing-keys/rotate').expect(403); // no CSRF token
    expect((await jwksNow()).keys[0].kid).toBe(before.keys[0].kid);
    expect(await db.collection('audit_log').countDocuments({ action: 'licensing.signing-key.rotate' })).toBe(0);
  });

  it('lists kids and dates, the current key first, and never any key material', async () => {
    const response = await admin.agent.get('/api/admin/licensing/signing-keys').expect(200);
    expect(response.headers['cache-control']).toBe('private, no-store');
    const list = response.body as AdminSigningKeyList;
    expect(list.keys[0]).toEqual({
      kid: (await jwksNow()).keys[0].kid,
      current: true,
      createdAt: expect.any(String),
      retiredAt: null,
      publishedUntil: null,
      published: true,
    });
    expect(list.keys.filter((key) => key.current)).toHaveLength(1);
    const stored = await db.collection('signing_keys').find().toArray();
    for (const doc of stored) expect(response.text).not.toContain(doc.privateKeyCiphertext as string);
    expect(response.text).not.toMatch(/privateKey|ciphertext|"x"|"d"/i);
  });

  it('rotates: a lease signed before still verifies with the published JWKS for its whole life, new leases carry the new kid; audited', async () => {
    const { key, id } = await licensed();
    const fingerprint = device();
    const before = await check('activate', { baseUrl, key, product: APPS, fingerprint, jwks: await jwksNow() });
    expect(before.status).toBe('valid');
    if (before.status !== 'valid') return;
    const oldKid = kidOf(before.lease);

    const rotatedAt = Date.now();
    const response = await admin.agent.post('/api/admin/licensing/signing-keys/rotate').set('x-csrf-token', admin.token).expect(200);
    const rotated = response.body as RotateSigningKeyResponse;
    expect(rotated.retired).toBe(oldKid);
    expect(rotated.current).not.toBe(oldKid);
    expect(rotated.keys[0]).toMatchObject({ kid: rotated.current, current: true, retiredAt: null });
    const retired = rotated.keys.find((listed) => listed.kid === oldKid)!;
    expect(retired).toMatchObject({ current: false, published: true, retiredAt: expect.any(String) });

    // The JWKS publishes both; the old lease verifies with it, offline, as an app would check it.
    const published = await jwksNow();
    expect(published.keys.map((jwk) => jwk.kid)).toEqual(expect.arrayContaining([rotated.current, oldKid]));
    expect(published.keys[0].kid).toBe(rotated.current);
    expect(await verifyLease(before.lease, published, { product: APPS, fingerprint, licenceId: id })).toMatchObject({ ok: true });
    // ... and is published until after the lease's grace is over, and no longer than that needs.
    expect(Date.parse(retired.publishedUntil!)).toBeGreaterThan(before.payload.grace * 1000);
    const keys = running.app.get(SigningKeysService);
    const kidsAt = async (ms: number) => (await keys.jwks(new Date(ms))).keys.map((jwk) => jwk.kid);
    expect(await kidsAt(before.payload.grace * 1000)).toContain(oldKid);
    expect(await kidsAt(rotatedAt + 41 * DAY)).not.toContain(oldKid);

    // New leases are signed with the new key, and verify with the same JWKS.
    const after = await check('validate', { baseUrl, key, product: APPS, fingerprint, licenceId: id, jwks: published });
    expect(after.status).toBe('valid');
    if (after.status === 'valid') expect(kidOf(after.lease)).toBe(rotated.current);

    const entry = await db.collection('audit_log').findOne({ action: 'licensing.signing-key.rotate' });
    expect(entry).toMatchObject({
      actor: { email: ADMIN },
      target: { type: 'signing_key', id: rotated.current },
      before: { current: oldKid },
      after: { current: rotated.current, retired: oldKid, retiredPublishedUntil: retired.publishedUntil },
    });
    expect(JSON.stringify(entry)).not.toMatch(/privateKey|ciphertext/i);
  });
});

describe('the reference client on the command line', () => {
  it('activates (exit 0, the verified lease printed), then is denied on another product (exit 1)', async () => {
    const { key } = await licensed();
    const fingerprint = device();
    const run = (...args: string[]) =>
      new Promise<{ code: number | null; stdout: string }>((resolve) => {
        execFile(process.execPath, ['scripts/licence-client.mjs', ...args], { timeout: 20_000 }, (error, stdout) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout }),
        );
      });
    const activated = await run(
      'activate',
      '--url',
      baseUrl,
      '--key',
      key,
      '--product',
      APPS,
      '--fingerprint',
      fingerprint,
      '--name',
      'CLI',
    );
    expect(activated.code).toBe(0);
    expect(JSON.parse(activated.stdout)).toMatchObject({ status: 'valid', payload: { fp: fingerprint, prod: APPS } });
    const denied = await run('validate', '--url', baseUrl, '--key', key, '--product', BROWSERS, '--fingerprint', fingerprint);
    expect(denied.code).toBe(1);
    expect(JSON.parse(denied.stdout)).toMatchObject({ status: 'denied', code: 'WRONG_PRODUCT' });
  });
});

describe('the reference client treats not being able to ask as offline, and 4xx as denied', () => {
  let fake: Server;
  let fakeUrl: string;
  let status = 200;
  let body = '{}';
  let jwks: LicensingJwks;
  let cached: { key: string; lease: string; fingerprint: string; id: string };

  beforeAll(async () => {
    fake = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    fakeUrl = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    jwks = (await request(server()).get('/.well-known/hitscope-licensing-keys.json').expect(200)).body as LicensingJwks;
    const { key, id } = await licensed();
    const fingerprint = device();
    const activated = await check('activate', { baseUrl, key, product: APPS, fingerprint, jwks });
    if (activated.status !== 'valid') throw new Error('activation failed');
    cached = { key, lease: activated.lease, fingerprint, id };
  });

  afterAll(() => new Promise<void>((resolve) => fake.close(() => resolve())));

  const ask = (url = fakeUrl) =>
    check('validate', {
      baseUrl: url,
      key: cached.key,
      product: APPS,
      fingerprint: cached.fingerprint,
      licenceId: cached.id,
      cachedLease: cached.lease,
      jwks,
      timeoutMs: 2000,
    });

  it.each([
    [429, '{"statusCode":429}'],
    [503, '{"statusCode":503}'],
    [500, 'Internal Server Error'],
    [408, ''],
    [502, '<html>Bad gateway</html>'],
    [200, '<html>captive portal</html>'],
  ])('HTTP %s → offline, and the cached lease is usable within its grace', async (code, text) => {
    status = code;
    body = text;
    expect(await ask()).toMatchObject({ status: 'offline', usable: true, graceUntil: expect.any(String) });
  });

  it('a network error (nothing listening) → offline', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    expect(await ask(`http://127.0.0.1:${port}`)).toMatchObject({ status: 'offline', usable: true });
  });

  it.each([400, 401, 403, 404, 410, 422])('HTTP %s → denied (fail closed)', async (code) => {
    status = code;
    body = '{"statusCode":400}';
    expect(await ask()).toMatchObject({ status: 'denied' });
  });
});

describe('the dashboard and the administration', () => {
  it("lists the owner's licences with the key and devices; another person sees none of them and cannot deactivate them", async () => {
    const { key, id } = await licensed();
    const fingerprint = device();
    await decide('activate', { key, product: APPS, fingerprint, name: 'Work laptop', platform: 'darwin', appVersion: '2.0.1' });
    const listed = await owner.agent.get('/api/licences');
    if (listed.status !== 200) throw new Error(`GET /api/licences answered ${listed.status}: ${listed.text}`);
    const list = listed.body as OwnedLicenceList;
    const licence = list.licences.find((item) => item.id === id)!;
    expect(licence).toMatchObject({
      key,
      keyHint: key.replace(/-/g, '').slice(-4),
      seats: 3,
      seatsUsed: 1,
      deactivationsLeftThisMonth: 10,
    });
    expect(licence.activations).toEqual([
      expect.objectContaining({ id: fingerprint, name: 'Work laptop', platform: 'darwin', appVersion: '2.0.1', released: false }),
    ]);
    const other = await signUp({ agent: request.agent(server()), database: running.mongodbUri });
    expect(((await other.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences).toEqual([]);
    await other.agent.post(`/api/licences/${id}/activations/${fingerprint}/deactivate`).set('x-csrf-token', other.token).expect(404);
    // The owner can, and the seat is free again.
    const after = await owner.agent
      .post(`/api/licences/${id}/activations/${fingerprint}/deactivate`)
      .set('x-csrf-token', owner.token)
      .expect(200);
    expect(after.body).toMatchObject({ id, seatsUsed: 0, activations: [], deactivationsLeftThisMonth: 9 });
    await owner.agent.post(`/api/licences/${id}/activations/${fingerprint}/deactivate`).set('x-csrf-token', owner.token).expect(404);
    // A cookie write without the CSRF token is refused, as everywhere.
    await owner.agent.post(`/api/licences/${id}/activations/${fingerprint}/deactivate`).expect(403);
  });

  it("an administrator sees each licence's devices (name, platform, app version, last seen) until a reset releases them", async () => {
    const person = await signUp({ agent: request.agent(server()), database: running.mongodbUri });
    const granted = await admin.agent
      .post(`/api/admin/users/${person.user.id}/licences`)
      .set('x-csrf-token', admin.token)
      .send({ planId: 'team-yearly', products: [APPS], seats: 2 })
      .expect(201);
    const licenceId = (granted.body as AdminLicenceList).licences[0].id;
    expect((granted.body as AdminLicenceList).licences[0].activations).toEqual([]);
    const key = ((await person.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences[0].key!;
    const laptop = device();
    const desktop = device();
    await decide('activate', { key, product: APPS, fingerprint: laptop, name: 'Ada’s laptop', platform: 'macOS 15', appVersion: '1.4.0' });
    await decide('activate', { key, product: APPS, fingerprint: desktop, name: 'Build box', platform: 'linux', appVersion: '1.3.2' });
    await decide('validate', { key, product: APPS, fingerprint: laptop });

    const listed = await admin.agent.get(`/api/admin/users/${person.user.id}/licences`).expect(200);
    expect(listed.headers['cache-control']).toBe('private, no-store');
    const licence = (listed.body as AdminLicenceList).licences[0];
    expect(licence).toMatchObject({ id: licenceId, seatsUsed: 2, userId: person.user.id });
    expect(licence).not.toHaveProperty('key');
    expect(licence.activations).toEqual([
      {
        id: laptop,
        name: 'Ada’s laptop',
        platform: 'macOS 15',
        appVersion: '1.4.0',
        activatedAt: expect.any(String),
        lastSeenAt: expect.any(String),
        released: false,
      },
      expect.objectContaining({ id: desktop, name: 'Build box', platform: 'linux', appVersion: '1.3.2', released: false }),
    ]);
    expect(Date.parse(licence.activations[0].lastSeenAt)).toBeGreaterThanOrEqual(Date.parse(licence.activations[0].activatedAt));
    await person.agent.get(`/api/admin/users/${person.user.id}/licences`).expect(403);

    const reset = await admin.agent.post(`/api/admin/licences/${licenceId}/activations/reset`).set('x-csrf-token', admin.token).expect(200);
    expect((reset.body as AdminLicenceList).licences[0]).toMatchObject({ id: licenceId, seatsUsed: 0, activations: [] });
    const entry = await db.collection('audit_log').findOne({ action: 'licence.activations.reset', 'target.id': person.user.id });
    expect(entry).toMatchObject({ before: { licenceId, activations: 2 }, after: { licenceId, activations: 0 } });
  });

  it('an administrator grants, revokes and resets, each audited; users cannot', async () => {
    const granted = await admin.agent
      .post(`/api/admin/users/${owner.user.id}/licences`)
      .set('x-csrf-token', admin.token)
      .send({ planId: 'solo-lifetime', products: [APPS], seats: 1, note: 'Conference prize' })
      .expect(201);
    const licence = (granted.body.licences as Array<{ id: string; source: string; planId: string; expiresAt: string | null }>).find(
      (item) => item.source === 'grant' && item.planId === 'solo-lifetime',
    )!;
    expect(licence.expiresAt).toBeNull();
    const key = ((await owner.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences.find(
      (item) => item.id === licence.id,
    )!.key;
    const fingerprint = device();
    expect((await decide('activate', { key, product: APPS, fingerprint })).code).toBe('VALID');
    expect((await decide('activate', { key, product: APPS, fingerprint: device() })).code).toBe('NO_SEATS_LEFT');

    await admin.agent.post(`/api/admin/licences/${licence.id}/activations/reset`).set('x-csrf-token', admin.token).expect(200);
    expect((await decide('validate', { key, product: APPS, fingerprint })).code).toBe('NOT_ACTIVATED');
    expect((await decide('activate', { key, product: APPS, fingerprint: device() })).code).toBe('VALID');

    await admin.agent.post(`/api/admin/licences/${licence.id}/revoke`).set('x-csrf-token', admin.token).expect(200);
    expect((await decide('activate', { key, product: APPS, fingerprint: device() })).code).toBe('REVOKED');

    const audit = await db.collection('audit_log').find({ 'target.id': owner.user.id }).sort({ at: 1 }).toArray();
    expect(audit.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['licence.grant', 'licence.activations.reset', 'licence.revoke']),
    );
    expect(JSON.stringify(audit)).not.toContain(key!.replace(/-/g, ''));

    await owner.agent
      .post(`/api/admin/users/${owner.user.id}/licences`)
      .set('x-csrf-token', owner.token)
      .send({ planId: 'x', products: [APPS], seats: 1 })
      .expect(403);
  });
});

describe('at rest', () => {
  it('a dump of the licensing collections holds no key, in any spelling', async () => {
    const { key } = await licensed();
    const keys = ((await owner.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences.map((licence) => licence.key);
    expect(keys).toContain(key);
    const dump = JSON.stringify(
      await Promise.all(
        ['licences', 'licence_keys', 'licence_seats', 'licence_activations', 'signing_keys', 'audit_log', 'rate_limit_counters'].map(
          (name) => db.collection(name).find({}).toArray(),
        ),
      ),
    );
    for (const each of keys as string[]) {
      const normalised = each.replace(/-/g, '');
      expect(dump).not.toContain(normalised);
      expect(dump).not.toContain(normalised.slice(3, -1));
      expect(dump).not.toContain(each);
    }
    expect(dump).not.toMatch(/PRIVATE KEY|"d":/);
  });

  it("deleting the account deletes the person's licences and devices; the export lists them without keys", async () => {
    const person = await signUp({ agent: request.agent(server()), database: running.mongodbUri });
    const applied = entitlement({ userId: person.user.id });
    await sink.apply(applied);
    const key = ((await person.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences[0].key;
    await decide('activate', { key, product: APPS, fingerprint: device() });
    const exported = await person.agent.get('/api/profile/export').expect(200);
    expect(exported.body.licences).toHaveLength(1);
    expect(JSON.stringify(exported.body)).not.toContain(key);
    const id = exported.body.licences[0].id as string;
    await person.agent
      .delete('/api/profile')
      .set('x-csrf-token', person.token)
      .send({ currentPassword: PASSWORD, confirm: 'DELETE' })
      .expect((response) => {
        if (response.status >= 300) throw new Error(`delete answered ${response.status}: ${response.text}`);
      });
    expect(await db.collection('licences').countDocuments({ userId: person.user.id })).toBe(0);
    expect(await db.collection('licence_keys').countDocuments({ licenceId: id })).toBe(0);
    expect(await decide('validate', { key, product: APPS, fingerprint: device() })).toMatchObject({ code: 'NOT_FOUND' });
    expect(await db.collection('licence_activations').countDocuments({ licenceId: id })).toBe(0);
    expect(await db.collection('licence_seats').countDocuments({ licenceId: id })).toBe(0);
  });
});

describe('finding a licence by its key', () => {
  it('goes through a reference document per key (two reads by _id); references missing from older data are added after start, keys answering meanwhile', async () => {
    const { key, id } = await licensed();
    const other = await licensed();
    const fingerprint = device();
    expect((await decide('activate', { key, product: APPS, fingerprint })).code).toBe('VALID');
    expect(await db.collection('licence_keys').countDocuments({ licenceId: id })).toBe(1);
    // As stored before references existed: no record of having added them, and no references but
    // one (written by a start that stopped half-way: the migration skips it and goes on).
    await db.collection('licence_keys').deleteMany({ licenceId: { $ne: other.id } });
    expect(await db.collection('licence_keys').countDocuments({})).toBe(1);
    await db.collection(MIGRATIONS_COLLECTION).deleteOne({ _id: 'licence-key-references' as never });
    // Once every licence has its reference, a key without one is unknown.
    expect((await decide('activate', { key, product: APPS, fingerprint })).code).toBe('NOT_FOUND');
    // A start on such a database does not wait for the references: the key is asked for at the same
    // moment (its reference is not there yet: it is found through the licences' own index).
    const licences = running.app.get(LicencesService);
    licences.onModuleInit();
    expect((await decide('activate', { key, product: APPS, fingerprint })).code).toBe('VALID');
    await licences.keyReferencesSettled();
    expect(await db.collection('licence_keys').countDocuments({})).toBe(await db.collection('licences').countDocuments({}));
    expect((await decide('activate', { key, product: APPS, fingerprint })).code).toBe('VALID');
    // Recorded: later starts read the marker by `_id` instead of the licences.
    expect(await db.collection(MIGRATIONS_COLLECTION).countDocuments({ _id: 'licence-key-references' as never })).toBe(1);
  });
});

describe('abuse limits (at their real values)', () => {
  it('answers 429 with Retry-After after 30 calls per key and address in 10 minutes; other keys go on', async () => {
    const { key } = await licensed();
    const { key: otherKey } = await licensed();
    const strict = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        MONGODB_URI: running.mongodbUri,
        LOG_LEVEL: 'error',
        PORT: '0',
        AUTH_SECRET: 'licences-suite-secret-0123456789-abcdefghijklmnop',
        RATE_LIMIT_MULTIPLIER: '1',
        TRUST_PROXY: 'loopback',
      }),
    );
    // A client address of its own, so that the calls of the other tests (from 127.0.0.1) count for nothing here.
    const address = `198.51.100.${1 + (randomBytes(1)[0] % 250)}`;
    try {
      const send = (body: object) =>
        request(strict.app.getHttpServer())
          .post('/api/v1/licenses/validate')
          .set('X-Forwarded-For', address)
          .set('Origin', 'chrome-extension://abcdefghijklmnop')
          .send(body);
      const fingerprint = device();
      const statuses: number[] = [];
      for (let i = 0; i < 31; i += 1) statuses.push((await send({ key, product: APPS, fingerprint })).status);
      expect(statuses.slice(0, 30).every((status) => status === 200)).toBe(true);
      const limited = await send({ key, product: APPS, fingerprint });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.headers['access-control-expose-headers']).toBe('Retry-After');
      expect((await send({ key: otherKey, product: APPS, fingerprint })).status).toBe(200);
      // A key with a typo costs no key budget (it is refused before the lookup).
      expect((await send({ key: `${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`, product: APPS, fingerprint })).body.code).toBe(
        'NOT_FOUND',
      );
    } finally {
      await strict.close();
    }
  });
});

describe('after AUTH_SECRET changes', () => {
  it('leases are signed with a new key (the old one stays published), and the dashboard shows keys it cannot decrypt as null', async () => {
    const { key } = await licensed();
    const fingerprint = device();
    await decide('activate', { key, product: APPS, fingerprint });
    const before = ((await request(server()).get('/.well-known/hitscope-licensing-keys.json').expect(200)).body as LicensingJwks).keys[0]
      .kid;
    const other = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        MONGODB_URI: running.mongodbUri,
        LOG_LEVEL: 'error',
        PORT: '0',
        AUTH_SECRET: 'another-secret-entirely-0123456789-abcdefghijklmnop',
        RATE_LIMIT_MULTIPLIER: '1000',
        // As for this suite's own app: a sign-up (argon2id) beside other suites can pass 5 s on 2 cores.
        REQUEST_TIMEOUT_MS: '30000',
      }),
    );
    try {
      // The key's lookup hash changed with the secret: the key is unknown to this server.
      const lost = await request(other.app.getHttpServer())
        .post('/api/v1/licenses/validate')
        .send({ key, product: APPS, fingerprint })
        .expect(200);
      expect(lost.body.code).toBe('NOT_FOUND');
      // A licence made now is served, signed with a key this secret can decrypt.
      const person = await signUp({ agent: request.agent(other.app.getHttpServer()), database: running.mongodbUri });
      await other.app.get<EntitlementSink>(ENTITLEMENT_SINK).apply(entitlement({ userId: person.user.id }));
      const fresh = ((await person.agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences[0].key!;
      const answer = await request(other.app.getHttpServer())
        .post('/api/v1/licenses/activate')
        .send({ key: fresh, product: APPS, fingerprint })
        .expect(200);
      expect(answer.body.code).toBe('VALID');
      const jwks = (await request(other.app.getHttpServer()).get('/.well-known/hitscope-licensing-keys.json').expect(200))
        .body as LicensingJwks;
      expect(jwks.keys.map((jwk) => jwk.kid)).toContain(before);
      expect(jwks.keys[0].kid).not.toBe(before);
      expect(await verifyLease(answer.body.lease, jwks, { product: APPS, fingerprint })).toMatchObject({ ok: true });
      // The owner of an old licence signed in on this server sees it, without its key.
      const agent = request.agent(other.app.getHttpServer());
      // The token first: the agent attaches its cookies when a request is created.
      const token = (await agent.get('/api/auth/csrf').expect(200)).body.token as string;
      const login = await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email: owner.email, password: PASSWORD });
      expect(login.status).toBe(200);
      const listed = ((await agent.get('/api/licences').expect(200)).body as OwnedLicenceList).licences;
      expect(listed.length).toBeGreaterThan(0);
      expect(listed.every((licence) => licence.key === null)).toBe(true);
    } finally {
      await other.close();
    }
  });
});

describe("the companions' licence client (lib/licensing) against this site", () => {
  const closedSite = async () => {
    // A port that was just free: nothing answers there, as when the site is down.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    return `http://127.0.0.1:${port}`;
  };

  interface Companion {
    siteUrl?: string;
    store?: ReturnType<typeof memoryStore>;
    fingerprint?: string;
    now?: () => number;
  }

  async function companion({ siteUrl = baseUrl, store = memoryStore(), fingerprint, now }: Companion = {}) {
    const client = new LicenceClient({
      siteUrl,
      product: BROWSERS,
      fingerprint: fingerprint ?? (await fingerprintOf(newDeviceId())),
      device: { name: 'Chromium on CI', platform: 'chrome', appVersion: '1.0.0' },
      store,
      timeoutMs: 5_000,
      now,
    });
    return { client, store };
  }

  it('activates a key as typed, learns the site keys, validates, and holds the lease while the site is down', async () => {
    const { key, id } = await licensed({ products: [BROWSERS] }, BROWSERS);
    const fingerprint = await fingerprintOf(newDeviceId());
    const { client, store } = await companion({ fingerprint });
    const activated = await client.activate(key.toLowerCase().replaceAll('-', ' '));
    expect(activated).toMatchObject({ tier: 'paid', mode: 'online', key, licenceId: id, seats: 3, offlineReason: null });
    expect(store.value?.keys?.keys.length).toBeGreaterThan(0);
    expect(await client.validate()).toMatchObject({ tier: 'paid', mode: 'online' });

    // The same stored lease with the site unreachable: still paid, and in grace once past `exp`.
    const down = await closedSite();
    const kept = { ...store.value!, siteUrl: down };
    const offline = await companion({ siteUrl: down, store: memoryStore(kept), fingerprint });
    expect(await offline.client.validate()).toMatchObject({ tier: 'paid', mode: 'online', offlineReason: expect.any(String) });
    const { exp, grace } = JSON.parse(Buffer.from(kept.lease!.split('.')[1], 'base64url').toString()) as { exp: number; grace: number };
    const later = await companion({ siteUrl: down, store: memoryStore(kept), fingerprint, now: () => exp * 1000 + 1000 });
    expect(await later.client.validate()).toMatchObject({ tier: 'paid', mode: 'grace' });
    const tooLate = await companion({ siteUrl: down, store: memoryStore(kept), fingerprint, now: () => grace * 1000 + 1000 });
    expect(await tooLate.client.validate()).toMatchObject({ tier: 'free', reason: 'expired', key });
  });

  it('a revoked licence turns the companion back to the free tier at the next check, saying why', async () => {
    const { key, id } = await licensed({ products: [BROWSERS] }, BROWSERS);
    const { client, store } = await companion();
    expect(await client.activate(key)).toMatchObject({ tier: 'paid' });
    await admin.agent.post(`/api/admin/licences/${id}/revoke`).set('x-csrf-token', admin.token).expect(200);
    expect(await client.validate()).toMatchObject({ tier: 'free', reason: 'denied', code: 'REVOKED', key });
    expect(store.value).toMatchObject({ key, lease: null, denied: { code: 'REVOKED' } });
  });

  it('the seat limit holds for companions, and deactivating gives the seat back', async () => {
    const { key } = await licensed({ products: [BROWSERS], seats: 2 }, BROWSERS);
    const [first, second, third] = await Promise.all([companion(), companion(), companion()]);
    expect(await first.client.activate(key)).toMatchObject({ tier: 'paid' });
    expect(await second.client.activate(key)).toMatchObject({ tier: 'paid' });
    expect(await third.client.activate(key)).toMatchObject({ tier: 'free', reason: 'denied', code: 'NO_SEATS_LEFT' });
    expect(await first.client.deactivate()).toEqual({ state: { tier: 'free', reason: 'none' }, error: null });
    expect(first.store.value).toBeNull();
    expect(await third.client.activate(key)).toMatchObject({ tier: 'paid' });
  });
});
