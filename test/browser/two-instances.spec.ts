import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { confirmationLinkFor } from '../support/e2e.js';
import { StripeObjects, stripeEvent, stripeSignature, stripeTestId } from '../support/stripe-events.js';
import { gotoHydrated, newCredentials } from './fixtures.js';
import { startTwoInstances, TWO_INSTANCES_ADMIN, type TwoInstances } from './two-instances-server.js';

/**
 * The core journeys on two instances of the app behind a round-robin load balancer, on one database
 * reached through a pool of connections (two-instances-server.ts): every request may land on either
 * instance, so nothing may live in one instance's memory alone (docs/performance.md says what is
 * cached and for how long) and nothing may rely on one connection to the database.
 */
test.describe.configure({ mode: 'serial' });

let fleet: TwoInstances;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  fleet = await startTwoInstances();
});

test.afterAll(async () => {
  await fleet?.stop();
});

const url = (path: string) => `${fleet.origin}${path}`;

async function csrf(request: APIRequestContext): Promise<string> {
  const response = await request.get(url('/api/auth/csrf'));
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** The newest confirmation link mailed to `email` (the instances have no SMTP: the outbox keeps it). */

/** Registers through the API and follows the link (which signs in), in `request`'s cookie jar. */
async function register(request: APIRequestContext, credentials: { name: string; email: string; password: string }): Promise<string> {
  const answer = await request.post(url('/api/auth/register'), { data: credentials, headers: { 'x-csrf-token': await csrf(request) } });
  expect(answer.status(), await answer.text()).toBe(202);
  const confirmed = await request.get(url(await confirmationLinkFor(credentials.email, fleet.databaseUri)), { maxRedirects: 0 });
  expect(confirmed.status()).toBe(302);
  const me = await request.get(url('/api/auth/me'));
  expect(me.status()).toBe(200);
  return ((await me.json()) as { id: string }).id;
}

async function adminContext(browser: Browser): Promise<APIRequestContext> {
  const context = await browser.newContext();
  const login = await context.request.post(url('/api/auth/login'), {
    data: { email: TWO_INSTANCES_ADMIN.email, password: TWO_INSTANCES_ADMIN.password },
    headers: { 'x-csrf-token': await csrf(context.request) },
  });
  if (login.status() !== 200) await register(context.request, TWO_INSTANCES_ADMIN);
  return context.request;
}

/** Sends every request of `page` (navigations, assets, its API calls) to one instance. */
const routeTo = (page: Page, instance: 0 | 1) => page.setExtraHTTPHeaders({ 'x-route-to': String(instance) });

/** Which instance answered each document request of `page` from now on. */
function documentsServed(page: Page): Array<{ path: string; instance: string }> {
  const seen: Array<{ path: string; instance: string }> = [];
  page.on('response', (response) => {
    if (response.request().resourceType() === 'document') {
      seen.push({ path: new URL(response.url()).pathname, instance: response.headers()['x-served-by'] });
    }
  });
  return seen;
}

test('sign-in: a person registers, signs in through the form, and stays signed in whichever instance answers', async ({ page }) => {
  const credentials = newCredentials('fleet');
  await register(page.request, credentials);
  const logout = await page.request.post(url('/api/auth/logout'), { headers: { 'x-csrf-token': await csrf(page.request) } });
  expect(logout.status()).toBe(204);

  const documents = documentsServed(page);
  await gotoHydrated(page, url('/login'));
  await page.getByLabel('E-mail').fill(credentials.email);
  await page.getByLabel('Password').fill(credentials.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard/);
  for (const [instance, path] of [
    [0, '/dashboard/lounge'],
    [1, '/dashboard/lounge'],
    [0, '/dashboard/user/profile'],
    [1, '/dashboard/user/profile'],
  ] as const) {
    await routeTo(page, instance);
    await gotoHydrated(page, url(path));
    expect(new URL(page.url()).pathname, `${path} on instance ${instance} stays signed in`).toBe(path);
  }
  await page.setExtraHTTPHeaders({});
  const pages = documents.filter((document) => document.path.startsWith('/dashboard/'));
  expect(new Set(pages.map((document) => document.instance))).toEqual(new Set(['0', '1']));
  // The API too: ten calls, five on each instance, all for this person.
  const answers = await Promise.all(Array.from({ length: 10 }, () => page.request.get(url('/api/auth/me'))));
  expect(answers.map((answer) => answer.status())).toEqual(Array(10).fill(200));
  expect(new Set(answers.map((answer) => answer.headers()['x-served-by']))).toEqual(new Set(['0', '1']));
});

test('settings: a site name saved through one instance is what the other one shows within seconds', async ({ page, browser }) => {
  const admin = await adminContext(browser);
  const name = `Fleet ${Date.now().toString(36)}`;
  const saved = await admin.put(url('/api/admin/site-settings/general'), {
    data: { siteName: name },
    headers: { 'x-csrf-token': await csrf(admin) },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  const savedBy = saved.headers()['x-served-by'];
  // The other instance may show the old name for as long as it caches pages and settings
  // (docs/performance.md: about 7 s); then it shows the new one.
  const other = savedBy === '0' ? 1 : 0;
  await routeTo(page, other);
  const started = Date.now();
  let shownByOther = false;
  while (!shownByOther) {
    const response = await page.goto(url('/'));
    const title = await page.title();
    expect(response?.headers()['x-served-by']).toBe(String(other));
    if (title.includes(name)) shownByOther = true;
    else if (Date.now() - started > 15_000) throw new Error(`The other instance still shows "${title}" after 15 s`);
    else await page.waitForTimeout(250);
  }
  expect(Date.now() - started).toBeLessThan(15_000);
  await admin.put(url('/api/admin/site-settings/general'), {
    data: { siteName: 'Hitscope' },
    headers: { 'x-csrf-token': await csrf(admin) },
  });
});

test('licence activation: granted on one instance, activated on both, the owner sees the one device on either', async ({
  page,
  browser,
}) => {
  const credentials = newCredentials('fleet-licence');
  const userId = await register(page.request, credentials);
  const admin = await adminContext(browser);
  const granted = await admin.post(url(`/api/admin/users/${userId}/licences`), {
    data: { planId: 'fleet-grant', products: [COMPANION_PRODUCTS.apps.slug], seats: 2 },
    headers: { 'x-csrf-token': await csrf(admin) },
  });
  expect([200, 201], await granted.text()).toContain(granted.status());
  const owned = (await (await page.request.get(url('/api/licences'))).json()) as { licences: Array<{ key: string; product: string }> };
  const { key, product } = owned.licences[0];

  // The same device activates twice (each lands on another instance): one seat, the same activation.
  const fingerprint = 'f'.repeat(64);
  const activations = [];
  for (let round = 0; round < 2; round += 1) {
    const answer = await page.request.post(url('/api/v1/licenses/activate'), { data: { key, product, fingerprint, name: 'Fleet laptop' } });
    expect(answer.status()).toBe(200);
    activations.push({ by: answer.headers()['x-served-by'], body: (await answer.json()) as { valid: boolean; code: string } });
  }
  expect(new Set(activations.map((activation) => activation.by))).toEqual(new Set(['0', '1']));
  expect(activations.map((activation) => activation.body.valid)).toEqual([true, true]);

  const documents = documentsServed(page);
  for (const instance of [0, 1] as const) {
    await routeTo(page, instance);
    await gotoHydrated(page, url('/dashboard/user/licenses'));
    const card = page.getByRole('article', { name: COMPANION_PRODUCTS.apps.name });
    await expect(card.getByText('1 of 2 seats in use')).toBeVisible();
    await expect(card.getByRole('table').getByRole('row').filter({ hasText: 'Fleet laptop' })).toHaveCount(1);
  }
  expect(
    new Set(documents.filter((document) => document.path === '/dashboard/user/licenses').map((document) => document.instance)),
  ).toEqual(new Set(['0', '1']));
});

test('checkout webhook: an order made on one instance is paid by a webhook delivered to both, once', async ({ page }) => {
  const credentials = newCredentials('fleet-buyer');
  const userId = await register(page.request, credentials);
  const checkout = await page.request.post(url('/api/billing/checkout'), {
    data: { planId: 'solo-lifetime' },
    headers: { 'x-csrf-token': await csrf(page.request) },
  });
  expect(checkout.status(), await checkout.text()).toBe(201);
  const { orderId } = (await checkout.json()) as { orderId: string };
  const mongo = await MongoClient.connect(fleet.databaseUri);
  const customer = await mongo
    .db()
    .collection<{ _id: string; stripeCustomerId: string }>('billing_customers')
    .findOne({ _id: userId })
    .finally(() => mongo.close());
  expect(customer).not.toBeNull();

  // What Stripe sends once the card is paid, delivered to each instance (Stripe retries; a balancer spreads them).
  const objects = new StripeObjects(fleet.stripe.mockUrl);
  const event = stripeEvent(
    'checkout.session.completed',
    Math.floor(Date.now() / 1000),
    await objects.checkoutSession({
      id: stripeTestId('cs_test'),
      client_reference_id: orderId,
      mode: 'payment',
      payment_status: 'paid',
      payment_intent: stripeTestId('pi'),
      customer: customer!.stripeCustomerId,
    }),
  );
  const body = JSON.stringify(event);
  for (const instance of ['0', '1']) {
    const delivered = await page.request.post(url('/api/billing/webhook'), {
      data: body,
      headers: {
        'content-type': 'application/json',
        'stripe-signature': stripeSignature(body, fleet.stripe.webhookSecret),
        'x-route-to': instance,
      },
    });
    expect(delivered.status(), await delivered.text()).toBe(200);
  }

  // Processed after the answer, on whichever instance stored it: the inbox holds the event once, and
  // says when its processing (the order paid, then a licence per product) is over.
  const inbox = await MongoClient.connect(fleet.databaseUri);
  try {
    const events = inbox.db().collection<{ _id: string; status: string }>('stripe_events');
    await expect
      .poll(async () => (await events.find({ _id: event.id }).toArray()).map(({ status }) => status), { timeout: 15_000 })
      .toEqual(['done']);
  } finally {
    await inbox.close();
  }
  const views = [];
  for (const instance of ['0', '1']) {
    const orders = await page.request.get(url('/api/billing/orders'), { headers: { 'x-route-to': instance } });
    const licences = await page.request.get(url('/api/licences'), { headers: { 'x-route-to': instance } });
    views.push({
      orders: ((await orders.json()) as { orders: Array<{ id: string; status: string }> }).orders.map(({ id, status }) => ({ id, status })),
      licences: ((await licences.json()) as { licences: Array<{ source: string }> }).licences.map((licence) => licence.source),
    });
  }
  expect(views[0]).toEqual(views[1]);
  expect(views[0].orders).toEqual([{ id: orderId, status: 'paid' }]);
  // Solo lifetime covers both companions: one licence each, granted once.
  expect(views[0].licences).toEqual(['order', 'order']);
});
