/**
 * Billing end to end: the real app (in-process), the real database (through a TCP proxy, so it can
 * be cut), and Stripe's own mock (stripe-mock, started by global setup) behind a recording proxy,
 * so every outgoing call is checked against Stripe's request schema and its parameters are visible.
 * Webhooks are signed offline with the stripe package, exactly as Stripe signs them.
 */
import { Global, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { getConnectionToken } from '@nestjs/mongoose';
import { type CommandStartedEvent, type Db, MongoClient } from 'mongodb';
import type { Connection } from 'mongoose';
import request from 'supertest';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { ENTITLEMENT_SINK, type Entitlement, type EntitlementSink, type SourceLicence } from '../../src/billing/entitlement-sink.js';
import { newOrderId } from '../../src/billing/order-id.js';
import { ReconcileService } from '../../src/billing/reconcile.service.js';
import { StripeEventsService } from '../../src/billing/stripe-events.service.js';
import { BILLING_POLL_MS, PROCESS_CONCURRENCY, WebhookService } from '../../src/billing/webhook.service.js';
import { WEBHOOK_CLOCK } from '../../src/billing/webhook-clock.js';
import { loadConfig } from '../../src/config/app-config.js';
import { INBOX_CONNECTION, SIDE_CONNECTION } from '../../src/database/database.module.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { type Agent, PASSWORD, settlesTo, signUp } from '../support/e2e.js';
import { RecordingHttpProxy } from '../support/recording-http-proxy.js';
import { StripeObjects, stripeEvent, type StripeTestEvent, stripeSignature } from '../support/stripe-events.js';
import { TcpProxy } from '../support/tcp-proxy.js';
import { testDatabaseUri } from '../support/test-database.js';

const SECRET_OLD = 'whsec_oldsecret1234567890';
const SECRET_NEW = 'whsec_newsecret1234567890';
const ADMIN = 'billing-admin@example.test';

class RecordingSink implements EntitlementSink {
  readonly applied: Entitlement[] = [];
  async apply(entitlement: Entitlement): Promise<void> {
    this.applied.push(structuredClone(entitlement));
  }
  /** No licences are made here: mails that need the keys wait (test/e2e/billing-journey.e2e-spec.ts has the real sink). */
  async licencesOf(): Promise<SourceLicence[]> {
    return [];
  }
  latest(sourceId: string): Entitlement | undefined {
    return this.applied.filter((entry) => entry.source.id === sourceId).at(-1);
  }
}
const sink = new RecordingSink();

/** The inbox's clock runs this far ahead of the real one (a test lets leases run out). */
let clockAheadMs = 0;

/** No polling worker: the tests deliver and process events themselves. */
@Global()
@Module({
  providers: [
    { provide: BILLING_POLL_MS, useValue: 0 },
    { provide: WEBHOOK_CLOCK, useValue: { now: () => Date.now() + clockAheadMs } },
  ],
  exports: [BILLING_POLL_MS, WEBHOOK_CLOCK],
})
class TestBindingsModule {}

let app: NestExpressApplication;
/** Another instance of the app on the same database and Stripe. */
let startInstance: () => Promise<NestExpressApplication>;
let db: Db;
let mongo: MongoClient;
let dbProxy: TcpProxy;
let stripeProxy: RecordingHttpProxy;
let objects: StripeObjects;
let webhooks: WebhookService;
let mongodbUri: string;
let admin: { agent: Agent; token: string };
const http = () => request(app.getHttpServer());
const newUser = () => signUp({ agent: request.agent(app.getHttpServer()), database: mongodbUri });
let sequence = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++sequence).toString(36)}`;

beforeAll(async () => {
  const mockUrl = process.env.HITSCOPE_TEST_STRIPE_API_BASE;
  if (!mockUrl) throw new Error('HITSCOPE_TEST_STRIPE_API_BASE is not set: global setup starts stripe-mock');
  stripeProxy = new RecordingHttpProxy(mockUrl);
  const stripeBase = await stripeProxy.start();
  objects = new StripeObjects(mockUrl);

  const target = new URL(testDatabaseUri('billing'));
  dbProxy = new TcpProxy(target.hostname, Number(target.port || 27017));
  target.host = `127.0.0.1:${await dbProxy.start()}`;
  mongodbUri = target.toString();
  const config = loadConfig({
    NODE_ENV: 'test',
    MONGODB_URI: mongodbUri,
    LOG_LEVEL: 'error',
    PORT: '0',
    ADMIN_EMAILS: ADMIN,
    RATE_LIMIT_MULTIPLIER: '1000',
    STRIPE_SECRET_KEY: 'sk_test_billingsuite123',
    STRIPE_WEBHOOK_SECRET: `${SECRET_OLD},${SECRET_NEW}`,
    STRIPE_API_BASE: stripeBase,
    // Commands are monitored (the side and inbox connections' are checked below); none is this slow.
    DATABASE_SLOW_MS: '600000',
  });
  const renderer = await createProductionRenderer();
  startInstance = async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [AppModule.forRoot({ config, mongodbUri, renderer }), TestBindingsModule],
    })
      // The licences module's sink, replaced by one that records what billing hands over.
      .overrideProvider(ENTITLEMENT_SINK)
      .useValue(sink)
      .compile();
    const instance = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
    installRequestHandling(instance, config);
    await instance.init();
    return instance;
  };
  app = await startInstance();
  webhooks = app.get(WebhookService);
  mongo = await MongoClient.connect(mongodbUri);
  db = mongo.db();
  admin = await signUp({ agent: request.agent(app.getHttpServer()), email: ADMIN, database: mongodbUri });
}, 60_000);

afterAll(async () => {
  await dbProxy?.restore();
  await mongo?.close();
  await app?.close();
  await stripeProxy?.stop();
  await dbProxy?.cut();
});

/* ------------------------------------------------------------------------------------------------
 * Webhook helpers
 * ---------------------------------------------------------------------------------------------- */

function deliver(
  payload: StripeTestEvent,
  options: {
    secret?: string;
    timestamp?: number;
    tamper?: (body: string) => string;
    noSignature?: boolean;
    to?: NestExpressApplication;
  } = {},
) {
  const body = JSON.stringify(payload);
  const header = stripeSignature(body, options.secret ?? SECRET_NEW, options.timestamp);
  let call = request((options.to ?? app).getHttpServer())
    .post('/api/billing/webhook')
    .set('content-type', 'application/json; charset=utf-8');
  if (!options.noSignature) call = call.set('stripe-signature', header);
  return call.send(options.tamper ? options.tamper(body) : body);
}

async function deliverAll(events: StripeTestEvent[], times = 1): Promise<void> {
  for (const item of events) for (let i = 0; i < times; i += 1) await deliver(item).expect(200);
  await webhooks.settle();
  // Events that came before what they name were retried with back-off: run the retries now.
  await webhooks.drain(() => new Date(Date.now() + 7 * 86_400_000));
}

async function checkout(who: { agent: Agent; token: string }, planId: string, quantity?: number) {
  const response = await who.agent
    .post('/api/billing/checkout')
    .set('x-csrf-token', who.token)
    .send(quantity ? { planId, quantity } : { planId });
  if (response.status !== 201) throw new Error(`checkout answered ${response.status}: ${response.text}`);
  return response.body as { orderId: string; url: string };
}

/** Documents as the tests read them (the collections' own types live in the server). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = { _id: string } & Record<string, any>;
const customerOf = async (userId: string) =>
  (await db.collection<Doc>('billing_customers').findOne({ _id: userId }))!.stripeCustomerId as string;
const order = (id: string) => db.collection<Doc>('orders').findOne({ _id: id });
const mirror = (id: string) => db.collection<Doc>('subscriptions').findOne({ _id: id });

/* ------------------------------------------------------------------------------------------------
 * Outgoing calls (stripe-mock)
 * ---------------------------------------------------------------------------------------------- */

describe('outgoing Stripe calls', () => {
  it('answers configured: true', async () => {
    await http().get('/api/billing/status').expect(200, { configured: true });
  });

  it('makes the customer first (once, idempotency key user:<id>:customer), the plan’s Stripe Price, the order before the session, and a subscription Checkout', async () => {
    const who = await newUser();
    const started = stripeProxy.requests.length;
    const { orderId, url } = await checkout(who, 'team-monthly', 2);
    expect(orderId).toMatch(/^ord_[a-z2-7]{26}$/);
    expect(url).toMatch(/^https:\/\//);
    const calls = stripeProxy.requests.slice(started);
    // The plan's first sale: its Product and Price are made in Stripe (no background sync in this suite).
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /v1/customers',
      'POST /v1/products',
      'GET /v1/prices',
      'POST /v1/prices',
      'POST /v1/checkout/sessions',
    ]);
    expect(calls[0]).toMatchObject({
      idempotencyKey: `user:${who.user.id}:customer`,
      params: { email: who.email, 'metadata[userId]': who.user.id },
    });
    const synced = await db.collection<Doc>('billing_stripe_prices').findOne({ _id: 'team-monthly' });
    expect(calls[4].idempotencyKey).toBe(`order:${orderId}:checkout`);
    expect(calls[4].params).toMatchObject({
      mode: 'subscription',
      client_reference_id: orderId,
      customer: await customerOf(who.user.id),
      'line_items[0][quantity]': '2',
      'line_items[0][price]': synced!.priceId,
      'subscription_data[metadata][orderId]': orderId,
      'metadata[planId]': 'team-monthly',
      // The terms' promise: a required checkbox whose words ask for immediate delivery and end the withdrawal right.
      'consent_collection[terms_of_service]': 'required',
      success_url: expect.stringMatching(/\/dashboard\/user\/subscription\?checkout=success&session_id=\{CHECKOUT_SESSION_ID\}$/),
      cancel_url: expect.stringMatching(/\/dashboard\/user\/subscription\?checkout=cancelled&plan=team-monthly$/),
    });
    expect(calls[4].params).not.toHaveProperty('line_items[0][price_data][unit_amount]');
    expect(calls[4].params['custom_text[terms_of_service_acceptance][message]']).toMatch(
      /^I agree to the \[terms of service\]\(http[^)]+\/terms\) and ask for my licence to be delivered immediately\. I understand that I lose my 14-day \[right of withdrawal\]\(http[^)]+\/terms#withdrawal\) once it is delivered\.$/,
    );
    // A second sale of the same plan asks Stripe nothing about the catalogue: the stored Price is in step.
    const again = stripeProxy.requests.length;
    await checkout(await newUser(), 'team-monthly');
    expect(stripeProxy.requests.slice(again).map((call) => call.path)).toEqual(['/v1/customers', '/v1/checkout/sessions']);
    expect(await order(orderId)).toMatchObject({
      status: 'pending',
      kind: 'checkout',
      amountMinor: 5800,
      quantity: 2,
      userId: who.user.id,
    });
    expect((await order(orderId))!.stripe.checkoutSessionId).toMatch(/^cs_/);
  });

  it('sells a lifetime plan in payment mode through a one-time Price, reusing the stored customer, and returns to the licences', async () => {
    const who = await newUser();
    await checkout(who, 'solo-monthly');
    const started = stripeProxy.requests.length;
    const { orderId } = await checkout(who, 'solo-lifetime');
    const calls = stripeProxy.requests.slice(started);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /v1/products',
      'GET /v1/prices',
      'POST /v1/prices',
      'POST /v1/checkout/sessions',
    ]);
    expect(calls[2].params).toMatchObject({ unit_amount: '19900', currency: 'eur', lookup_key: 'hitscope_solo-lifetime' });
    expect(calls[2].params).not.toHaveProperty('recurring[interval]');
    const synced = await db.collection<Doc>('billing_stripe_prices').findOne({ _id: 'solo-lifetime' });
    expect(calls[3].params).toMatchObject({
      mode: 'payment',
      'payment_intent_data[metadata][orderId]': orderId,
      'line_items[0][price]': synced!.priceId,
      // A one-off buyer is shown their keys when they come back.
      success_url: expect.stringMatching(/\/dashboard\/user\/licenses\?checkout=success&session_id=\{CHECKOUT_SESSION_ID\}$/),
    });
  });

  it('two checkouts at once make one customer (same idempotency key, one stored link)', async () => {
    const who = await newUser();
    const started = stripeProxy.requests.length;
    await Promise.all([checkout(who, 'solo-lifetime'), checkout(who, 'solo-lifetime')]);
    const keys = stripeProxy.requests
      .slice(started)
      .filter((call) => call.path === '/v1/customers')
      .map((call) => call.idempotencyKey);
    expect(new Set(keys)).toEqual(new Set([`user:${who.user.id}:customer`]));
    expect(await db.collection('billing_customers').countDocuments({ _id: who.user.id as never })).toBe(1);
  });

  it('refuses an unknown or inactive plan and bad quantities before calling Stripe', async () => {
    const who = await newUser();
    const started = stripeProxy.requests.length;
    await who.agent.post('/api/billing/checkout').set('x-csrf-token', who.token).send({ planId: 'no-such-plan' }).expect(404);
    await who.agent.post('/api/billing/checkout').set('x-csrf-token', who.token).send({ planId: 'team-monthly', quantity: 0 }).expect(400);
    await who.agent
      .post('/api/billing/checkout')
      .set('x-csrf-token', who.token)
      .send({ planId: 'team-monthly', quantity: null })
      .expect(400);
    expect(stripeProxy.requests.length).toBe(started);
  });

  it('opens the billing portal with a configuration made once by API, and deep links', async () => {
    const who = await newUser();
    const first = await who.agent.post('/api/billing/portal').set('x-csrf-token', who.token).send({}).expect(200);
    expect(first.body.url).toMatch(/^https:\/\//);
    const configurations = stripeProxy.calls('POST', '/v1/billing_portal/configurations');
    expect(configurations).toHaveLength(1);
    expect(configurations[0].params).toMatchObject({
      'features[subscription_cancel][mode]': 'at_period_end',
      'features[payment_method_update][enabled]': 'true',
      // Every recurring plan has its synced Price: each one can be switched to in the portal too.
      'features[subscription_update][enabled]': 'true',
    });
    const recurringPrices = (
      await db
        .collection<Doc>('billing_stripe_prices')
        .find({ _id: { $ne: 'solo-lifetime' } })
        .toArray()
    ).map((row) => row.priceId as string);
    expect(recurringPrices).toHaveLength(5);
    const listed = Object.entries(configurations[0].params)
      .filter(([name]) => /^features\[subscription_update\]\[products\]\[\d+\]\[prices\]\[\d+\]$/.test(name))
      .map(([, value]) => value);
    expect(listed.sort()).toEqual([...recurringPrices].sort());
    await who.agent.post('/api/billing/portal').set('x-csrf-token', who.token).send({ flow: 'payment_method_update' }).expect(200);
    expect(stripeProxy.calls('POST', '/v1/billing_portal/configurations')).toHaveLength(1);
    const sessions = stripeProxy.calls('POST', '/v1/billing_portal/sessions');
    expect(sessions.at(-1)!.params).toMatchObject({ 'flow_data[type]': 'payment_method_update', customer: await customerOf(who.user.id) });
    const none = await who.agent
      .post('/api/billing/portal')
      .set('x-csrf-token', who.token)
      .send({ flow: 'subscription_cancel' })
      .expect(404);
    expect(none.body.code).toBe('NO_SUBSCRIPTION');
    await who.agent.post('/api/billing/portal').set('x-csrf-token', who.token).send({ flow: 'bogus' }).expect(400);
  });

  it('cancels at period end, resumes and changes the plan of the running subscription; deep links name it', async () => {
    const who = await newUser();
    const { orderId } = await checkout(who, 'team-monthly');
    const subscriptionId = unique('sub');
    const customer = await customerOf(who.user.id);
    const now = Math.floor(Date.now() / 1000);
    const metadata = { orderId, planId: 'team-monthly', userId: who.user.id };
    // The glance is read through a cache (SubscriptionReadCache): each event applied shows on the next read.
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body).toEqual({
      subscription: null,
      subscriptions: [],
      purchases: [],
    });
    await deliverAll([
      stripeEvent(
        'customer.subscription.created',
        now,
        await objects.subscription({ id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd: now + 30 * 86400, metadata }),
      ),
    ]);
    const view = await who.agent.get('/api/billing/subscription').expect(200);
    expect(view.body.subscription).toMatchObject({
      id: subscriptionId,
      planId: 'team-monthly',
      status: 'active',
      seats: 5,
      cancelAtPeriodEnd: false,
    });
    const cancelling = { id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd: now + 30 * 86400, metadata };
    await deliverAll([
      stripeEvent('customer.subscription.updated', now + 1, await objects.subscription({ ...cancelling, cancelAtPeriodEnd: true })),
    ]);
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body.subscription).toMatchObject({ cancelAtPeriodEnd: true });
    await deliverAll([
      stripeEvent('customer.subscription.updated', now + 2, await objects.subscription({ ...cancelling, cancelAtPeriodEnd: false })),
    ]);
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body.subscription).toMatchObject({ cancelAtPeriodEnd: false });

    // Checkout again while subscribed: refused (one subscription per person).
    const again = await who.agent.post('/api/billing/checkout').set('x-csrf-token', who.token).send({ planId: 'team-yearly' }).expect(409);
    expect(again.body.code).toBe('ALREADY_SUBSCRIBED');

    await who.agent.post('/api/billing/subscription/cancel').set('x-csrf-token', who.token).expect(202);
    expect(stripeProxy.calls('POST', `/v1/subscriptions/${subscriptionId}`).at(-1)!.params).toEqual({ cancel_at_period_end: 'true' });
    await who.agent.post('/api/billing/subscription/resume').set('x-csrf-token', who.token).expect(202);
    expect(stripeProxy.calls('POST', `/v1/subscriptions/${subscriptionId}`).at(-1)!.params).toEqual({ cancel_at_period_end: 'false' });

    // Every recurring plan can be switched to, through its synced Price; a one-off plan is bought, not switched to.
    await who.agent.post('/api/billing/subscription/plan').set('x-csrf-token', who.token).send({ planId: 'team-yearly' }).expect(202);
    const syncedYearly = await db.collection<Doc>('billing_stripe_prices').findOne({ _id: 'team-yearly' });
    expect(stripeProxy.calls('POST', `/v1/subscriptions/${subscriptionId}`).at(-1)!.params).toMatchObject({
      'items[0][price]': syncedYearly!.priceId,
      proration_behavior: 'create_prorations',
    });
    const oneOff = await who.agent
      .post('/api/billing/subscription/plan')
      .set('x-csrf-token', who.token)
      .send({ planId: 'solo-lifetime' })
      .expect(409);
    expect(oneOff.body.code).toBe('PLAN_NOT_PRICED');
    // An administrator's own Price on a plan wins over the synced one.
    await admin.agent
      .patch('/api/admin/catalogue/plans/team-yearly')
      .set('x-csrf-token', admin.token)
      .send({ stripePriceId: 'price_teamyearly' })
      .expect(200);
    await who.agent
      .post('/api/billing/subscription/plan')
      .set('x-csrf-token', who.token)
      .send({ planId: 'team-yearly', quantity: 2 })
      .expect(202);
    const change = stripeProxy.calls('POST', `/v1/subscriptions/${subscriptionId}`).at(-1)!;
    expect(change.params).toMatchObject({
      'items[0][price]': 'price_teamyearly',
      'items[0][quantity]': '2',
      'metadata[planId]': 'team-yearly',
    });
    expect(change.params['items[0][id]']).toMatch(/^si_/);

    const configurations = stripeProxy.calls('POST', '/v1/billing_portal/configurations').length;
    await who.agent.post('/api/billing/portal').set('x-csrf-token', who.token).send({ flow: 'subscription_update' }).expect(200);
    // A plan got a Stripe price: a new configuration lists it (its product from the price), made once.
    const configuration = stripeProxy.calls('POST', '/v1/billing_portal/configurations');
    expect(configuration).toHaveLength(configurations + 1);
    expect(configuration.at(-1)!.params).toMatchObject({
      'features[subscription_update][enabled]': 'true',
      'features[subscription_update][default_allowed_updates][0]': 'price',
    });
    // The administrator's Price is listed under its own Product (asked from Stripe), the synced ones under theirs.
    const entries = Object.entries(configuration.at(-1)!.params);
    const slot = entries.find(([, value]) => value === 'price_teamyearly')![0].replace(/\[prices\]\[\d+\]$/, '[product]');
    expect(configuration.at(-1)!.params[slot]).toMatch(/^prod_/);
    expect(entries.filter(([name, value]) => name.endsWith('[product]') && value.startsWith('hitscope_plan_'))).toHaveLength(4);
    expect(stripeProxy.calls('POST', '/v1/billing_portal/sessions').at(-1)!.params).toMatchObject({
      'flow_data[type]': 'subscription_update',
      'flow_data[subscription_update][subscription]': subscriptionId,
    });
    await who.agent.post('/api/billing/portal').set('x-csrf-token', who.token).send({ flow: 'subscription_cancel' }).expect(200);
    expect(stripeProxy.calls('POST', '/v1/billing_portal/sessions').at(-1)!.params).toMatchObject({
      'flow_data[subscription_cancel][subscription]': subscriptionId,
    });
  });
});

/* ------------------------------------------------------------------------------------------------
 * Webhooks: verification and the inbox
 * ---------------------------------------------------------------------------------------------- */

describe('webhook verification and inbox', () => {
  const unknownEvent = () => stripeEvent('product.created', Math.floor(Date.now() / 1000), { id: unique('prod'), object: 'product' });
  const stored = (id: string) => db.collection('stripe_events').countDocuments({ _id: id as never });

  it('refuses a tampered body, a wrong secret, a 10-minute-old signature and a missing one with 400, storing nothing', async () => {
    const before = await db.collection('stripe_events').countDocuments();
    for (const [label, payload, options] of [
      ['tampered', unknownEvent(), { tamper: (body: string) => body.replace('product.created', 'product.updated') }],
      ['wrong secret', unknownEvent(), { secret: 'whsec_somebodyelse123456' }],
      ['stale', unknownEvent(), { timestamp: Math.floor(Date.now() / 1000) - 600 }],
      ['unsigned', unknownEvent(), { noSignature: true }],
    ] as const) {
      const response = await deliver(payload, options);
      expect({ label, status: response.status, code: response.body.code }).toEqual({
        label,
        status: 400,
        code: 'WEBHOOK_SIGNATURE_INVALID',
      });
      expect(await stored(payload.id)).toBe(0);
    }
    expect(await db.collection('stripe_events').countDocuments()).toBe(before);
  });

  it('accepts both secrets of a rotation', async () => {
    const [a, b] = [unknownEvent(), unknownEvent()];
    await deliver(a, { secret: SECRET_OLD }).expect(200, { received: true });
    await deliver(b, { secret: SECRET_NEW }).expect(200, { received: true });
    expect(await stored(a.id)).toBe(1);
    expect(await stored(b.id)).toBe(1);
  });

  it('stores an event type it does not handle as ignored, and a redelivery is a 200 that adds nothing', async () => {
    const item = unknownEvent();
    await deliver(item).expect(200);
    await deliver(item).expect(200);
    const records = await db
      .collection('stripe_events')
      .find({ _id: item.id as never })
      .toArray();
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ status: 'ignored', type: 'product.created' });
  });

  it('answers a redelivery of an event it stored lately without asking the database', async () => {
    const item = unknownEvent();
    await deliver(item).expect(200);
    const clients = [app.get<Connection>(getConnectionToken()), app.get<Connection>(getConnectionToken(SIDE_CONNECTION))].map(
      (connection) => connection.getClient(),
    );
    const inboxCommands: string[] = [];
    const watch = (event: CommandStartedEvent) => {
      const collection = String(event.command[event.commandName]);
      if (collection.startsWith('stripe_event')) inboxCommands.push(`${event.commandName} ${collection}`);
    };
    for (const client of clients) client.on('commandStarted', watch);
    try {
      await deliver(item).expect(200, { received: true });
      await deliver(item).expect(200, { received: true });
    } finally {
      for (const client of clients) client.off('commandStarted', watch);
    }
    expect(inboxCommands).toEqual([]);
    expect(await stored(item.id)).toBe(1);
  });

  it('answers 503 while the database is down (Stripe retries), and the redelivery is stored and processed', async () => {
    const who = await newUser();
    const { orderId } = await checkout(who, 'solo-lifetime');
    const completed = stripeEvent(
      'checkout.session.completed',
      Math.floor(Date.now() / 1000),
      await objects.checkoutSession({
        id: unique('cs_test'),
        client_reference_id: orderId,
        mode: 'payment',
        payment_status: 'paid',
        payment_intent: unique('pi'),
        customer: await customerOf(who.user.id),
      }),
    );
    await dbProxy.cut();
    try {
      const response = await deliver(completed);
      expect(response.status).toBe(503);
      expect(response.headers['retry-after']).toBe('5');
    } finally {
      await dbProxy.restore();
    }
    // The redelivery, once the database answers again.
    const deadline = Date.now() + 15_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await deliver(completed)).status;
      if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 250));
    }
    expect(status).toBe(200);
    await webhooks.settle();
    expect(await db.collection('stripe_events').findOne({ _id: completed.id as never })).toMatchObject({ status: 'done' });
    expect(await order(orderId)).toMatchObject({ status: 'paid' });
  }, 30_000);
});

/* ------------------------------------------------------------------------------------------------
 * Webhooks: effects, repetition and order
 * ---------------------------------------------------------------------------------------------- */

interface Scenario {
  userId: string;
  email: string;
  orderId: string;
  subscriptionId: string;
  periodEnd: number;
  events: StripeTestEvent[];
}

/** A subscription's life: created, first invoice paid, checkout completed, seats raised and cancel requested, ended. */
async function subscriptionLife(): Promise<Scenario> {
  const who = await newUser();
  const { orderId } = await checkout(who, 'team-monthly');
  const customer = await customerOf(who.user.id);
  const subscriptionId = unique('sub');
  const invoiceId = unique('in');
  const t = Math.floor(Date.now() / 1000) - 1000;
  const periodEnd = t + 30 * 86400;
  const metadata = { orderId, planId: 'team-monthly', userId: who.user.id };
  const sub = (status: string, quantity: number, cancelAtPeriodEnd = false) =>
    objects.subscription({ id: subscriptionId, customer, status, quantity, periodEnd, cancelAtPeriodEnd, metadata });
  const events = [
    stripeEvent('customer.subscription.created', t, await sub('incomplete', 1)),
    stripeEvent(
      'invoice.paid',
      t + 1,
      await objects.invoice(invoiceId, {
        customer,
        billing_reason: 'subscription_create',
        amount_paid: 2900,
        currency: 'eur',
        parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata } },
      }),
    ),
    stripeEvent('customer.subscription.updated', t + 2, await sub('active', 1)),
    stripeEvent(
      'checkout.session.completed',
      t + 3,
      await objects.checkoutSession({
        id: unique('cs_test'),
        client_reference_id: orderId,
        mode: 'subscription',
        payment_status: 'paid',
        customer,
        subscription: subscriptionId,
      }),
    ),
    stripeEvent('customer.subscription.updated', t + 50, await sub('active', 3, true)),
    stripeEvent('customer.subscription.deleted', t + 100, await sub('canceled', 3, true)),
  ];
  return { userId: who.user.id, email: who.email, orderId, subscriptionId, periodEnd, events };
}

async function outcome(scenario: Scenario) {
  const [sub, checkoutOrder, orders] = await Promise.all([
    mirror(scenario.subscriptionId),
    order(scenario.orderId),
    db.collection('orders').countDocuments({ userId: scenario.userId }),
  ]);
  const entitlement = sink.latest(scenario.subscriptionId);
  return {
    subscription: {
      status: sub?.status,
      quantity: sub?.quantity,
      cancelAtPeriodEnd: sub?.cancelAtPeriodEnd,
      userId: sub?.userId === scenario.userId,
      planId: sub?.planId,
    },
    order: {
      status: checkoutOrder?.status,
      subscriptionLinked: checkoutOrder?.stripe.subscriptionId === scenario.subscriptionId,
      paid: !!checkoutOrder?.paidAt,
    },
    orders,
    entitlement: entitlement && {
      ...entitlement,
      source: entitlement.source.kind,
      userId: entitlement.userId === scenario.userId,
      expiresAt:
        entitlement.expiresAt && entitlement.expiresAt.getTime() === scenario.periodEnd * 1000 ? 'period end' : entitlement.expiresAt,
    },
  };
}

function shuffled<T>(items: T[], seed: number): T[] {
  const copy = [...items];
  let state = seed;
  for (let i = copy.length - 1; i > 0; i -= 1) {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    const j = state % (i + 1);
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy;
}

describe('webhook effects', () => {
  let expected: Awaited<ReturnType<typeof outcome>>;

  it('a subscription life delivered in order, each event three times: one effect each', async () => {
    const scenario = await subscriptionLife();
    await deliverAll(scenario.events, 3);
    expected = await outcome(scenario);
    expect(expected).toEqual({
      subscription: { status: 'canceled', quantity: 3, cancelAtPeriodEnd: true, userId: true, planId: 'team-monthly' },
      order: { status: 'paid', subscriptionLinked: true, paid: true },
      orders: 1,
      entitlement: {
        source: 'subscription',
        userId: true,
        planId: 'team-monthly',
        products: ['hitscope-for-apps', 'hitscope-for-browsers'],
        seats: 15,
        state: 'expired',
        expiresAt: 'period end',
        graceUntil: null,
      },
    });
    const records = await db
      .collection('stripe_events')
      .find({ _id: { $in: scenario.events.map((item) => item.id) } as never })
      .toArray();
    expect(records).toHaveLength(scenario.events.length);
    expect(records.every((record) => record.status === 'done')).toBe(true);
  });

  it('the same life delivered in reverse, and in three shuffled orders, ends in the same state', async () => {
    for (const sequenceName of ['reversed', 1, 2, 3] as const) {
      const scenario = await subscriptionLife();
      await deliverAll(sequenceName === 'reversed' ? [...scenario.events].reverse() : shuffled(scenario.events, sequenceName));
      expect({ sequenceName, ...(await outcome(scenario)) }).toEqual({ sequenceName, ...expected });
    }
  });

  it('the side and inbox connections carry only reads and inserts: every update of a life goes over the main connection', async () => {
    // FerretDB loses concurrent updates of one document over several connections (docs/database.md,
    // "Several connections"): the other connections may read and insert, never update.
    const clients = {
      main: app.get<Connection>(getConnectionToken()).getClient(),
      side: app.get<Connection>(getConnectionToken(SIDE_CONNECTION)).getClient(),
      inbox: app.get<Connection>(getConnectionToken(INBOX_CONNECTION)).getClient(),
    };
    const seen = { main: new Set<string>(), side: new Set<string>(), inbox: new Set<string>() };
    const listeners = Object.fromEntries(
      Object.keys(clients).map((name) => [name, (event: CommandStartedEvent) => seen[name as keyof typeof seen].add(event.commandName)]),
    );
    for (const [name, client] of Object.entries(clients)) client.on('commandStarted', listeners[name]);
    try {
      const scenario = await subscriptionLife();
      await deliverAll(scenario.events, 2);
      expect(await outcome(scenario)).toEqual(expected);
    } finally {
      for (const [name, client] of Object.entries(clients)) client.off('commandStarted', listeners[name]);
    }
    expect([...seen.side].sort()).toEqual(['find']);
    expect([...seen.inbox].sort()).toEqual(['insert']);
    expect(seen.main.has('update')).toBe(true);
  });

  it('the subscription’s first event names it on its checkout order, before the checkout or its invoice says so', async () => {
    const scenario = await subscriptionLife();
    const [created] = scenario.events;
    expect(created.type).toBe('customer.subscription.created');
    expect((await order(scenario.orderId))?.stripe.subscriptionId ?? null).toBeNull();
    await deliverAll([created], 2);
    expect((await order(scenario.orderId))?.stripe.subscriptionId).toBe(scenario.subscriptionId);
  });

  it('a whole life delivered at the same moment: its events take turns, each done at its first attempt, same end state', async () => {
    const scenario = await subscriptionLife();
    // Stripe sends a purchase's events together; processed at once they would race for the same
    // subscription and order (one would lose and wait 30 s for its retry). They take turns instead.
    await Promise.all(scenario.events.map((item) => deliver(item).expect(200)));
    await webhooks.settle();
    const records = await db
      .collection('stripe_events')
      .find({ _id: { $in: scenario.events.map((item) => item.id) } as never })
      .toArray();
    expect(records.map(({ status, attempts }) => ({ status, attempts }))).toEqual(
      scenario.events.map(() => ({ status: 'done', attempts: 1 })),
    );
    expect(await outcome(scenario)).toEqual(expected);
  });

  it('a past_due subscription keeps its licence with a grace period; a renewal invoice is one order however often it comes', async () => {
    const scenario = await subscriptionLife();
    await deliverAll(scenario.events.slice(0, 4));
    const customer = (await mirror(scenario.subscriptionId))!.customerId as string;
    const t = Math.floor(Date.now() / 1000);
    const periodEnd = t + 10 * 86400;
    const renewal = unique('in');
    const metadata = { orderId: scenario.orderId, planId: 'team-monthly', userId: scenario.userId };
    await deliverAll(
      [
        stripeEvent(
          'invoice.payment_failed',
          t,
          await objects.invoice(renewal, {
            customer,
            billing_reason: 'subscription_cycle',
            amount_due: 2900,
            amount_paid: 0,
            currency: 'eur',
            parent: {
              type: 'subscription_details',
              quote_details: null,
              subscription_details: { subscription: scenario.subscriptionId, metadata },
            },
          }),
        ),
        stripeEvent(
          'customer.subscription.updated',
          t + 1,
          await objects.subscription({ id: scenario.subscriptionId, customer, status: 'past_due', quantity: 1, periodEnd, metadata }),
        ),
      ],
      2,
    );
    expect(await order(`inv_${renewal}`)).toMatchObject({ status: 'failed', kind: 'renewal' });
    expect(sink.latest(scenario.subscriptionId)).toMatchObject({ state: 'past_due', graceUntil: new Date((periodEnd + 7 * 86400) * 1000) });
    // One e-mail with the way to fix it, however often the event came.
    const mails = await db
      .collection('mail_outbox')
      .find({ to: scenario.email, subject: /payment did not go through/ })
      .toArray();
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain('/dashboard/user/subscription');

    await deliverAll(
      [
        stripeEvent(
          'invoice.paid',
          t + 2,
          await objects.invoice(renewal, {
            customer,
            billing_reason: 'subscription_cycle',
            amount_paid: 2900,
            currency: 'eur',
            parent: {
              type: 'subscription_details',
              quote_details: null,
              subscription_details: { subscription: scenario.subscriptionId, metadata },
            },
          }),
        ),
        stripeEvent(
          'customer.subscription.updated',
          t + 3,
          await objects.subscription({
            id: scenario.subscriptionId,
            customer,
            status: 'active',
            quantity: 1,
            periodEnd: periodEnd + 30 * 86400,
            metadata,
          }),
        ),
      ],
      3,
    );
    expect(await order(`inv_${renewal}`)).toMatchObject({ status: 'paid', amountMinor: 2900 });
    expect(await db.collection('orders').countDocuments({ userId: scenario.userId })).toBe(2);
    expect(sink.latest(scenario.subscriptionId)).toMatchObject({ state: 'active', graceUntil: null });
  });

  it('paused suspends the licence and resumed restores it; a dispute on a subscription payment suspends it too', async () => {
    const scenario = await subscriptionLife();
    await deliverAll(scenario.events.slice(0, 4));
    const customer = (await mirror(scenario.subscriptionId))!.customerId as string;
    const metadata = { orderId: scenario.orderId, planId: 'team-monthly', userId: scenario.userId };
    const t = Math.floor(Date.now() / 1000);
    const sub = (status: string) =>
      objects.subscription({ id: scenario.subscriptionId, customer, status, quantity: 1, periodEnd: scenario.periodEnd, metadata });
    await deliverAll([stripeEvent('customer.subscription.paused', t, await sub('paused'))]);
    expect(sink.latest(scenario.subscriptionId)).toMatchObject({ state: 'suspended' });
    await deliverAll([stripeEvent('customer.subscription.resumed', t + 1, await sub('active'))]);
    expect(sink.latest(scenario.subscriptionId)).toMatchObject({ state: 'active' });

    // The first invoice paid the checkout order; its payment is disputed.
    // (stripe-mock's invoice fixture names the same payment for every invoice: give this one its own.)
    const ids = { charge: unique('ch'), paymentIntent: unique('pi') };
    await db.collection<Doc>('orders').updateOne({ _id: scenario.orderId }, { $set: { 'stripe.paymentIntentId': ids.paymentIntent } });
    const dispute = (status: string) =>
      stripeEvent('charge.dispute.created', Math.floor(Date.now() / 1000), {
        id: unique('dp'),
        object: 'dispute',
        charge: ids.charge,
        payment_intent: ids.paymentIntent,
        status,
        amount: 2900,
      });
    await deliverAll([dispute('needs_response')]);
    expect(sink.latest(scenario.subscriptionId)).toMatchObject({ source: { kind: 'subscription' }, state: 'suspended' });
  });

  it('the trial reminder is sent once, however often trial_will_end comes', async () => {
    const scenario = await subscriptionLife();
    await deliverAll(scenario.events.slice(0, 4));
    const customer = (await mirror(scenario.subscriptionId))!.customerId as string;
    const trialEnd = Math.floor(Date.now() / 1000) + 3 * 86400;
    const object = {
      ...(await objects.subscription({
        id: scenario.subscriptionId,
        customer,
        status: 'trialing',
        quantity: 1,
        periodEnd: trialEnd,
        metadata: { orderId: scenario.orderId, planId: 'team-monthly', userId: scenario.userId },
      })),
      trial_end: trialEnd,
    };
    await deliverAll([stripeEvent('customer.subscription.trial_will_end', Math.floor(Date.now() / 1000), object)], 3);
    expect(await db.collection('mail_outbox').countDocuments({ to: scenario.email, subject: /trial ends/ })).toBe(1);
    expect(await mirror(scenario.subscriptionId)).toMatchObject({ status: 'trialing', trialEnd: new Date(trialEnd * 1000) });
  });

  async function paidLifetime() {
    const who = await newUser();
    const { orderId } = await checkout(who, 'solo-lifetime');
    const paymentIntent = unique('pi');
    const charge = unique('ch');
    await deliverAll([
      stripeEvent(
        'checkout.session.completed',
        Math.floor(Date.now() / 1000),
        await objects.checkoutSession({
          id: unique('cs_test'),
          client_reference_id: orderId,
          mode: 'payment',
          payment_status: 'paid',
          payment_intent: paymentIntent,
          customer: await customerOf(who.user.id),
        }),
      ),
    ]);
    return { orderId, paymentIntent, charge };
  }
  const chargeEvent = (
    ids: { paymentIntent: string; charge: string },
    refunded: number,
    full: boolean,
    created = Math.floor(Date.now() / 1000),
  ) =>
    stripeEvent('charge.refunded', created, {
      id: ids.charge,
      object: 'charge',
      amount: 19900,
      amount_refunded: refunded,
      refunded: full,
      payment_intent: ids.paymentIntent,
      currency: 'eur',
    });
  const disputeEvent = (type: string, ids: { paymentIntent: string; charge: string }, status: string) =>
    stripeEvent(type, Math.floor(Date.now() / 1000), {
      id: unique('dp'),
      object: 'dispute',
      charge: ids.charge,
      payment_intent: ids.paymentIntent,
      status,
      amount: 19900,
    });

  it('a lifetime purchase: paid gives a licence without expiry; a partial refund keeps it, a full refund revokes it (in either order)', async () => {
    const ids = await paidLifetime();
    expect(await order(ids.orderId)).toMatchObject({ status: 'paid' });
    expect(sink.latest(ids.orderId)).toMatchObject({
      source: { kind: 'order', id: ids.orderId },
      state: 'active',
      expiresAt: null,
      seats: 1,
    });

    await deliverAll([chargeEvent(ids, 5000, false)], 2);
    expect(await order(ids.orderId)).toMatchObject({ status: 'partially_refunded', refundedMinor: 5000 });
    expect(sink.latest(ids.orderId)).toMatchObject({ state: 'active' });

    await deliverAll([chargeEvent(ids, 19900, true)]);
    expect(await order(ids.orderId)).toMatchObject({ status: 'refunded', refundedMinor: 19900 });
    expect(sink.latest(ids.orderId)).toMatchObject({ state: 'revoked' });

    // The partial refund's event arriving late changes nothing.
    await deliverAll([chargeEvent(ids, 5000, false)]);
    expect(await order(ids.orderId)).toMatchObject({ status: 'refunded', refundedMinor: 19900 });

    // A refund that comes before the payment's own event waits for it (retried), then applies.
    const who = await newUser();
    const { orderId } = await checkout(who, 'solo-lifetime');
    const early = { paymentIntent: unique('pi'), charge: unique('ch') };
    await deliverAll([
      chargeEvent(early, 19900, true),
      stripeEvent(
        'checkout.session.completed',
        Math.floor(Date.now() / 1000),
        await objects.checkoutSession({
          id: unique('cs_test'),
          client_reference_id: orderId,
          mode: 'payment',
          payment_status: 'paid',
          payment_intent: early.paymentIntent,
          customer: await customerOf(who.user.id),
        }),
      ),
    ]);
    expect(await order(orderId)).toMatchObject({ status: 'refunded' });
    expect(sink.latest(orderId)).toMatchObject({ state: 'revoked' });
  });

  it('a dispute suspends the licence; won restores it, lost revokes it, and a late "created" never reopens a closed one', async () => {
    const won = await paidLifetime();
    await deliverAll([disputeEvent('charge.dispute.created', won, 'needs_response')]);
    expect(sink.latest(won.orderId)).toMatchObject({ state: 'suspended' });
    await deliverAll([disputeEvent('charge.dispute.closed', won, 'won')]);
    expect(sink.latest(won.orderId)).toMatchObject({ state: 'active' });

    const lost = await paidLifetime();
    await deliverAll([disputeEvent('charge.dispute.closed', lost, 'lost'), disputeEvent('charge.dispute.created', lost, 'needs_response')]);
    expect(await order(lost.orderId)).toMatchObject({ dispute: { status: 'lost' } });
    expect(sink.latest(lost.orderId)).toMatchObject({ state: 'revoked' });
  });

  it('an expired checkout abandons its order; a failed delayed payment fails it', async () => {
    const who = await newUser();
    const [abandoned, failed] = [await checkout(who, 'solo-lifetime'), await checkout(who, 'solo-lifetime')];
    const now = Math.floor(Date.now() / 1000);
    await deliverAll([
      stripeEvent(
        'checkout.session.expired',
        now,
        await objects.checkoutSession({ id: unique('cs_test'), client_reference_id: abandoned.orderId, status: 'expired' }),
      ),
      stripeEvent(
        'checkout.session.completed',
        now,
        await objects.checkoutSession({
          id: unique('cs_test'),
          client_reference_id: failed.orderId,
          mode: 'payment',
          payment_status: 'unpaid',
        }),
      ),
      stripeEvent(
        'checkout.session.async_payment_failed',
        now + 1,
        await objects.checkoutSession({
          id: unique('cs_test'),
          client_reference_id: failed.orderId,
          mode: 'payment',
          payment_status: 'unpaid',
        }),
      ),
    ]);
    expect(await order(abandoned.orderId)).toMatchObject({ status: 'abandoned' });
    expect(await order(failed.orderId)).toMatchObject({ status: 'failed' });
    expect(sink.latest(failed.orderId)).toBeUndefined();
    const list = await who.agent.get('/api/billing/orders').expect(200);
    expect(list.body.orders.map((entry: { status: string }) => entry.status).sort()).toEqual(['abandoned', 'failed']);
  });

  it('keeps each body beside its small inbox record, and still processes records stored with the body inside', async () => {
    const who = await newUser();
    const { orderId } = await checkout(who, 'team-monthly');
    const customer = await customerOf(who.user.id);
    const subscription = await objects.subscription({
      id: unique('sub_legacy'),
      customer,
      status: 'active',
      quantity: 1,
      periodEnd: Math.floor(Date.now() / 1000) + 86400,
      metadata: { orderId, planId: 'team-monthly', userId: who.user.id },
    });
    const delivered = stripeEvent('customer.subscription.updated', Math.floor(Date.now() / 1000), subscription);
    await deliverAll([delivered]);
    expect(await db.collection('stripe_events').findOne({ _id: delivered.id as never })).toMatchObject({ status: 'done', payload: null });
    // The exact bytes Stripe signed.
    expect((await db.collection('stripe_event_payloads').findOne({ _id: delivered.id as never }))?.payload).toBe(JSON.stringify(delivered));

    // As stored before: the body inside the record, and no separate body.
    const legacy = stripeEvent('customer.subscription.updated', Math.floor(Date.now() / 1000) + 60, {
      ...subscription,
      status: 'past_due',
    });
    await db.collection('stripe_events').insertOne({
      _id: legacy.id as never,
      type: legacy.type,
      created: legacy.created,
      apiVersion: null,
      payload: JSON.stringify(legacy),
      status: 'pending',
      attempts: 0,
      nextAttemptAt: new Date(),
      leaseUntil: null,
      outcome: null,
      receivedAt: new Date(),
    });
    await webhooks.drain();
    expect(await db.collection('stripe_events').findOne({ _id: legacy.id as never })).toMatchObject({ status: 'done' });
    expect(await db.collection('subscriptions').findOne({ _id: subscription.id as never })).toMatchObject({ status: 'past_due' });
  });

  /** `count` updates of as many subscriptions of a new customer's team plan, one second apart. */
  const subscriptionUpdates = async (name: string, count: number) => {
    const who = await newUser();
    const { orderId } = await checkout(who, 'team-monthly');
    const customer = await customerOf(who.user.id);
    const base = await objects.subscription({
      id: `sub_${name}`,
      customer,
      status: 'active',
      quantity: 1,
      periodEnd: Math.floor(Date.now() / 1000) + 86400,
      metadata: { orderId, planId: 'team-monthly', userId: who.user.id },
    });
    const t = Math.floor(Date.now() / 1000);
    return Array.from({ length: count }, (_, i) =>
      stripeEvent('customer.subscription.updated', t + i, { ...base, id: `sub_${name}_${sequence}_${i}` }),
    );
  };

  it('processes a burst of events at most PROCESS_CONCURRENCY at a time, each once (throughput logged)', async () => {
    // Enough to overlap many deliveries; the rate itself is measured by `npm run bench` (webhooks).
    const BURST = 50;
    const burst = await subscriptionUpdates('burst', BURST);
    // Counts how many events are being handled at once (the handler itself runs unchanged).
    const handler = app.get(StripeEventsService);
    const handle = handler.handle.bind(handler);
    let inProgress = 0;
    let most = 0;
    let handled = 0;
    handler.handle = async (event) => {
      most = Math.max(most, (inProgress += 1));
      handled += 1;
      try {
        return await handle(event);
      } finally {
        inProgress -= 1;
      }
    };
    const started = Date.now();
    let delivered = started;
    try {
      // Delivered 10 at a time, as Stripe's parallel deliveries arrive.
      for (let i = 0; i < burst.length; i += 10) {
        await Promise.all(burst.slice(i, i + 10).map((item) => deliver(item).expect(200)));
      }
      delivered = Date.now();
      await webhooks.settle();
    } finally {
      handler.handle = handle;
    }
    expect(most).toBeLessThanOrEqual(PROCESS_CONCURRENCY);
    expect(handled).toBe(BURST);
    const done = Date.now();
    expect(
      await db.collection('stripe_events').countDocuments({ _id: { $in: burst.map((item) => item.id) } as never, status: 'done' }),
    ).toBe(BURST);
    console.log(
      `${BURST} webhook events: delivered (verified + stored) in ${delivered - started} ms, all processed after ${done - started} ms (${Math.round((BURST * 1000) / (done - started))} events/s)`,
    );
  }, 120_000);

  it('the worker’s tick leaves the events this instance is about to process to it: each processed once, by its delivery', async () => {
    const burst = await subscriptionUpdates('tick', PROCESS_CONCURRENCY + 10);
    const ids = burst.map((item) => item.id);
    await Promise.all(burst.map((item) => deliver(item).expect(200)));
    // PROCESS_CONCURRENCY are being processed, ten wait for a slot: `pending` or `processing` in the
    // inbox, and all this instance's. A tick now (as every 15 s) takes none of them (it took most, before).
    expect(await webhooks.drain()).toBe(0);
    await webhooks.settle();
    const records = await db
      .collection('stripe_events')
      .find({ _id: { $in: ids } as never })
      .toArray();
    // Each claimed once (a claim counts an attempt), by its own delivery, and done.
    expect(records.map(({ status, attempts }) => ({ status, attempts }))).toEqual(burst.map(() => ({ status: 'done', attempts: 1 })));
  }, 60_000);

  it('an event that waited for a slot past half its lease renews it first: processed if still its own, left alone if another instance took it', async () => {
    const events = await subscriptionUpdates('lease', PROCESS_CONCURRENCY + 2);
    const holders = events.slice(0, PROCESS_CONCURRENCY);
    const [taken, renewed] = events.slice(PROCESS_CONCURRENCY);
    const handler = app.get(StripeEventsService);
    const handle = handler.handle.bind(handler);
    const handled: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    handler.handle = async (event) => {
      handled.push(event.id);
      await gate;
      return handle(event);
    };
    const inbox = db.collection<Doc>('stripe_events');
    try {
      // PROCESS_CONCURRENCY events hold the slots; two more wait, stored as this instance's under a
      // 60 s lease.
      await Promise.all(holders.map((item) => deliver(item).expect(200)));
      await Promise.all([taken, renewed].map((item) => deliver(item).expect(200)));
      await settlesTo(async () => handled.length, holders.length, 5000);
      expect([...handled].sort()).toEqual(holders.map((item) => item.id).sort());
      // A minute later: their leases ran out, and another instance's worker took one of them.
      await inbox.updateOne({ _id: taken.id }, { $set: { attempts: 2, leaseUntil: new Date(Date.now() + 120_000) } });
      clockAheadMs = 65_000;
      open();
      await webhooks.settle();
    } finally {
      handler.handle = handle;
      clockAheadMs = 0;
    }
    expect(handled.slice(holders.length)).toEqual([renewed.id]);
    expect(await inbox.findOne({ _id: renewed.id })).toMatchObject({ status: 'done', attempts: 1 });
    // Still the other instance's, as it left it.
    expect(await inbox.findOne({ _id: taken.id })).toMatchObject({ status: 'processing', attempts: 2 });
    await inbox.updateOne({ _id: taken.id }, { $set: { status: 'done', leaseUntil: null } });
  }, 60_000);

  it('an instance that stops gives back the events still waiting for a slot: another instance processes them at once, each once', async () => {
    const burst = await subscriptionUpdates('stop', PROCESS_CONCURRENCY + 10);
    const ids = burst.map((item) => item.id);
    const stopping = await startInstance();
    try {
      await Promise.all(burst.map((item) => deliver(item, { to: stopping }).expect(200)));
    } finally {
      // PROCESS_CONCURRENCY are being processed (finished before it stops), ten wait for a slot.
      await stopping.close();
    }
    const inbox = db.collection('stripe_events');
    const stopped = await inbox.find({ _id: { $in: ids } as never }).toArray();
    const given = stopped.filter((record) => record.status === 'pending');
    // Most of the ten that waited (one that got a slot before the stop was processed: done below).
    expect(given.length).toBeGreaterThan(0);
    // Given back as never tried, not left claimed until a lease runs out.
    for (const record of given) expect(record).toMatchObject({ attempts: 0, leaseUntil: null });
    for (const record of stopped.filter((each) => each.status !== 'pending')) expect(record).toMatchObject({ status: 'done', attempts: 1 });
    // This instance's next tick takes them now (a lease would have kept them from it for a minute).
    expect(await webhooks.drain()).toBe(given.length);
    const records = await inbox.find({ _id: { $in: ids } as never }).toArray();
    expect(records.map(({ status, attempts }) => ({ status, attempts }))).toEqual(ids.map(() => ({ status: 'done', attempts: 1 })));
  }, 60_000);
});

/* ------------------------------------------------------------------------------------------------
 * Manual orders, receipts, account data
 * ---------------------------------------------------------------------------------------------- */

describe('manual orders and account data', () => {
  it('an admin records a manual order: audited, the entitlement applied, a receipt for the owner only', async () => {
    const who = await newUser();
    const other = await newUser();
    const response = await admin.agent
      .post('/api/admin/billing/orders')
      .set('x-csrf-token', admin.token)
      .send({ userId: who.user.id, planId: 'solo-yearly', note: 'Bank transfer 2026-11-20' })
      .expect(201);
    const orderId = response.body.id as string;
    expect(response.body).toMatchObject({
      kind: 'manual',
      status: 'paid',
      amountMinor: 9000,
      receiptUrl: `/api/billing/orders/${orderId}/receipt`,
    });
    expect(response.body.receiptNumber).toMatch(/^HS-\d{8}-[A-Z2-7]{8}$/);
    expect(await db.collection('audit_log').findOne({ action: 'billing.order.manual', 'target.id': orderId })).toMatchObject({
      target: { type: 'order', label: who.email },
    });
    const entitlement = sink.latest(orderId)!;
    expect(entitlement).toMatchObject({ source: { kind: 'order', id: orderId }, state: 'active', planId: 'solo-yearly', seats: 1 });
    expect(entitlement.expiresAt!.getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);

    const receipt = await who.agent.get(`/api/billing/orders/${orderId}/receipt`).expect(200);
    expect(receipt.headers['content-type']).toMatch(/^text\/html/);
    expect(receipt.text).toContain(response.body.receiptNumber);
    expect(receipt.text).toContain('€90.00');
    await other.agent.get(`/api/billing/orders/${orderId}/receipt`).expect(404);
    await admin.agent.get(`/api/billing/orders/${orderId}/receipt`).expect(200);
    const overview = await admin.agent.get(`/api/admin/billing/users/${who.user.id}`).expect(200);
    expect(overview.body).toMatchObject({ orders: [{ id: orderId, kind: 'manual' }], subscription: null, stripeCustomerId: null });
    await who.agent
      .post('/api/admin/billing/orders')
      .set('x-csrf-token', who.token)
      .send({ userId: who.user.id, planId: 'solo-yearly' })
      .expect(403);
  });

  it('exports orders and subscriptions; deleting the account cancels at Stripe and keeps the orders without the person', async () => {
    const scenario = await subscriptionLife();
    await deliverAll(scenario.events.slice(0, 4));
    const user = await db.collection('users').findOne({ _id: new (await import('mongodb')).ObjectId(scenario.userId) });
    const agent = request.agent(app.getHttpServer());
    const csrf = (await agent.get('/api/auth/csrf')).body.token as string;
    await agent.post('/api/auth/login').set('x-csrf-token', csrf).send({ email: user!.email, password: PASSWORD }).expect(200);
    const token = (await agent.get('/api/auth/csrf')).body.token as string;
    const exported = await agent.get('/api/profile/export').expect(200);
    expect(exported.body.billing.orders.map((entry: { id: string }) => entry.id)).toEqual([scenario.orderId]);
    expect(exported.body.billing.subscriptions).toEqual([expect.objectContaining({ id: scenario.subscriptionId, status: 'active' })]);

    await agent
      .delete('/api/profile')
      .set('x-csrf-token', token)
      .send({ currentPassword: PASSWORD, confirm: 'DELETE' })
      .expect((response) => {
        if (response.status >= 300) throw new Error(`delete answered ${response.status}: ${response.text}`);
      });
    expect(stripeProxy.calls('DELETE', `/v1/subscriptions/${scenario.subscriptionId}`)).toHaveLength(1);
    expect(await order(scenario.orderId)).toMatchObject({ userId: null, status: 'paid', amountMinor: 2900 });
    expect(await mirror(scenario.subscriptionId)).toBeNull();
    expect(await db.collection('billing_customers').countDocuments({ _id: scenario.userId as never })).toBe(0);
  });
});

describe('webhook events for admins', () => {
  it('an event that keeps failing ends dead after the back-off; admins see it and retry it once the cause is fixed', async () => {
    const who = await newUser();
    const { orderId } = await checkout(who, 'solo-lifetime');
    // A session naming an order this database does not have (yet).
    const missing = newOrderId();
    const completed = stripeEvent(
      'checkout.session.completed',
      Math.floor(Date.now() / 1000),
      await objects.checkoutSession({
        id: unique('cs_test'),
        client_reference_id: missing,
        mode: 'payment',
        payment_status: 'paid',
        payment_intent: unique('pi'),
      }),
    );
    await deliver(completed).expect(200);
    await webhooks.settle();
    // Five retries with back-off (30 s … 6 h), each run as if its time had come.
    let clock = Date.now();
    for (const delay of [30_000, 120_000, 600_000, 3_600_000, 21_600_000]) {
      clock += delay + 1000;
      await webhooks.drain(() => new Date(clock));
    }
    const stored = await db.collection('stripe_events').findOne({ _id: completed.id as never });
    expect(stored).toMatchObject({ status: 'dead', attempts: 6, nextAttemptAt: null });
    expect(stored!.outcome).toMatch(/NotReadyError: Order ord_\w+ is not known/);

    const list = await admin.agent.get('/api/admin/billing/events?status=dead').expect(200);
    expect(list.body.counts.dead).toBeGreaterThanOrEqual(1);
    expect(list.body.events.find((item: { id: string }) => item.id === completed.id)).toMatchObject({
      type: 'checkout.session.completed',
      attempts: 6,
    });
    expect(list.body.events[0]).not.toHaveProperty('payload');
    await admin.agent.get('/api/admin/billing/events?status=bogus').expect(400);

    // The cause fixed (here: the order made under that id), an admin retries: processed at once, audited.
    const template = (await order(orderId))!;
    await db.collection<Doc>('orders').insertOne({ ...template, _id: missing, stripe: { ...template.stripe, checkoutSessionId: null } });
    await admin.agent.post(`/api/admin/billing/events/${completed.id}/retry`).set('x-csrf-token', admin.token).expect(202);
    expect(await db.collection('stripe_events').findOne({ _id: completed.id as never })).toMatchObject({ status: 'done', attempts: 1 });
    expect(await order(missing)).toMatchObject({ status: 'paid' });
    expect(await db.collection('audit_log').findOne({ action: 'billing.event.retry', 'target.id': completed.id })).toMatchObject({
      before: { status: 'dead', attempts: 6 },
    });
    const again = await admin.agent.post(`/api/admin/billing/events/${completed.id}/retry`).set('x-csrf-token', admin.token).expect(404);
    expect(again.body.code).toBe('NOTHING_TO_RETRY');
    await who.agent.get('/api/admin/billing/events').expect(403);
  });

  it('lists the newest 50 events of a status first, whether few of them (sorted here) or many (sorted by the database)', async () => {
    // Received in the future, so they are the newest of their status whatever the other tests stored.
    const future = Date.now() + 86_400_000;
    const stored = (status: string, count: number) =>
      Array.from({ length: count }, (_, n) => ({
        _id: unique(`evt_list_${status}_${n}`),
        type: 'invoice.paid',
        created: Math.floor(future / 1000),
        apiVersion: null,
        payload: null,
        status,
        attempts: 1,
        nextAttemptAt: null,
        leaseUntil: null,
        outcome: 'stored by the test',
        // Shuffled arrival order: the list must sort, not follow insertion.
        receivedAt: new Date(future + ((n * 7919) % count) * 1000),
      }));
    const few = stored('dead', 60);
    const many = stored('ignored', 600);
    await db.collection<Doc>('stripe_events').insertMany([...few, ...many]);
    const newestIds = (records: Array<{ _id: string; receivedAt: Date }>) =>
      [...records]
        .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime())
        .slice(0, 50)
        .map((record) => record._id);
    for (const [status, records] of [
      ['dead', few],
      ['ignored', many],
    ] as const) {
      const list = await admin.agent.get(`/api/admin/billing/events?status=${status}`).expect(200);
      expect(list.body.counts[status]).toBeGreaterThanOrEqual(records.length);
      expect(list.body.events.map((item: { id: string }) => item.id)).toEqual(newestIds(records));
    }
  });
});

describe('daily reconcile', () => {
  it('refreshes every running subscription from Stripe once a day (one instance claims the day)', async () => {
    const scenario = await subscriptionLife();
    await deliverAll(scenario.events.slice(0, 4));
    const before = (await mirror(scenario.subscriptionId))!;
    const reconcile = app.get(ReconcileService);
    const day = new Date('2031-01-15T03:00:00Z');
    const refreshed = await reconcile.reconcile(day);
    expect(refreshed).toBeGreaterThan(0);
    expect(stripeProxy.calls('GET', `/v1/subscriptions/${scenario.subscriptionId}`)).toHaveLength(1);
    // stripe-mock answers a fixture: what matters is that its state is now the mirror's, dated now,
    // and that what the fixture does not know (the person, the plan) is kept.
    expect(await mirror(scenario.subscriptionId)).toMatchObject({
      stripeEventAt: Math.floor(day.getTime() / 1000),
      userId: before.userId,
      planId: 'team-monthly',
    });
    expect(await reconcile.reconcile(new Date('2031-01-15T21:00:00Z'))).toBe(0);
  }, 60_000);
});
