import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import { DEFAULT_PLANS } from '../../lib/api/catalogue.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { CatalogueService } from '../../src/catalogue/catalogue.service.js';
import { loadConfig } from '../../src/config/app-config.js';
import { type Agent, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'catalogue-admin@example.test';

describe('catalogue: plans seeded once, public list, admin edits audited', () => {
  let running: RunningApp;
  let mongo: MongoClient;
  let db: Db;
  let admin: { agent: Agent; token: string };
  let user: { agent: Agent; token: string };
  const http = () => request(running.app.getHttpServer());
  const createPlan = (plan: Record<string, unknown>) =>
    admin.agent.post('/api/admin/catalogue/plans').set('x-csrf-token', admin.token).send(plan);

  beforeAll(async () => {
    running = await createApp(
      loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('catalogue'), LOG_LEVEL: 'error', PORT: '0', ADMIN_EMAILS: ADMIN }),
    );
    mongo = await MongoClient.connect(running.mongodbUri);
    db = mongo.db();
    [admin, user] = await Promise.all([
      signUp({ agent: request.agent(running.app.getHttpServer()), email: ADMIN, database: running.mongodbUri }),
      signUp({ agent: request.agent(running.app.getHttpServer()), database: running.mongodbUri }),
    ]);
  });

  afterAll(async () => {
    await mongo?.close();
    await running?.close();
  });

  it('seeds the six default plans on first start, and seeding again (another instance) inserts nothing', async () => {
    expect(await db.collection('plans').countDocuments()).toBe(DEFAULT_PLANS.length);
    expect(await running.app.get(CatalogueService).seed()).toBe(0);
    expect(await db.collection('plans').countDocuments()).toBe(DEFAULT_PLANS.length);
  });

  it('answers the active plans and both products publicly, cacheable, money in minor units', async () => {
    const response = await http().get('/api/catalogue').expect(200);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    expect(response.body.products).toEqual([
      { slug: 'hitscope-for-apps', name: 'Hitscope for Apps', kind: 'desktop app', licencePrefix: 'HSA', downloadsFree: false },
      {
        slug: 'hitscope-for-browsers',
        name: 'Hitscope for Browsers',
        kind: 'browser extension',
        licencePrefix: 'HSB',
        downloadsFree: false,
      },
    ]);
    expect(response.body.plans.map((plan: { id: string }) => plan.id)).toEqual(DEFAULT_PLANS.map((plan) => plan.id));
    expect(response.body.plans.find((plan: { id: string }) => plan.id === 'team-monthly')).toMatchObject({
      amountMinor: 2900,
      currency: 'eur',
      interval: 'month',
      seats: 5,
      featured: true,
      products: ['hitscope-for-apps', 'hitscope-for-browsers'],
    });
    expect(response.body.plans[0]).not.toHaveProperty('stripePriceId');
  });

  it('lets an admin create, update and deactivate a plan; each change is in the audit log', async () => {
    const created = await createPlan({
      id: 'studio-yearly',
      name: 'Studio',
      products: ['hitscope-for-apps'],
      amountMinor: 49000,
      currency: 'eur',
      interval: 'year',
      seats: 10,
    }).expect(201);
    expect(created.body).toMatchObject({ id: 'studio-yearly', active: true, stripePriceId: null, trialDays: 0 });

    await createPlan({
      id: 'studio-yearly',
      name: 'Again',
      products: ['hitscope-for-apps'],
      amountMinor: 1,
      currency: 'eur',
      interval: 'year',
      seats: 1,
    }).expect(409);

    const updated = await admin.agent
      .patch('/api/admin/catalogue/plans/studio-yearly')
      .set('x-csrf-token', admin.token)
      .send({ amountMinor: 45000, stripePriceId: 'price_123abc' })
      .expect(200);
    expect(updated.body).toMatchObject({ amountMinor: 45000, stripePriceId: 'price_123abc' });

    await admin.agent.post('/api/admin/catalogue/plans/studio-yearly/deactivate').set('x-csrf-token', admin.token).expect(200);
    const publicList = await http().get('/api/catalogue').expect(200);
    expect(publicList.body.plans.map((plan: { id: string }) => plan.id)).not.toContain('studio-yearly');
    const adminList = await admin.agent.get('/api/admin/catalogue/plans').expect(200);
    expect(adminList.body.plans.find((plan: { id: string }) => plan.id === 'studio-yearly')).toMatchObject({ active: false });

    const audit = await db.collection('audit_log').find({ 'target.id': 'studio-yearly' }).sort({ at: 1 }).toArray();
    expect(audit.map((entry) => entry.action)).toEqual(['catalogue.plan.create', 'catalogue.plan.update', 'catalogue.plan.deactivate']);
    expect(audit[1]).toMatchObject({
      before: { amountMinor: 49000, stripePriceId: null },
      after: { amountMinor: 45000, stripePriceId: 'price_123abc' },
    });
  });

  it('keeps the plan the webhooks read (recent) for a few seconds against other instances’ changes, reads it fresh for a sale, and forgets it at once after a change made here', async () => {
    const catalogue = running.app.get(CatalogueService);
    await createPlan({
      id: 'cached-yearly',
      name: 'Cached',
      products: ['hitscope-for-apps'],
      amountMinor: 1000,
      currency: 'eur',
      interval: 'year',
      seats: 2,
    }).expect(201);
    expect(await catalogue.recent('cached-yearly')).toMatchObject({ seats: 2 });
    // Another instance changes it (straight in the database): this one keeps what it read, for a while.
    await db.collection('plans').updateOne({ _id: 'cached-yearly' as never }, { $set: { seats: 3 } });
    expect(await catalogue.recent('cached-yearly')).toMatchObject({ seats: 2 });
    // A sale reads the plan fresh.
    expect(await catalogue.getForSale('cached-yearly')).toMatchObject({ seats: 3 });
    // A change made here is seen at once.
    await admin.agent.patch('/api/admin/catalogue/plans/cached-yearly').set('x-csrf-token', admin.token).send({ seats: 4 }).expect(200);
    expect(await catalogue.recent('cached-yearly')).toMatchObject({ seats: 4 });
    await expect(catalogue.recent('no-such-plan')).rejects.toMatchObject({ status: 404 });
  });

  it('refuses non-admins, bad values and null in a non-nullable field', async () => {
    await user.agent.post('/api/admin/catalogue/plans').set('x-csrf-token', user.token).send({}).expect(403);
    const bad = await createPlan({
      id: 'Bad Id',
      name: 'x',
      products: ['other'],
      amountMinor: 9.5,
      currency: 'chf',
      interval: 'week',
      seats: 0,
    }).expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['amountMinor', 'currency', 'id', 'interval', 'products', 'seats']);
    await admin.agent.patch('/api/admin/catalogue/plans/team-monthly').set('x-csrf-token', admin.token).send({ name: null }).expect(400);
    await admin.agent.patch('/api/admin/catalogue/plans/no-such-plan').set('x-csrf-token', admin.token).send({ name: 'x' }).expect(404);
  });

  it('without Stripe: billing says configured: false, writes that need Stripe answer 409 BILLING_NOT_CONFIGURED, manual orders still work', async () => {
    await http().get('/api/billing/status').expect(200, { configured: false });
    for (const [path, body] of [
      ['/api/billing/checkout', { planId: 'team-monthly' }],
      ['/api/billing/portal', {}],
      ['/api/billing/subscription/cancel', {}],
    ] as const) {
      const response = await user.agent.post(path).set('x-csrf-token', user.token).send(body);
      expect({ path, status: response.status, code: response.body.code }).toEqual({ path, status: 409, code: 'BILLING_NOT_CONFIGURED' });
    }
    const webhook = await http()
      .post('/api/billing/webhook')
      .set('stripe-signature', 't=1,v1=00')
      .set('content-type', 'application/json')
      .send('{}');
    expect(webhook.status).toBe(409);
    await user.agent.get('/api/billing/subscription').expect(200, { subscription: null, subscriptions: [], purchases: [] });
    await user.agent.get('/api/billing/orders').expect(200, { orders: [] });
    expect(await db.collection('orders').countDocuments()).toBe(0);

    const me = (await user.agent.get('/api/auth/me').expect(200)).body as { id: string };
    const manual = await admin.agent
      .post('/api/admin/billing/orders')
      .set('x-csrf-token', admin.token)
      .send({ userId: me.id, planId: 'team-yearly', quantity: 2 })
      .expect(201);
    expect(manual.body).toMatchObject({ kind: 'manual', status: 'paid', amountMinor: 58000, quantity: 2 });
    expect((await user.agent.get('/api/billing/orders').expect(200)).body.orders).toHaveLength(1);
    // What the person owns now: the order paid another way, a year of both products for 10 seats.
    const owned = (await user.agent.get('/api/billing/subscription').expect(200)).body;
    expect(owned.purchases).toEqual([
      expect.objectContaining({ orderId: manual.body.id, kind: 'manual', planId: 'team-yearly', seats: 10, state: 'active' }),
    ]);
    expect(new Date(owned.purchases[0].expiresAt).getTime() - Date.now()).toBeGreaterThan(364 * 86_400_000);
  });
});
