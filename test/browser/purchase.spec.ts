import { type APIRequestContext, expect, test } from '@playwright/test';
import type { SessionUser } from '../../lib/api/auth.js';
import type { CheckoutResponse } from '../../lib/api/billing.js';
import { KEY_PREFIXES } from '../../lib/licences/key.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { StripeObjects, stripeEvent, type StripeTestEvent, stripeSignature, stripeTestId } from '../support/stripe-events.js';
import { readDatabase } from './billing-fixtures.js';
import {
  billingServerUrl,
  billingStripe,
  confirmationLinkFor,
  gotoHydrated,
  newCredentials,
  stripeCustomerOf,
  stripeEventStates,
  waitForHydration,
} from './fixtures.js';

const PLAN = { id: 'team-monthly', choose: 'Choose Team', label: 'Team (monthly)', price: '€29', amountMinor: 2900, seats: '5' };
/** As the billing pages write dates (client/features/billing/format.ts). */
const billingDate = (seconds: number) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(seconds * 1000));

/** Posts `events` to the billing instance's webhook endpoint one by one, signed as Stripe signs them. */
async function sendWebhooks(request: APIRequestContext, billing: string, secret: string, events: StripeTestEvent[]) {
  for (const event of events) {
    const body = JSON.stringify(event);
    const response = await request.post(`${billing}/api/billing/webhook`, {
      data: body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(body, secret) },
    });
    expect(response.status(), `${event.type}: ${await response.text()}`).toBe(200);
  }
  // Stored, then processed after the answer (src/billing/webhook.service.ts): wait until the app is through with them.
  await expect
    .poll(() => stripeEventStates(events.map((event) => event.id)), { timeout: 15_000 })
    .toEqual(events.map((event) => expect.objectContaining({ id: event.id, status: 'done' })));
}

