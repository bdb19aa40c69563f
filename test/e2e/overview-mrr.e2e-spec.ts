/**
 * MRR end to end: the real app (in-process) on the real database. Subscriptions are seeded into the
 * mirror exactly as the webhook reducer stores them (plus the `discount` a mirror row may carry),
 * priced by catalogue plans; the expected figures are computed by hand in the comments.
 */
import { Global, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import type { MrrOverviewResponse } from '../../lib/api/overview.js';
import { netMovement } from '../../lib/mrr/mrr-rules.js';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { dayOf, MRR_SNAPSHOT_POLL_MS, MrrSnapshotService } from '../../src/overview/mrr-snapshot.service.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { type Agent, csrfToken, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'mrr-admin@example.test';
const DAY_MS = 86_400_000;

/** No hourly check: the tests take each day's snapshot themselves. */
@Global()
@Module({ providers: [{ provide: MRR_SNAPSHOT_POLL_MS, useValue: 0 }], exports: [MRR_SNAPSHOT_POLL_MS] })
class TestBindingsModule {}

let app: NestExpressApplication;
let mongo: MongoClient;
let db: Db;
let mrr: MrrSnapshotService;
let admin: { agent: Agent; token: string };
let user: { agent: Agent; token: string };
const http = () => request(app.getHttpServer());

const now = Date.now();
// Noon UTC of the day `days` before today: a run "a minute later" stays on the same day whenever the suite runs.
const daysAgo = (days: number) => new Date((Math.floor(now / DAY_MS) - days) * DAY_MS + DAY_MS / 2);

interface Seed {
  planId: string;
  quantity?: number;
  status?: string;
  customerId?: string;
  cancelAtPeriodEnd?: boolean;
  currentPeriodEnd?: Date;
  discount?: Record<string, unknown>;
}

/** A mirror row as src/billing/stripe-events.service.ts writes it. */
async function putSubscription(id: string, seed: Seed): Promise<void> {
  await db.collection<{ _id: string }>('subscriptions').replaceOne(
    { _id: id },
    {
      userId: null,
      customerId: seed.customerId ?? `cus_${id}`,
      planId: seed.planId,
      priceId: null,
      quantity: seed.quantity ?? 1,
      status: seed.status ?? 'active',
      cancelAtPeriodEnd: seed.cancelAtPeriodEnd ?? false,
      cancelAt: null,
      currentPeriodEnd: seed.currentPeriodEnd ?? new Date(now + 20 * DAY_MS),
      trialEnd: null,
      latestInvoiceId: null,
      stripeEventAt: Math.floor(now / 1000),
      updatedAt: new Date(),
      ...(seed.discount ? { discount: seed.discount } : {}),
    },
    { upsert: true },
  );
}

const dump = async (name: string) => db.collection(name).find({}).sort({ _id: 1 }).toArray();

beforeAll(async () => {
  const mongodbUri = testDatabaseUri('mrr');
  const config = loadConfig({ NODE_ENV: 'test', MONGODB_URI: mongodbUri, LOG_LEVEL: 'error', PORT: '0', ADMIN_EMAILS: ADMIN });
  const renderer = await createProductionRenderer();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, mongodbUri, renderer }), TestBindingsModule],
  }).compile();
  app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
  installRequestHandling(app, config);
  await app.init();
  mrr = app.get(MrrSnapshotService);
  mongo = await MongoClient.connect(mongodbUri);
  db = mongo.db();
  [admin, user] = await Promise.all([
    signUp({ agent: request.agent(app.getHttpServer()), email: ADMIN, database: mongodbUri }),
    signUp({ agent: request.agent(app.getHttpServer()), database: mongodbUri }),
  ]);
  // Two dollar plans beside the default euro ones (solo-monthly €9, solo-yearly €90, team-monthly
  // €29, team-yearly €290, agency-monthly €79, solo-lifetime €199).
  for (const plan of [
    { id: 'pro-usd-monthly', amountMinor: 1900, interval: 'month' },
    { id: 'pro-usd-yearly', amountMinor: 19000, interval: 'year' },
  ]) {
    await admin.agent
      .post('/api/admin/catalogue/plans')
      .set('x-csrf-token', admin.token)
      .send({ ...plan, name: 'Pro', products: ['hitscope-for-apps'], currency: 'usd', seats: 1 })
      .expect(201);
  }

  await putSubscription('sub_monthly', { planId: 'solo-monthly' }); // €9.00
  await putSubscription('sub_yearly', { planId: 'team-yearly' }); // €290 / 12 = 24.1666… → €24.17
  await putSubscription('sub_seats', { planId: 'solo-monthly', quantity: 3 }); // 3 × €9 = €27.00
  await putSubscription('sub_discount', { planId: 'team-monthly', discount: { percentOff: 20, duration: 'forever' } }); // €23.20
  await putSubscription('sub_trial', { planId: 'team-monthly', status: 'trialing' }); // not counted
  await putSubscription('sub_pastdue', { planId: 'agency-monthly', status: 'past_due' }); // €79.00
  await putSubscription('sub_cancelling', { planId: 'solo-yearly', cancelAtPeriodEnd: true }); // €90 / 12 = €7.50 until it ends
  await putSubscription('sub_ended', { planId: 'solo-yearly', cancelAtPeriodEnd: true, currentPeriodEnd: daysAgo(60) }); // ended
  await putSubscription('sub_canceled', { planId: 'team-monthly', status: 'canceled' }); // not counted
  await putSubscription('sub_usd_monthly', { planId: 'pro-usd-monthly', quantity: 2 }); // 2 × $19 = $38.00
  await putSubscription('sub_usd_yearly', { planId: 'pro-usd-yearly' }); // $190 / 12 = 15.8333… → $15.83
}, 60_000);

