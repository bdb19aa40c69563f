/**
 * The admin overview end to end: the real app (in-process) on the real database. Users, orders,
 * subscriptions, activations and webhook events are seeded with known dates (most straight into
 * their collections, as their modules store them; one order through the admin's manual-order API),
 * and every figure is computed by hand in the comments.
 */
import { Global, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { type Db, MongoClient, ObjectId } from 'mongodb';
import request from 'supertest';
import type { LicenceApiResponse, OwnedLicenceList } from '../../lib/api/licences.js';
import type { AdminOverviewResponse } from '../../lib/api/overview.js';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { activationEventId } from '../../src/licences/schemas/licence-activation-event.schema.js';
import { OVERVIEW_CACHE_MS } from '../../src/overview/admin-overview.service.js';
import { MRR_SNAPSHOT_POLL_MS, MrrSnapshotService } from '../../src/overview/mrr-snapshot.service.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { type Agent, csrfToken, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'overview-admin@example.test';
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A seeded document: string ids, as the modules store them. */
type Doc = { _id: string; [field: string]: unknown };

/** Fresh figures on every request (the 30 s cache has its own unit test), and no hourly MRR check. */
@Global()
@Module({
  providers: [
    { provide: OVERVIEW_CACHE_MS, useValue: 0 },
    { provide: MRR_SNAPSHOT_POLL_MS, useValue: 0 },
  ],
  exports: [OVERVIEW_CACHE_MS, MRR_SNAPSHOT_POLL_MS],
})
class TestBindingsModule {}

let app: NestExpressApplication;
let mongo: MongoClient;
let db: Db;
let admin: { agent: Agent; token: string; user: { id: string } };
let user: { agent: Agent; token: string; user: { id: string } };

const now = Date.now();
const ago = (ms: number) => new Date(now - ms);
/** Midnight UTC today: "today" figures count from here. */
const todayStart = new Date(Math.floor(now / DAY_MS) * DAY_MS);
const dayOf = (at: Date) => at.toISOString().slice(0, 10);

async function putUser(email: string, createdAt: Date): Promise<void> {
  await db.collection('users').insertOne({
    _id: new ObjectId(),
    name: email,
    email,
    passwordHash: 'x',
    passwordSet: true,
    role: 'user',
    status: 'active',
    emailVerifiedAt: createdAt,
    registrationNonce: null,
    createdAt,
    updatedAt: createdAt,
  });
}

async function putSubscription(id: string, planId: string, status: string): Promise<void> {
  await db.collection<Doc>('subscriptions').insertOne({
    _id: id,
    userId: null,
    customerId: `cus_${id}`,
    planId,
    priceId: null,
    quantity: 1,
    status,
    cancelAtPeriodEnd: false,
    cancelAt: null,
    currentPeriodEnd: new Date(now + 20 * DAY_MS),
    trialEnd: null,
    latestInvoiceId: null,
    stripeEventAt: Math.floor(now / 1000),
    updatedAt: new Date(now),
  });
}

interface OrderSeed {
  amountMinor: number;
  currency: 'eur' | 'usd';
  status: string;
  paidAt: Date | null;
  refundedMinor?: number;
  refundedInFull?: boolean;
}

let orderCount = 0;
async function putOrder(seed: OrderSeed): Promise<void> {
  orderCount += 1;
  await db.collection<Doc>('orders').insertOne({
    _id: `ord_seed${String(orderCount).padStart(22, 'a')}`,
    userId: null,
    planId: 'team-monthly',
    products: ['hitscope-for-apps'],
    quantity: 1,
    amountMinor: seed.amountMinor,
    currency: seed.currency,
    status: seed.status,
    kind: 'checkout',
    refundedMinor: seed.refundedMinor ?? 0,
    refundedInFull: seed.refundedInFull ?? false,
    dispute: null,
    stripe: {},
    receiptNumber: null,
    note: null,
    createdAt: seed.paidAt ?? new Date(now),
    paidAt: seed.paidAt,
    failedAt: null,
    expiredAt: null,
    updatedAt: new Date(now),
  });
}

/** A device's activation and its event, as SeatsService writes them when a device takes a seat. */
async function putActivation(id: string, activatedAt: Date): Promise<void> {
  await db.collection<Doc>('licence_activation_events').insertOne({ _id: activationEventId(`lic_seed:${id}`, id), at: activatedAt });
  await db.collection<Doc>('licence_activations').insertOne({
    _id: `lic_seed:${id}`,
    licenceId: 'lic_seed',
    fingerprint: id,
    status: 'active',
    seat: 0,
    claim: id,
    name: id,
    platform: 'linux',
    appVersion: '1.0.0',
    activatedAt,
    lastSeenAt: activatedAt,
    releasedAt: null,
  });
}

async function putEvent(id: string, status: string, receivedAt: Date): Promise<void> {
  await db.collection<Doc>('stripe_events').insertOne({
    _id: id,
    type: 'invoice.paid',
    created: Math.floor(receivedAt.getTime() / 1000),
    apiVersion: null,
    payload: '{}',
    status,
    attempts: status === 'dead' ? 6 : 1,
    nextAttemptAt: null,
    leaseUntil: null,
    outcome: null,
    receivedAt,
    processedAt: null,
  });
}

const overview = async () => (await admin.agent.get('/api/admin/overview').expect(200)).body as AdminOverviewResponse;

beforeAll(async () => {
  const mongodbUri = testDatabaseUri('overview');
  const config = loadConfig({ NODE_ENV: 'test', MONGODB_URI: mongodbUri, LOG_LEVEL: 'error', PORT: '0', ADMIN_EMAILS: ADMIN });
  const renderer = await createProductionRenderer();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, mongodbUri, renderer }), TestBindingsModule],
  }).compile();
  app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
  installRequestHandling(app, config);
  await app.init();
  mongo = await MongoClient.connect(mongodbUri);
  db = mongo.db();
  [admin, user] = await Promise.all([
    signUp({ agent: request.agent(app.getHttpServer()), email: ADMIN, database: mongodbUri }),
    signUp({ agent: request.agent(app.getHttpServer()), database: mongodbUri }),
  ]);

  // Users: the two above today; one 3 days ago, one 10 days ago, one 20 days ago (outside the 14 days).
  await putUser('three-days@example.test', ago(3 * DAY_MS));
  await putUser('ten-days@example.test', ago(10 * DAY_MS));
  await putUser('twenty-days@example.test', ago(20 * DAY_MS));

  // Subscriptions (catalogue defaults: solo-monthly €9, team-yearly €290, agency-monthly €79, team-monthly €29).
  await putSubscription('sub_a', 'solo-monthly', 'active'); // €9.00
  await putSubscription('sub_b', 'team-yearly', 'active'); // €290 / 12 → €24.17
  await putSubscription('sub_trial', 'team-monthly', 'trialing'); // not MRR
  await putSubscription('sub_late', 'agency-monthly', 'past_due'); // €79.00
  await putSubscription('sub_gone', 'team-monthly', 'canceled'); // nothing

  // Orders in the last 30 days, and some that do not count.
  await putOrder({ amountMinor: 2900, currency: 'eur', status: 'paid', paidAt: ago(2 * DAY_MS) });
  await putOrder({ amountMinor: 9000, currency: 'eur', status: 'partially_refunded', paidAt: ago(10 * DAY_MS), refundedMinor: 1500 });
  // Stripe says "refunded in full": the whole amount comes off, whatever refundedMinor says.
  await putOrder({
    amountMinor: 1900,
    currency: 'eur',
    status: 'refunded',
    paidAt: ago(5 * DAY_MS),
    refundedMinor: 1000,
    refundedInFull: true,
  });
  await putOrder({ amountMinor: 4900, currency: 'usd', status: 'paid', paidAt: ago(DAY_MS) });
  await putOrder({ amountMinor: 5000, currency: 'eur', status: 'paid', paidAt: ago(40 * DAY_MS) }); // too old
  await putOrder({ amountMinor: 7000, currency: 'eur', status: 'pending', paidAt: null }); // never paid
  // A manual order (solo-lifetime, €199) recorded by the admin: paid now.
  await admin.agent
    .post('/api/admin/billing/orders')
    .set('x-csrf-token', admin.token)
    .send({ userId: user.user.id, planId: 'solo-lifetime' })
    .expect(201);

  // Activations: two today, one before today.
  await putActivation('device-1', new Date(now));
  await putActivation('device-2', new Date(Math.max(todayStart.getTime(), now - HOUR_MS)));
  await putActivation('device-old', new Date(todayStart.getTime() - HOUR_MS));

  // Webhook inbox: the newest arrived 10 minutes ago.
  await putEvent('evt_done', 'done', ago(3 * HOUR_MS));
  await putEvent('evt_failed', 'failed', ago(2 * HOUR_MS));
  await putEvent('evt_dead', 'dead', ago(HOUR_MS));
  await putEvent('evt_ignored', 'ignored', ago(50 * 60_000));
  await putEvent('evt_processing', 'processing', ago(20 * 60_000));
  await putEvent('evt_pending', 'pending', ago(10 * 60_000));
}, 60_000);