test.describe('buying a plan', () => {
  test('a visitor chooses a plan on the home page, registers, pays at Checkout and finds the order, licences and subscription', async ({
    page,
    request,
  }) => {
    const billing = await billingServerUrl();
    const stripe = billingStripe();

    // 1. The home page's pricing, signed out.
    await gotoHydrated(page, `${billing}/`);
    const pricing = page.getByRole('region', { name: 'Pricing' });
    await pricing.getByRole('link', { name: PLAN.choose }).click();

    // 2. Registration, confirmed through the e-mailed link in this browser: signed in, back to the chosen plan.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
    const credentials = newCredentials('purchase');
    await page.getByLabel('Name').fill(credentials.name);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    await page.goto(`${billing}${await confirmationLinkFor(credentials.email)}`);
    await waitForHydration(page);
    await expect(page).toHaveURL(`${billing}/dashboard/user/subscription?plan=${PLAN.id}`);
    await expect(page.getByRole('region', { name: 'Your chosen plan' })).toContainText(`${PLAN.label}: ${PLAN.price} per month`);

    // 3. Checkout: stripe-mock answers with a checkout.stripe.com URL, whose page is a stand-in here.
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Stripe Checkout</h1>' }),
    );
    // The answer is read on its way to the page, which leaves for Stripe as soon as it has it.
    let answered!: (answer: { status: number; body: CheckoutResponse }) => void;
    const checkoutAnswer = new Promise<{ status: number; body: CheckoutResponse }>((resolve) => (answered = resolve));
    await page.route('**/api/billing/checkout', async (route) => {
      const response = await route.fetch();
      answered({ status: response.status(), body: (await response.json()) as CheckoutResponse });
      await route.fulfill({ response });
    });
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stripe Checkout');
    const checkout = await checkoutAnswer;
    expect(checkout).toMatchObject({ status: 201, body: { orderId: expect.stringMatching(/^ord_/), url: page.url() } });
    const { orderId } = checkout.body;
    const sessionId = await readDatabase(
      async (db) =>
        (await db.collection<{ _id: string; stripe: { checkoutSessionId: string } }>('orders').findOne({ _id: orderId }))!.stripe
          .checkoutSessionId,
    );

    // Until Stripe says it is paid, the order waits.
    const me = (await (await page.request.get(`${billing}/api/auth/me`)).json()) as SessionUser;
    const orders = await page.request.get(`${billing}/api/billing/orders`);
    expect((await orders.json()) as unknown).toEqual({
      orders: [expect.objectContaining({ id: orderId, planId: PLAN.id, status: 'pending', amountMinor: PLAN.amountMinor })],
    });

    // 4. What Stripe sends once the card is paid: the subscription, its first invoice, the completed session.
    const objects = new StripeObjects(stripe.mockUrl);
    const customer = await stripeCustomerOf(me.id);
    const subscriptionId = stripeTestId('sub');
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = now + 30 * 86_400;
    // Checkout copies subscription_data.metadata onto the subscription, and Stripe onto its invoices.
    const metadata = { orderId, planId: PLAN.id, userId: me.id };
    const invoicePage = `https://invoice.stripe.com/i/acct_test/${stripeTestId('test')}`;
    await sendWebhooks(request, billing, stripe.webhookSecret, [
      stripeEvent(
        'customer.subscription.created',
        now - 3,
        await objects.subscription({ id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd, metadata }),
      ),
      stripeEvent(
        'invoice.paid',
        now - 2,
        await objects.invoice(stripeTestId('in'), {
          customer,
          billing_reason: 'subscription_create',
          amount_paid: PLAN.amountMinor,
          currency: 'eur',
          hosted_invoice_url: invoicePage,
          parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata } },
        }),
      ),
      stripeEvent(
        'checkout.session.completed',
        now - 1,
        await objects.checkoutSession({
          id: sessionId,
          client_reference_id: orderId,
          mode: 'subscription',
          status: 'complete',
          payment_status: 'paid',
          customer,
          subscription: subscriptionId,
        }),
      ),
    ]);

    // 5. Back on the site, as Checkout's success_url brings the buyer (with the session Stripe made).
    await gotoHydrated(page, `${billing}/dashboard/user/subscription?checkout=success&session_id=${sessionId}`);
    await expect(page.getByRole('region', { name: 'Your licences are active' })).toBeVisible();
    const subscription = page.getByRole('region', { name: PLAN.label });
    await expect(subscription).toContainText('Active');
    await expect(subscription.getByRole('term')).toHaveText(['Covers', 'Renews on', 'Seats']);
    await expect(subscription.getByRole('definition')).toHaveText([
      `${COMPANION_PRODUCTS.apps.name} and ${COMPANION_PRODUCTS.browsers.name}`,
      billingDate(periodEnd),
      PLAN.seats,
    ]);
    await expect(subscription.getByRole('button', { name: 'Cancel at period end' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Continue to checkout' })).toHaveCount(0);

    await gotoHydrated(page, `${billing}/dashboard/user/orders`);
    const rows = page
      .getByRole('table', { name: 'Your orders' })
      .getByRole('row')
      .filter({ has: page.getByRole('cell') });
    await expect(rows).toHaveCount(1);
    await expect(rows.getByRole('cell')).toHaveText([
      // The day of the first event that said it was paid.
      new RegExp(`^(${billingDate(now - 2)}|${billingDate(now - 1)})$`),
      `${COMPANION_PRODUCTS.apps.name}, ${COMPANION_PRODUCTS.browsers.name}`,
      PLAN.label,
      PLAN.price,
      'EUR',
      'Paid',
      /^Receipt/,
    ]);
    // The receipt of a Checkout order is Stripe's page of its first invoice.
    await expect(rows.getByRole('link', { name: 'Receipt (opens in a new tab)' })).toHaveAttribute('href', invoicePage);

    await gotoHydrated(page, `${billing}/dashboard/user/licenses`);
    const licences = page.getByRole('list', { name: 'Your licences' }).getByRole('listitem');
    await expect(licences).toHaveCount(2);
    for (const product of [COMPANION_PRODUCTS.apps, COMPANION_PRODUCTS.browsers]) {
      const card = page.getByRole('article', { name: product.name });
      await expect(card).toContainText('Active');
      await expect(card).toContainText(/Team plan · Renews /);
      await expect(card.getByLabel(`Licence key for ${product.name}`)).toHaveValue(
        new RegExp(`^${KEY_PREFIXES[product.slug]}(-[0-9A-Z]{5}){4}-[0-9A-Z]$`),
      );
    }

    await gotoHydrated(page, `${billing}/dashboard/lounge`);
    const glance = page.getByRole('region', { name: 'Your plan' });
    await expect(glance).toContainText(`${PLAN.label} Active`);
    await expect(glance.getByRole('link', { name: 'Manage subscription' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Licences' })).toContainText('2 active licences');
  });
});