afterAll(async () => {
  await mongo?.close();
  await app?.close();
});

// €9.00 + €24.17 + €27.00 + €23.20 + €79.00 + €7.50 = €169.87; $38.00 + $15.83 = $53.83
const EUR_MRR = 16_987;
const USD_MRR = 5_383;

describe('MRR: the admin overview from the subscription mirror, daily snapshots and movements', () => {
  it('gives the hand-computed MRR to the cent, per currency, before any snapshot', async () => {
    const body = (await admin.agent.get('/api/admin/overview/mrr').expect(200)).body as MrrOverviewResponse;
    expect(body.currencies).toEqual([
      { currency: 'eur', mrrMinor: EUR_MRR, subscriptions: 6, change30dMinor: null, movements: null },
      { currency: 'usd', mrrMinor: USD_MRR, subscriptions: 2, change30dMinor: null, movements: null },
    ]);
    expect(body.counts).toEqual({ counted: 8, pastDue: 1, trialing: 1 });
    expect(body.unpricedSubscriptions).toBe(0);
    expect(body.baselineDay).toBeNull();
    expect(Date.parse(body.asOf)).toBeGreaterThan(now - 60_000);
  });

  it('stores the day once with the same figures, and re-running the daily job changes nothing', async () => {
    const at = daysAgo(40);
    expect(await mrr.runDaily(at)).toEqual({ day: dayOf(at), created: true });
    const snapshot = await db.collection('mrr_snapshots').findOne({ _id: `mrr:${dayOf(at)}` as never });
    expect(snapshot).toMatchObject({
      day: dayOf(at),
      previousDay: null,
      movements: null,
      totals: [
        { currency: 'eur', mrrMinor: EUR_MRR, subscriptions: 6 },
        { currency: 'usd', mrrMinor: USD_MRR, subscriptions: 2 },
      ],
    });
    expect((snapshot!.subscriptions as { id: string; mrrMinor: number }[]).map(({ id, mrrMinor }) => [id, mrrMinor])).toEqual([
      ['sub_cancelling', 750],
      ['sub_discount', 2320],
      ['sub_monthly', 900],
      ['sub_pastdue', 7900],
      ['sub_seats', 2700],
      ['sub_usd_monthly', 3800],
      ['sub_usd_yearly', 1583],
      ['sub_yearly', 2417],
    ]);

    const before = [await dump('mrr_snapshots'), await dump('mrr_customers')];
    // Again later that day, and twice at once (two instances): nothing is written.
    const later = new Date(at.getTime() + 60_000);
    expect(await mrr.runDaily(later)).toEqual({ day: dayOf(at), created: false });
    const concurrent = await Promise.all([mrr.runDaily(later), mrr.runDaily(later)]);
    expect(concurrent.map((run) => run.created)).toEqual([false, false]);
    expect([await dump('mrr_snapshots'), await dump('mrr_customers')]).toEqual(before);
    // Computed afresh from the same mirror, the day's document comes out identical.
    await db.collection('mrr_snapshots').deleteOne({ _id: `mrr:${dayOf(at)}` as never });
    expect(await mrr.runDaily(at)).toEqual({ day: dayOf(at), created: true });
    expect([await dump('mrr_snapshots'), await dump('mrr_customers')]).toEqual(before);
  });

  it('classifies new, expansion, contraction, churn and reactivation between days, per currency', async () => {
    // Day −3: a customer joins; day −2: they leave; day −1: they are back, while others change.
    await putSubscription('sub_back', { planId: 'solo-monthly', customerId: 'cus_back' });
    await mrr.runDaily(daysAgo(3));
    // As if that run had stopped between its snapshot and its first-day record: the next run repairs it.
    expect(await db.collection<{ _id: string }>('mrr_customers').deleteOne({ _id: 'cus_back' })).toMatchObject({ deletedCount: 1 });
    await putSubscription('sub_back', { planId: 'solo-monthly', customerId: 'cus_back', status: 'canceled' });
    await mrr.runDaily(daysAgo(2));

    await putSubscription('sub_back_again', { planId: 'solo-monthly', customerId: 'cus_back' }); // reactivation €9.00
    await putSubscription('sub_trial', { planId: 'team-monthly' }); // trial converted: new €29.00
    await putSubscription('sub_monthly', { planId: 'team-monthly' }); // €9 → €29: expansion €20.00
    await putSubscription('sub_seats', { planId: 'solo-monthly', quantity: 2 }); // €27 → €18: contraction €9.00
    await putSubscription('sub_cancelling', { planId: 'solo-yearly', status: 'canceled' }); // churn €7.50
    await putSubscription('sub_usd_monthly', { planId: 'pro-usd-monthly', quantity: 3 }); // $38 → $57: expansion $19.00
    await mrr.runDaily(daysAgo(1));
    expect(await db.collection('mrr_customers').findOne({ _id: 'cus_back' as never })).toEqual({
      _id: 'cus_back',
      firstDay: dayOf(daysAgo(3)),
    });

    const snapshots = await db.collection('mrr_snapshots').find({}).sort({ _id: 1 }).toArray();
    expect(snapshots.map((snapshot) => [snapshot.day, snapshot.previousDay])).toEqual([
      [dayOf(daysAgo(40)), null],
      [dayOf(daysAgo(3)), dayOf(daysAgo(40))],
      [dayOf(daysAgo(2)), dayOf(daysAgo(3))],
      [dayOf(daysAgo(1)), dayOf(daysAgo(2))],
    ]);
    const none = { new: 0, expansion: 0, contraction: 0, churn: 0, reactivation: 0 };
    expect(snapshots[1].movements).toEqual([{ currency: 'eur', ...none, new: 900 }]);
    expect(snapshots[2].movements).toEqual([{ currency: 'eur', ...none, churn: 900 }]);
    expect(snapshots[3].movements).toEqual([
      { currency: 'eur', new: 2900, expansion: 2000, contraction: 900, churn: 750, reactivation: 900 },
      { currency: 'usd', ...none, expansion: 1900 },
    ]);

    // Now: the same mirror as day −1. The baseline is day −40 (the newest at least 30 days old), and
    // the movements since add up to the change: €169.87 → €211.37 (+€41.50), $53.83 → $72.83 (+$19.00).
    const body = (await admin.agent.get('/api/admin/overview/mrr').expect(200)).body as MrrOverviewResponse;
    expect(body.baselineDay).toBe(dayOf(daysAgo(40)));
    expect(body.latestSnapshotDay).toBe(dayOf(daysAgo(1)));
    expect(body.currencies).toEqual([
      {
        currency: 'eur',
        mrrMinor: 21_137,
        subscriptions: 7,
        change30dMinor: 4150,
        movements: { new: 3800, expansion: 2000, contraction: 900, churn: 1650, reactivation: 900 },
      },
      { currency: 'usd', mrrMinor: 7283, subscriptions: 2, change30dMinor: 1900, movements: { ...none, expansion: 1900 } },
    ]);
    for (const currency of body.currencies) expect(netMovement(currency.movements!)).toBe(currency.change30dMinor);
  });

  it('takes today’s snapshot on demand, once', async () => {
    const first = await admin.agent.post('/api/admin/overview/mrr/snapshot').set('x-csrf-token', admin.token).expect(200);
    expect(first.body).toEqual({ day: dayOf(new Date()), created: true });
    const again = await admin.agent.post('/api/admin/overview/mrr/snapshot').set('x-csrf-token', admin.token).expect(200);
    expect(again.body).toEqual({ day: dayOf(new Date()), created: false });
    const today = await db.collection('mrr_snapshots').findOne({ _id: `mrr:${dayOf(new Date())}` as never });
    expect(today!.totals).toEqual([
      { currency: 'eur', mrrMinor: 21_137, subscriptions: 7 },
      { currency: 'usd', mrrMinor: 7283, subscriptions: 2 },
    ]);
  });

  it('answers 401 to anonymous callers and 403 to signed-in non-admins', async () => {
    const anonymous = request.agent(app.getHttpServer());
    const token = await csrfToken(anonymous);
    await anonymous.get('/api/admin/overview/mrr').expect(401);
    await anonymous.post('/api/admin/overview/mrr/snapshot').set('x-csrf-token', token).expect(401);
    await user.agent.get('/api/admin/overview/mrr').expect(403);
    await user.agent.post('/api/admin/overview/mrr/snapshot').set('x-csrf-token', user.token).expect(403);
    expect(
      await http()
        .get('/api/admin/overview/mrr')
        .then((response) => response.body),
    ).toMatchObject({ statusCode: 401 });
  });
});
