/**
 * The buyer's journey on the server (issue 23): the real app in-process with the real licences
 * module (keys made, encrypted, decrypted for the mail), a real SMTP exchange (SmtpSink), and
 * stripe-mock behind a recording proxy. stripe-mock is stateless, so where a test needs Stripe to
 * remember something (a Checkout Session that was paid), the proxy answers with stripe-mock's own
 * fixture for that request plus the fields Stripe would have (RecordingHttpProxy.answer); every call
 * still reaches stripe-mock, which checks its shape against Stripe's schema.
 */
import { Global, Module } from '@nestjs/common';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import { parseKey } from '../../lib/licences/key.js';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { BILLING_POLL_MS } from '../../src/billing/billing-poll.js';
import { StripeCatalogueService } from '../../src/billing/stripe-catalogue.service.js';
import { WebhookService } from '../../src/billing/webhook.service.js';
import { loadConfig } from '../../src/config/app-config.js';
import { MailService } from '../../src/mail/mail.service.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { type Agent, signUp } from '../support/e2e.js';
import { RecordingHttpProxy } from '../support/recording-http-proxy.js';
import { type ReceivedMail, SmtpSink } from '../support/smtp-sink.js';
import { StripeObjects, stripeEvent, type StripeTestEvent, stripeSignature } from '../support/stripe-events.js';
import { testDatabaseUri } from '../support/test-database.js';

const SECRET = 'whsec_journeysecret1234567';
const ADMIN = 'journey-admin@example.test';
const PUBLIC_URL = 'http://shop.hitscope.test';

@Global()
@Module({ providers: [{ provide: BILLING_POLL_MS, useValue: 0 }], exports: [BILLING_POLL_MS] })
class TestBindingsModule {}

