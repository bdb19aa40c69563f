import { type APIRequestContext, expect, request as playwrightRequest, test } from '@playwright/test';
import type { SessionUser } from '../../lib/api/auth.js';
import { formatDate } from '../../lib/format/date.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { StripeObjects, stripeEvent, type StripeTestEvent, stripeSignature, stripeTestId } from '../support/stripe-events.js';
import {
  billingServerUrl,
  billingStripe,
  collectPageProblems,
  csrfToken,
  gotoHydrated,
  signInAsAdmin,
  signUp,
  stripeEventStates,
} from './fixtures.js';

const DAY_S = 86_400;

/** Posts `events` to the billing instance's webhook endpoint, signed as Stripe signs them, and waits until they are processed. */
async function sendWebhooks(request: APIRequestContext, billing: string, secret: string, events: StripeTestEvent[]) {
  for (const event of events) {
    const body = JSON.stringify(event);
    const response = await request.post(`${billing}/api/billing/webhook`, {
      data: body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(body, secret) },
    });
    expect(response.status(), `${event.type}: ${await response.text()}`).toBe(200);
  }
  await expect
    .poll(() => stripeEventStates(events.map((event) => event.id)), { timeout: 15_000 })
    .toEqual(events.map((event) => expect.objectContaining({ id: event.id, status: 'done' })));
}

test.describe('dates in a browser set up unlike the server', () => {
  // A visitor in California with an American browser. The renewal is at 03:00 UTC: still the day
  // before in Los Angeles, so formatting with the browser's time zone would show another date.
  test.use({ locale: 'en-US', timezoneId: 'America/Los_Angeles' });

  test('the licences page hydrates without an error and shows the renewal as the subscription page does; orders read alike', async ({
    page,
    request,
  }) => {
    const billing = await billingServerUrl();
    const stripe = billingStripe();
    // Signed up on the billing instance (its own token issuer), and signed in in this browser.
    const signedUp = await playwrightRequest.newContext({ baseURL: billing });
    const { user } = await signUp(signedUp, 'dates');
    await page.context().addCookies((await signedUp.storageState()).cookies);
    await signedUp.dispose();

    // A Team subscription, as Stripe's events bring it, renewing at 03:00 UTC in 20 days.
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = (Math.floor(now / DAY_S) + 20) * DAY_S + 3 * 3600;
    const subscriptionId = stripeTestId('sub');
    const subscription = await new StripeObjects(stripe.mockUrl).subscription({
      id: subscriptionId,
      customer: stripeTestId('cus'),
      status: 'active',
      quantity: 1,
      periodEnd,
      metadata: { planId: 'team-monthly', userId: user.id },
    });
    await sendWebhooks(request, billing, stripe.webhookSecret, [stripeEvent('customer.subscription.created', now - 1, subscription)]);
    // And a manual order recorded by an administrator, for the orders page.
    const admin = await playwrightRequest.newContext({ baseURL: billing });
    try {
      await signInAsAdmin(admin);
      await admin
        .post('/api/admin/billing/orders', {
          data: { userId: user.id, planId: 'solo-lifetime' },
          headers: { 'x-csrf-token': await csrfToken(admin) },
        })
        .then((response) => expect(response.status()).toBe(201));
    } finally {
      await admin.dispose();
    }

    const renewal = formatDate(periodEnd * 1000);
    expect(renewal).not.toBe(new Date(periodEnd * 1000).toLocaleDateString('en-US', { timeZone: 'America/Los_Angeles' }));
    const problems = collectPageProblems(page);

    await gotoHydrated(page, `${billing}/dashboard/user/licenses`);
    for (const product of [COMPANION_PRODUCTS.apps, COMPANION_PRODUCTS.browsers]) {
      const card = page.getByRole('article', { name: product.name }).filter({ hasText: 'Team plan' });
      await expect(card).toContainText(`Team plan · Renews ${renewal}`);
    }

    await gotoHydrated(page, `${billing}/dashboard/user/subscription`);
    await expect(page.getByRole('main')).toContainText(renewal);

    const me = (await (await page.request.get(`${billing}/api/auth/me`)).json()) as SessionUser;
    expect(me.id).toBe(user.id);
    const { orders } = (await (await page.request.get(`${billing}/api/billing/orders`)).json()) as {
      orders: Array<{ createdAt: string; paidAt: string | null }>;
    };
    await gotoHydrated(page, `${billing}/dashboard/user/orders`);
    await expect(page.getByRole('table', { name: 'Your orders' })).toContainText(formatDate(orders[0].paidAt ?? orders[0].createdAt));

    // No hydration error (#418) on any of them, nor any other console error.
    problems.stop();
    expect(problems.problems).toEqual([]);
  });
});