afterAll(async () => {
  await mongo?.close();
  await app?.close();
});

describe('GET /api/admin/overview: the key figures of /admin from our own data', () => {
  it('counts users, today’s and the last 7 days’ sign-ups, with a 14-day daily series', async () => {
    const { users } = await overview();
    expect(users).toMatchObject({ total: 5, newToday: 2, new7d: 3 });
    expect(users!.signups).toHaveLength(14);
    expect(users!.signups[13]).toEqual({ day: dayOf(new Date(now)), count: 2 });
    expect(users!.signups.filter((day) => day.count > 0)).toEqual([
      { day: dayOf(ago(10 * DAY_MS)), count: 1 },
      { day: dayOf(ago(3 * DAY_MS)), count: 1 },
      { day: dayOf(new Date(now)), count: 2 },
    ]);
  });

  it('counts subscriptions by status and gives the same MRR as the MRR endpoint', async () => {
    const body = await overview();
    expect(body.subscriptions).toEqual({ active: 2, trialing: 1, pastDue: 1 });
    // €9.00 + €24.17 + €79.00 = €112.17 (past_due counts, trialing does not).
    expect(body.mrr!.currencies).toEqual([{ currency: 'eur', mrrMinor: 11_217, subscriptions: 3, change30dMinor: null, movements: null }]);
    const { asOf: _asOf, ...mrr } = body.mrr!;
    const { asOf: _alsoAsOf, ...direct } = await app.get(MrrSnapshotService).overview();
    expect(mrr).toEqual(direct);
  });

  it('sums 30 days of paid orders per currency in minor units, refunds subtracted', async () => {
    const { revenue30d } = await overview();
    expect(Date.parse(revenue30d!.since)).toBeCloseTo(now - 30 * DAY_MS, -5);
    expect(revenue30d!.currencies).toEqual([
      // €29 + €90 + €19 + €199 (manual) = €337; refunded €15 + €19 (in full) = €34; net €303.
      { currency: 'eur', orders: 4, grossMinor: 33_700, refundedMinor: 3400, netMinor: 30_300 },
      { currency: 'usd', orders: 1, grossMinor: 4900, refundedMinor: 0, netMinor: 4900 },
    ]);
  });

  it('counts today’s licence activations and reports the webhook inbox’s health', async () => {
    const body = await overview();
    expect(body.licences).toEqual({ activationsToday: 2 });
    expect(body.webhooks).toEqual({
      configured: false,
      lastReceivedAt: ago(10 * 60_000).toISOString(),
      failed: 1,
      dead: 1,
      unprocessed: 2,
    });
  });

  it('counts activation events: a device deactivated since still counts, a repeated activation counts once, a new one again', async () => {
    const activationsToday = async () => (await overview()).licences!.activationsToday;
    const before = await activationsToday();
    await admin.agent
      .post(`/api/admin/users/${user.user.id}/licences`)
      .set('x-csrf-token', admin.token)
      .send({ planId: 'team', products: ['hitscope-for-apps'], seats: 2, note: 'overview: activation events' })
      .expect(201);
    const { licences } = (await user.agent.get('/api/licences').expect(200)).body as OwnedLicenceList;
    const licence = licences.find((item) => item.source === 'grant' && item.planId === 'team')!;
    const activate = async (fingerprint: string) => {
      const response = await request(app.getHttpServer())
        .post('/api/v1/licenses/activate')
        .send({ key: licence.key, product: 'hitscope-for-apps', fingerprint, name: fingerprint, platform: 'linux', appVersion: '1.0.0' })
        .expect(200);
      expect((response.body as LicenceApiResponse).code).toBe('VALID');
    };
    const [laptop, desktop] = ['a'.repeat(64), 'b'.repeat(64)];

    await activate(laptop);
    await activate(desktop);
    expect(await activationsToday()).toBe(before + 2);
    // The owner deactivates the laptop (its activation is deleted): it was activated today all the same.
    await user.agent.post(`/api/licences/${licence.id}/activations/${laptop}/deactivate`).set('x-csrf-token', user.token).expect(200);
    expect(await db.collection('licence_activations').countDocuments({ licenceId: licence.id })).toBe(1);
    expect(await activationsToday()).toBe(before + 2);
    // The desktop activating again (an app retrying, or reinstalled) keeps its seat: not a new activation.
    await activate(desktop);
    expect(await activationsToday()).toBe(before + 2);
    // The laptop activating again takes a seat again: a new activation.
    await activate(laptop);
    expect(await activationsToday()).toBe(before + 3);
  });

  it('counts confirmed and pending newsletter subscribers, and leaves out page views (no data source yet)', async () => {
    const subscribers = db.collection<Doc>('newsletter_subscribers');
    const before = (await overview()).newsletter!;
    const seeded = ['confirmed', 'confirmed', 'pending', 'unsubscribed'].map((state, i) => ({
      _id: `overview-${i}-${Date.now()}@example.test`,
      state,
      createdAt: new Date(),
      updatedAt: new Date(),
    }));
    await subscribers.insertMany(seeded);
    try {
      const body = await overview();
      expect(body.newsletter).toEqual({ confirmed: before.confirmed + 2, pending: before.pending + 1 });
      // From first-party analytics (its own suite checks the figure): a number, never absent.
      expect(body.pageViewsToday).toEqual(expect.any(Number));
    } finally {
      await subscribers.deleteMany({ _id: { $in: seeded.map((doc) => doc._id) } });
    }
  });

  it('renders /admin with the figures prefetched on the server', async () => {
    const page = await admin.agent.get('/admin').expect(200);
    expect(page.text).toContain('data-overview-card="users"');
    expect(page.text).not.toContain('data-overview-state="loading"');
  });

  it('answers 401 to anonymous callers and 403 to signed-in non-admins', async () => {
    const anonymous = request.agent(app.getHttpServer());
    await csrfToken(anonymous);
    expect((await anonymous.get('/api/admin/overview').expect(401)).body).toMatchObject({ statusCode: 401 });
    expect((await user.agent.get('/api/admin/overview').expect(403)).body).toMatchObject({ statusCode: 403 });
  });
});