let app: NestExpressApplication;
let db: Db;
let mongo: MongoClient;
let stripe: RecordingHttpProxy;
let objects: StripeObjects;
let webhooks: WebhookService;
let smtp: SmtpSink;
let mongodbUri: string;
let admin: { agent: Agent; token: string };
let sequence = 0;
const unique = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(++sequence).toString(36)}`;
const now = () => Math.floor(Date.now() / 1000);

beforeAll(async () => {
  const mockUrl = process.env.HITSCOPE_TEST_STRIPE_API_BASE;
  if (!mockUrl) throw new Error('HITSCOPE_TEST_STRIPE_API_BASE is not set: global setup starts stripe-mock');
  stripe = new RecordingHttpProxy(mockUrl);
  const stripeBase = await stripe.start();
  objects = new StripeObjects(mockUrl);
  smtp = new SmtpSink();
  const smtpUrl = await smtp.start();
  mongodbUri = testDatabaseUri('billing-journey');
  const config = loadConfig({
    NODE_ENV: 'test',
    MONGODB_URI: mongodbUri,
    LOG_LEVEL: 'error',
    PORT: '0',
    PUBLIC_URL,
    ADMIN_EMAILS: ADMIN,
    RATE_LIMIT_MULTIPLIER: '1000',
    SMTP_URL: smtpUrl,
    STRIPE_SECRET_KEY: 'sk_test_journeysuite123',
    STRIPE_WEBHOOK_SECRET: SECRET,
    STRIPE_API_BASE: stripeBase,
  });
  const renderer = await createProductionRenderer();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, mongodbUri, renderer }), TestBindingsModule],
  }).compile();
  app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
  installRequestHandling(app, config);
  await app.init();
  webhooks = app.get(WebhookService);
  mongo = await MongoClient.connect(mongodbUri);
  db = mongo.db();
  admin = await signUp({ agent: request.agent(app.getHttpServer()), email: ADMIN, database: mongodbUri });
}, 60_000);

afterAll(async () => {
  await mongo?.close();
  await app?.close();
  await stripe?.stop();
  await smtp?.stop();
});

afterEach(() => stripe.clearAnswers());

const newUser = () => signUp({ agent: request.agent(app.getHttpServer()), database: mongodbUri });

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Doc = { _id: string } & Record<string, any>;
const order = (id: string) => db.collection<Doc>('orders').findOne({ _id: id });
const customerOf = async (userId: string) =>
  (await db.collection<Doc>('billing_customers').findOne({ _id: userId }))!.stripeCustomerId as string;
const mirror = (id: string) => db.collection<Doc>('subscriptions').findOne({ _id: id });

async function deliver(events: StripeTestEvent[], times = 1): Promise<void> {
  for (const event of events) {
    const body = JSON.stringify(event);
    for (let i = 0; i < times; i += 1) {
      await request(app.getHttpServer())
        .post('/api/billing/webhook')
        .set('content-type', 'application/json; charset=utf-8')
        .set('stripe-signature', stripeSignature(body, SECRET))
        .send(body)
        .expect(200);
    }
  }
  await webhooks.settle();
  await webhooks.drain(() => new Date(Date.now() + 7 * 86_400_000));
}

async function checkout(who: { agent: Agent; token: string }, planId: string) {
  const response = await who.agent.post('/api/billing/checkout').set('x-csrf-token', who.token).send({ planId });
  if (response.status !== 201) throw new Error(`checkout answered ${response.status}: ${response.text}`);
  const { orderId } = response.body as { orderId: string };
  return { orderId, sessionId: (await order(orderId))!.stripe.checkoutSessionId as string };
}

/** A received mail's text, quoted-printable undone and read as UTF-8 (the sink's `body` undoes it byte by byte). */
const textOf = (mail: ReceivedMail) => Buffer.from(mail.body, 'latin1').toString('utf8');

/** The mails the sink received for `email` whose subject matches, after the outbox had time to send. */
async function mailsTo(email: string, subject: RegExp, atLeast = 1): Promise<ReceivedMail[]> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const found = smtp.received.filter((mail) => mail.to.includes(email) && subject.test(mail.subject));
    if (found.length >= atLeast || Date.now() > deadline) return found;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** What Stripe says of a paid Checkout Session of `orderId` (stripe-mock's fixture, with the facts of a payment). */
const paidSession =
  (orderId: string, sessionId: string, extra: Record<string, unknown> = {}) =>
  (fixture: Record<string, unknown>) => ({
    ...fixture,
    id: sessionId,
    client_reference_id: orderId,
    status: 'complete',
    payment_status: 'paid',
    mode: 'payment',
    subscription: null,
    consent: { promotions: null, terms_of_service: 'accepted' },
    ...extra,
  });

const licencesOf = (userId: string) => db.collection<Doc>('licences').find({ userId }).toArray();

describe('fulfilment: one function for the webhook and the success page, exactly once', () => {
  it('the success page first: Stripe says paid, the purchase is fulfilled and confirmed by mail; the webhook after it changes nothing', async () => {
    const who = await newUser();
    const { orderId, sessionId } = await checkout(who, 'solo-lifetime');
    stripe.answer(
      'GET',
      new RegExp(`^/v1/checkout/sessions/${sessionId}$`),
      paidSession(orderId, sessionId, { payment_intent: unique('pi') }),
    );

    const confirmed = await who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200);
    expect(confirmed.body).toEqual({
      orderId,
      planId: 'solo-lifetime',
      interval: 'lifetime',
      orderStatus: 'paid',
      stage: 'active',
      licences: [
        { product: 'hitscope-for-apps', valid: true },
        { product: 'hitscope-for-browsers', valid: true },
      ],
    });
    const retrieve = stripe.calls('GET', `/v1/checkout/sessions/${sessionId}`);
    expect(retrieve).toHaveLength(1);
    expect(retrieve[0].params).toEqual({ 'expand[0]': 'subscription' });
    const paid = await order(orderId);
    expect(paid).toMatchObject({ status: 'paid', termsAcceptedAt: expect.any(Date) });
    const licences = await licencesOf(who.user.id);
    expect(licences.map((licence) => licence.product).sort()).toEqual(['hitscope-for-apps', 'hitscope-for-browsers']);

    // The webhook arrives afterwards, three times (Stripe retries): the same order, the same licences, no second mail.
    await deliver(
      [
        stripeEvent(
          'checkout.session.completed',
          now() + 5,
          await objects.checkoutSession(paidSession(orderId, sessionId, { payment_intent: paid!.stripe.paymentIntentId })({})),
        ),
      ],
      3,
    );
    expect(await order(orderId)).toMatchObject({ status: 'paid', paidAt: paid!.paidAt });
    expect((await licencesOf(who.user.id)).map((licence) => String(licence._id)).sort()).toEqual(licences.map((l) => String(l._id)).sort());
    // And the page asked again (a reload): it reads, it does not ask Stripe about a paid order.
    await who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200);
    expect(stripe.calls('GET', `/v1/checkout/sessions/${sessionId}`)).toHaveLength(1);

    const mails = await mailsTo(who.email, /^Your Hitscope order: Solo lifetime$/);
    // Marked on the order: later events see it there and do not ask the outbox again.
    expect(await order(orderId)).toMatchObject({ mailQueuedAt: expect.any(Date) });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(smtp.received.filter((mail) => mail.to.includes(who.email) && /order/.test(mail.subject))).toHaveLength(1);
    const body = textOf(mails[0]);
    // What was bought, what it cost, the keys (exactly the stored ones) and where to download.
    const keys = [...body.matchAll(/\b(HS[AB](?:-[0-9A-Z]{5}){4}-[0-9A-Z])\b/g)].map((match) => match[1]);
    expect(new Set(keys).size).toBe(2);
    for (const key of keys) expect(parseKey(key)).not.toBeNull();
    expect(body).toContain('Solo lifetime (one-off payment, never expires)');
    expect(body).toContain('Hitscope for Apps and Hitscope for Browsers');
    expect(body).toContain('€199.00');
    expect(body).toContain(`${PUBLIC_URL}/dashboard/tools/hitscope-for-apps`);
    expect(body).toContain(`${PUBLIC_URL}/dashboard/tools/hitscope-for-browsers`);
    expect(body).toContain(`${PUBLIC_URL}/dashboard/user/licenses`);
    const owned = await who.agent.get('/api/licences').expect(200);
    expect(new Set(keys)).toEqual(new Set((owned.body.licences as Array<{ key: string }>).map((licence) => licence.key)));
  });

  it('the webhook first: the success page finds it paid and asks Stripe nothing; a session still open only waits', async () => {
    const who = await newUser();
    const { orderId, sessionId } = await checkout(who, 'solo-lifetime');
    // Returned before Stripe said anything: stripe-mock's session is `open` and names no order, so nothing is fulfilled.
    const waiting = await who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200);
    expect(waiting.body).toMatchObject({ orderStatus: 'pending', stage: 'confirming', licences: [] });
    await who.agent.get(`/api/billing/checkout/progress?sessionId=${sessionId}`).expect(200, waiting.body);

    await deliver([
      stripeEvent(
        'checkout.session.completed',
        now(),
        await objects.checkoutSession(paidSession(orderId, sessionId, { payment_intent: unique('pi') })({})),
      ),
    ]);
    const progress = await who.agent.get(`/api/billing/checkout/progress?sessionId=${sessionId}`).expect(200);
    expect(progress.body).toMatchObject({ orderStatus: 'paid', stage: 'active' });
    const retrieves = stripe.calls('GET', `/v1/checkout/sessions/${sessionId}`).length;
    await who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200);
    expect(stripe.calls('GET', `/v1/checkout/sessions/${sessionId}`)).toHaveLength(retrieves);
    expect(await mailsTo(who.email, /^Your Hitscope order/)).toHaveLength(1);
  });

  it('the webhook and the success page at the same moment: one payment date, one set of licences, one mail', async () => {
    const who = await newUser();
    const { orderId, sessionId } = await checkout(who, 'solo-lifetime');
    const paymentIntent = unique('pi');
    stripe.answer(
      'GET',
      new RegExp(`^/v1/checkout/sessions/${sessionId}$`),
      paidSession(orderId, sessionId, { payment_intent: paymentIntent }),
    );
    const event = stripeEvent(
      'checkout.session.completed',
      now(),
      await objects.checkoutSession(paidSession(orderId, sessionId, { payment_intent: paymentIntent })({})),
    );
    await Promise.all([
      deliver([event]),
      who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200),
      who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200),
    ]);
    expect(await order(orderId)).toMatchObject({ status: 'paid' });
    expect(await licencesOf(who.user.id)).toHaveLength(2);
    expect(await db.collection('mail_outbox').countDocuments({ to: who.email, subject: /^Your Hitscope order/ })).toBe(1);
    await mailsTo(who.email, /^Your Hitscope order/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((mail) => mail.to.includes(who.email) && /^Your Hitscope order/.test(mail.subject))).toHaveLength(1);
  });

  it('a subscription: the success page applies the session’s subscription and the order’s licences follow; the mail waits for the licences', async () => {
    const who = await newUser();
    const { orderId, sessionId } = await checkout(who, 'team-monthly');
    const subscriptionId = unique('sub');
    const periodEnd = now() + 30 * 86400;
    const metadata = { orderId, planId: 'team-monthly', userId: who.user.id };
    const subscription = await objects.subscription({
      id: subscriptionId,
      customer: await customerOf(who.user.id),
      status: 'active',
      quantity: 1,
      periodEnd,
      metadata,
    });
    stripe.answer(
      'GET',
      new RegExp(`^/v1/checkout/sessions/${sessionId}$`),
      paidSession(orderId, sessionId, { mode: 'subscription', subscription }),
    );
    const confirmed = await who.agent.post('/api/billing/checkout/confirm').set('x-csrf-token', who.token).send({ sessionId }).expect(200);
    expect(confirmed.body).toMatchObject({ orderStatus: 'paid', stage: 'active', interval: 'month' });
    expect(await mirror(subscriptionId)).toMatchObject({ userId: who.user.id, planId: 'team-monthly', status: 'active' });
    expect(await order(orderId)).toMatchObject({ stripe: expect.objectContaining({ subscriptionId }) });
    const [mail] = await mailsTo(who.email, /^Your Hitscope order: Team$/);
    expect(textOf(mail)).toContain(`Team (billed every month, renews on ${new Date(periodEnd * 1000).toISOString().slice(0, 10)})`);
    expect(textOf(mail)).toContain(`${PUBLIC_URL}/dashboard/user/subscription`);
    const view = await who.agent.get('/api/billing/subscription').expect(200);
    expect(view.body.subscriptions).toEqual([
      expect.objectContaining({ id: subscriptionId, products: ['hitscope-for-apps', 'hitscope-for-browsers'] }),
    ]);
    expect(view.body.purchases).toEqual([]);
  });

  it('refuses another person’s session and a malformed session id', async () => {
    const [owner, other] = [await newUser(), await newUser()];
    const { sessionId } = await checkout(owner, 'solo-lifetime');
    const refused = await other.agent
      .post('/api/billing/checkout/confirm')
      .set('x-csrf-token', other.token)
      .send({ sessionId })
      .expect(404);
    expect(refused.body.code).toBe('CHECKOUT_NOT_FOUND');
    await other.agent.get(`/api/billing/checkout/progress?sessionId=${sessionId}`).expect(404);
    const bad = await owner.agent
      .post('/api/billing/checkout/confirm')
      .set('x-csrf-token', owner.token)
      .send({ sessionId: 'pi_123' })
      .expect(400);
    expect(bad.body.fields.sessionId).toEqual(['sessionId must be a Stripe Checkout session id (cs_…)']);
    await owner.agent.get('/api/billing/checkout/progress').expect(400);
  });
});

describe('the outbox under a race', () => {
  it('stores one message for one idempotency key, even when ten callers enqueue it at the same moment', async () => {
    const mail = app.get(MailService);
    const key = `billing:race:${unique('k')}`;
    const ids = await Promise.all(
      Array.from({ length: 10 }, () => mail.enqueue({ to: 'race@example.test', subject: 'Race', text: 'once', idempotencyKey: key })),
    );
    expect(new Set(ids).size).toBe(1);
    expect(await db.collection('mail_outbox').countDocuments({ idempotencyKey: key })).toBe(1);
  });
});

describe('what a person owns', () => {
  it('lists a one-off purchase with its state; a refund in full revokes it and says so by mail, once', async () => {
    const who = await newUser();
    const { orderId, sessionId } = await checkout(who, 'solo-lifetime');
    const ids = { paymentIntent: unique('pi'), charge: unique('ch') };
    await deliver([
      stripeEvent(
        'checkout.session.completed',
        now(),
        await objects.checkoutSession(paidSession(orderId, sessionId, { payment_intent: ids.paymentIntent })({})),
      ),
    ]);
    const before = await who.agent.get('/api/billing/subscription').expect(200);
    expect(before.body).toEqual({
      subscription: null,
      subscriptions: [],
      purchases: [
        {
          orderId,
          planId: 'solo-lifetime',
          kind: 'checkout',
          products: ['hitscope-for-apps', 'hitscope-for-browsers'],
          seats: 1,
          amountMinor: 19900,
          currency: 'eur',
          paidAt: expect.any(String),
          state: 'active',
          expiresAt: null,
        },
      ],
    });
    const refund = stripeEvent('charge.refunded', now() + 1, {
      id: ids.charge,
      object: 'charge',
      amount: 19900,
      amount_refunded: 19900,
      refunded: true,
      payment_intent: ids.paymentIntent,
      currency: 'eur',
    });
    await deliver([refund], 2);
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body.purchases[0]).toMatchObject({ state: 'revoked' });
    const [mail] = await mailsTo(who.email, /licence is revoked after a refund/);
    expect(textOf(mail)).toContain(`order ${orderId}`);
    expect(textOf(mail)).toContain('stop accepting its key');
    expect(await db.collection('mail_outbox').countDocuments({ to: who.email, subject: /revoked/ })).toBe(1);
  });

  it('a dispute suspends with a mail, winning it restores with another; each once however often Stripe says it', async () => {
    const who = await newUser();
    const { orderId, sessionId } = await checkout(who, 'solo-lifetime');
    const ids = { paymentIntent: unique('pi'), charge: unique('ch'), dispute: unique('dp') };
    await deliver([
      stripeEvent(
        'checkout.session.completed',
        now(),
        await objects.checkoutSession(paidSession(orderId, sessionId, { payment_intent: ids.paymentIntent })({})),
      ),
    ]);
    const dispute = (type: string, status: string, created: number) =>
      stripeEvent(type, created, {
        id: ids.dispute,
        object: 'dispute',
        charge: ids.charge,
        payment_intent: ids.paymentIntent,
        status,
        amount: 19900,
      });
    await deliver(
      [dispute('charge.dispute.created', 'needs_response', now()), dispute('charge.dispute.updated', 'under_review', now() + 1)],
      2,
    );
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body.purchases[0]).toMatchObject({ state: 'suspended' });
    expect(await mailsTo(who.email, /suspended during a payment dispute/)).toHaveLength(1);
    await deliver([dispute('charge.dispute.closed', 'won', now() + 2)], 2);
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body.purchases[0]).toMatchObject({ state: 'active' });
    expect(await mailsTo(who.email, /is active again/)).toHaveLength(1);
    expect(await db.collection('mail_outbox').countDocuments({ to: who.email, subject: /licence is/ })).toBe(2);
  });

  it('sends a receipt for each paid renewal, once per invoice', async () => {
    const who = await newUser();
    const { orderId } = await checkout(who, 'team-monthly');
    const subscriptionId = unique('sub');
    const customer = await customerOf(who.user.id);
    const metadata = { orderId, planId: 'team-monthly', userId: who.user.id };
    const periodEnd = now() + 60 * 86400;
    await deliver([
      stripeEvent(
        'customer.subscription.created',
        now() - 10,
        await objects.subscription({ id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd, metadata }),
      ),
    ]);
    const renewal = unique('in');
    const invoice = await objects.invoice(renewal, {
      customer,
      billing_reason: 'subscription_cycle',
      amount_paid: 2900,
      currency: 'eur',
      hosted_invoice_url: `https://invoice.stripe.com/i/${renewal}`,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata } },
    });
    await deliver([stripeEvent('invoice.paid', now(), invoice)], 3);
    const receipts = await mailsTo(who.email, /^Receipt for your Hitscope subscription \(Team\)$/);
    expect(receipts).toHaveLength(1);
    expect(textOf(receipts[0])).toContain('€29.00');
    expect(textOf(receipts[0])).toContain(`https://invoice.stripe.com/i/${renewal}`);
    expect(textOf(receipts[0])).toContain(`valid until ${new Date(periodEnd * 1000).toISOString().slice(0, 10)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(smtp.received.filter((mail) => mail.to.includes(who.email) && /^Receipt/.test(mail.subject))).toHaveLength(1);
  });
});

describe('changes apply Stripe’s answer at once, guarded against older events', () => {
  async function subscribed(planId = 'team-monthly', created = now() - 100) {
    const who = await newUser();
    const { orderId } = await checkout(who, planId);
    const subscriptionId = unique('sub');
    const customer = await customerOf(who.user.id);
    const metadata = { orderId, planId, userId: who.user.id };
    const periodEnd = now() + 30 * 86400;
    await deliver([
      stripeEvent(
        'customer.subscription.created',
        created,
        await objects.subscription({ id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd, metadata }),
      ),
    ]);
    return { who, subscriptionId, customer, metadata, periodEnd };
  }

  it('cancel and resume show at once (the answer through the webhooks’ reducer); an older event arriving later is ignored, a newer one applies', async () => {
    const { who, subscriptionId, customer, metadata, periodEnd } = await subscribed();
    const cancelled = await who.agent.post('/api/billing/subscription/cancel').set('x-csrf-token', who.token).send({}).expect(202);
    // stripe-mock reflects `cancel_at_period_end` from the request; the rest of its answer is its fixture.
    expect(cancelled.body).toMatchObject({
      requested: 'cancel_at_period_end',
      subscription: { id: subscriptionId, cancelAtPeriodEnd: true },
    });
    const stored = (await mirror(subscriptionId))!;
    expect(stored).toMatchObject({ cancelAtPeriodEnd: true, userId: who.user.id, planId: 'team-monthly' });
    expect(Math.abs(stored.stripeEventAt - now())).toBeLessThan(5);
    expect((await who.agent.get('/api/billing/subscription').expect(200)).body.subscriptions[0]).toMatchObject({ cancelAtPeriodEnd: true });

    // The update Stripe made before the cancel (an event created earlier) arrives late: ignored.
    const older = stripeEvent(
      'customer.subscription.updated',
      stored.stripeEventAt - 30,
      await objects.subscription({ id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd, metadata }),
    );
    await deliver([older]);
    expect(await mirror(subscriptionId)).toMatchObject({ cancelAtPeriodEnd: true, stripeEventAt: stored.stripeEventAt });
    expect(await db.collection('stripe_events').findOne({ _id: older.id as never })).toMatchObject({
      status: 'done',
      outcome: expect.stringMatching(/older than the stored state, ignored/),
    });

    const resumed = await who.agent
      .post('/api/billing/subscription/resume')
      .set('x-csrf-token', who.token)
      .send({ subscriptionId })
      .expect(202);
    expect(resumed.body.subscription).toMatchObject({ cancelAtPeriodEnd: false });
    expect(await mirror(subscriptionId)).toMatchObject({ cancelAtPeriodEnd: false });

    // A newer event (Stripe's next word) still wins over the answer.
    await deliver([
      stripeEvent(
        'customer.subscription.updated',
        now() + 60,
        await objects.subscription({ id: subscriptionId, customer, status: 'past_due', quantity: 2, periodEnd, metadata }),
      ),
    ]);
    expect(await mirror(subscriptionId)).toMatchObject({ status: 'past_due', quantity: 2 });
    await who.agent
      .post('/api/billing/subscription/cancel')
      .set('x-csrf-token', who.token)
      .send({ subscriptionId: 'sub_notmine' })
      .expect(404);
    const bad = await who.agent
      .post('/api/billing/subscription/cancel')
      .set('x-csrf-token', who.token)
      .send({ subscriptionId: 'nope' })
      .expect(400);
    expect(bad.body.fields.subscriptionId).toEqual(['subscriptionId must be a Stripe subscription id (sub_…)']);
  });

  it('previews a switch with Stripe’s prorations and confirms it at the same proration date, through the plan’s synced recurring Price', async () => {
    const { who, subscriptionId } = await subscribed('solo-monthly');
    const preview = await who.agent
      .get(`/api/billing/subscription/plan-preview?planId=team-yearly&subscriptionId=${subscriptionId}&quantity=1`)
      .expect(200);
    const synced = await db.collection<Doc>('billing_stripe_prices').findOne({ _id: 'team-yearly' });
    const call = stripe.calls('POST', '/v1/invoices/create_preview').at(-1)!;
    expect(call.params).toMatchObject({
      subscription: subscriptionId,
      'subscription_details[items][0][price]': synced!.priceId,
      'subscription_details[items][0][quantity]': '1',
      'subscription_details[proration_behavior]': 'create_prorations',
      'subscription_details[proration_date]': String(preview.body.prorationDate),
    });
    expect(call.params['subscription_details[items][0][id]']).toMatch(/^si_/);
    // stripe-mock's preview: one line of 1000 (its fixture) marked as a proration.
    expect(preview.body).toMatchObject({
      subscriptionId,
      planId: 'team-yearly',
      quantity: 1,
      currency: 'usd',
      prorationMinor: 1000,
      totalMinor: 1000,
      lines: [{ description: expect.any(String), amountMinor: 1000, proration: true }],
    });
    const changed = await who.agent
      .post('/api/billing/subscription/plan')
      .set('x-csrf-token', who.token)
      .send({ planId: 'team-yearly', subscriptionId, prorationDate: preview.body.prorationDate })
      .expect(202);
    expect(changed.body).toMatchObject({ requested: 'change_plan', subscriptionId });
    expect(stripe.calls('POST', `/v1/subscriptions/${subscriptionId}`).at(-1)!.params).toMatchObject({
      'items[0][price]': synced!.priceId,
      proration_date: String(preview.body.prorationDate),
      proration_behavior: 'create_prorations',
      'metadata[planId]': 'team-yearly',
    });
    // A preview an hour old is refused: its prorations no longer hold.
    const stale = await who.agent
      .post('/api/billing/subscription/plan')
      .set('x-csrf-token', who.token)
      .send({ planId: 'team-yearly', subscriptionId, prorationDate: now() - 7200 })
      .expect(409);
    expect(stale.body.code).toBe('PREVIEW_STALE');
    await who.agent.get('/api/billing/subscription/plan-preview?planId=team-yearly&quantity=0').expect(400);
  });
});

describe('a subscriber and the other product', () => {
  const plan = async (id: string, products: string[], amountMinor: number) => {
    await admin.agent
      .post('/api/admin/catalogue/plans')
      .set('x-csrf-token', admin.token)
      .send({ id, name: id, products, amountMinor, currency: 'eur', interval: 'month', seats: 1 })
      .expect(201);
  };

  it('may buy a subscription for the product they lack, not a second one for a product they have; a switch may not overlap another subscription', async () => {
    const suffix = Date.now().toString(36);
    const [appsPlan, browsersPlan] = [`apps-${suffix}`, `browsers-${suffix}`];
    await plan(appsPlan, ['hitscope-for-apps'], 1500);
    await plan(browsersPlan, ['hitscope-for-browsers'], 1000);
    const who = await newUser();
    const first = await checkout(who, appsPlan);
    const appsSubscription = unique('sub');
    const customer = await customerOf(who.user.id);
    await deliver([
      stripeEvent(
        'customer.subscription.created',
        now(),
        await objects.subscription({
          id: appsSubscription,
          customer,
          status: 'active',
          quantity: 1,
          periodEnd: now() + 30 * 86400,
          metadata: { orderId: first.orderId, planId: appsPlan, userId: who.user.id },
        }),
      ),
    ]);
    // The other product: a second subscription.
    await checkout(who, browsersPlan);
    // A product they have: refused, with what to do instead.
    const twice = await who.agent.post('/api/billing/checkout').set('x-csrf-token', who.token).send({ planId: 'team-monthly' }).expect(409);
    expect(twice.body).toMatchObject({
      code: 'ALREADY_SUBSCRIBED',
      message: `You already have Hitscope for Apps through your ${appsPlan} (monthly) subscription: change that subscription's plan to Team (monthly) instead of buying a second one.`,
    });
    const again = await who.agent.post('/api/billing/checkout').set('x-csrf-token', who.token).send({ planId: appsPlan }).expect(409);
    expect(again.body.message).toBe(`You already have ${appsPlan} (monthly): nothing to buy.`);

    // With both running, a bundle overlaps both: neither checkout nor a switch of one of them.
    const browsersSubscription = unique('sub');
    await deliver([
      stripeEvent(
        'customer.subscription.created',
        now(),
        await objects.subscription({
          id: browsersSubscription,
          customer,
          status: 'active',
          quantity: 1,
          periodEnd: now() + 30 * 86400,
          metadata: { orderId: unique('ord'), planId: browsersPlan, userId: who.user.id },
        }),
      ),
    ]);
    const view = await who.agent.get('/api/billing/subscription').expect(200);
    expect(view.body.subscriptions.map((item: { id: string }) => item.id).sort()).toEqual([appsSubscription, browsersSubscription].sort());
    const overlap = await who.agent
      .post('/api/billing/checkout')
      .set('x-csrf-token', who.token)
      .send({ planId: 'team-monthly' })
      .expect(409);
    expect(overlap.body.message).toMatch(/covers products of more than one of your subscriptions/);
    const switchBoth = await who.agent
      .post('/api/billing/subscription/plan')
      .set('x-csrf-token', who.token)
      .send({ planId: 'team-monthly', subscriptionId: appsSubscription })
      .expect(409);
    expect(switchBoth.body.message).toBe(
      `Team (monthly) covers Hitscope for Apps and Hitscope for Browsers, which your ${browsersPlan} (monthly) subscription already covers: cancel that one at period end first, or choose a plan without its products.`,
    );
    // A one-off plan is always for sale.
    await checkout(who, 'solo-lifetime');
  });
});

describe('the catalogue in Stripe', () => {
  it('makes a new Price when a plan’s amount changes (new idempotency key, the lookup key moved, the old Price archived), nothing when nothing changed', async () => {
    const id = `sync-${Date.now().toString(36)}`;
    await admin.agent
      .post('/api/admin/catalogue/plans')
      .set('x-csrf-token', admin.token)
      .send({ id, name: 'Sync test', products: ['hitscope-for-apps'], amountMinor: 1200, currency: 'eur', interval: 'year', seats: 2 })
      .expect(201);
    const viewOf = async () =>
      ((await admin.agent.get('/api/admin/billing/stripe-catalogue').expect(200)).body as { plans: Array<{ planId: string }> }).plans.find(
        (entry) => entry.planId === id,
      );
    expect(await viewOf()).toEqual({ planId: id, mode: 'pending', priceId: null, productId: null, syncedAt: null });

    let started = stripe.requests.length;
    const synced = await admin.agent.post('/api/admin/billing/stripe-catalogue/sync').set('x-csrf-token', admin.token).expect(200);
    const first = synced.body.plans.find((entry: { planId: string }) => entry.planId === id);
    expect(first).toMatchObject({ mode: 'synced', productId: `hitscope_plan_${id}`, priceId: expect.stringMatching(/^price_/) });
    const made = stripe.requests
      .slice(started)
      .filter((call) => call.params.lookup_key === `hitscope_${id}` || call.path === '/v1/products');
    const product = made.find((call) => call.path === '/v1/products' && call.params.id === `hitscope_plan_${id}`)!;
    expect(product.params).toMatchObject({ name: 'Hitscope Sync test', description: 'Hitscope for Apps, 2 seats', 'metadata[planId]': id });
    expect(product.idempotencyKey).toMatch(new RegExp(`^catalogue:product:hitscope_plan_${id}:[0-9a-f]{16}$`));
    const price = made.find((call) => call.method === 'POST' && call.path === '/v1/prices')!;
    expect(price.params).toMatchObject({
      product: `hitscope_plan_${id}`,
      unit_amount: '1200',
      currency: 'eur',
      'recurring[interval]': 'year',
      lookup_key: `hitscope_${id}`,
      transfer_lookup_key: 'true',
    });
    const firstKey = price.idempotencyKey!;
    expect(firstKey).toMatch(new RegExp(`^catalogue:price:${id}:[0-9a-f]{16}$`));
    expect(await db.collection('audit_log').findOne({ action: 'billing.catalogue.sync' })).toMatchObject({
      target: { type: 'plan', id: 'stripe-catalogue' },
    });

    // In step: no Stripe call at all.
    started = stripe.requests.length;
    await app.get(StripeCatalogueService).syncAll();
    expect(stripe.requests.slice(started)).toEqual([]);

    // The amount changes: a Price cannot, so a new one is made under a new key, and the old one archived.
    await admin.agent.patch(`/api/admin/catalogue/plans/${id}`).set('x-csrf-token', admin.token).send({ amountMinor: 1500 }).expect(200);
    expect(await viewOf()).toMatchObject({ mode: 'pending', priceId: first.priceId });
    started = stripe.requests.length;
    await app.get(StripeCatalogueService).syncAll();
    const calls = stripe.requests.slice(started);
    expect(calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'GET /v1/prices',
      'POST /v1/prices',
      `POST /v1/prices/${first.priceId}`,
    ]);
    expect(calls[0].params).toMatchObject({ 'lookup_keys[0]': `hitscope_${id}`, active: 'true' });
    expect(calls[1].params).toMatchObject({ unit_amount: '1500', transfer_lookup_key: 'true' });
    expect(calls[1].idempotencyKey).not.toBe(firstKey);
    expect(calls[2].params).toEqual({ active: 'false' });
    expect(await viewOf()).toMatchObject({ mode: 'synced', priceId: expect.not.stringMatching(first.priceId) });

    // A new name changes the Product, not the Price.
    await admin.agent.patch(`/api/admin/catalogue/plans/${id}`).set('x-csrf-token', admin.token).send({ name: 'Sync renamed' }).expect(200);
    started = stripe.requests.length;
    await app.get(StripeCatalogueService).syncAll();
    expect(stripe.requests.slice(started).map((call) => `${call.method} ${call.path}`)).toEqual([`POST /v1/products/hitscope_plan_${id}`]);

    // An administrator's own Price wins and is left alone.
    await admin.agent
      .patch(`/api/admin/catalogue/plans/${id}`)
      .set('x-csrf-token', admin.token)
      .send({ stripePriceId: 'price_adminown' })
      .expect(200);
    expect(await viewOf()).toEqual({ planId: id, mode: 'price', priceId: 'price_adminown', productId: null, syncedAt: null });
    await admin.agent.post(`/api/admin/catalogue/plans/${id}/deactivate`).set('x-csrf-token', admin.token).expect(200);
  });
});
