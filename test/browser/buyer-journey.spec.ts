import { expect, type Page, test } from '@playwright/test';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { StripeObjects, stripeEvent, stripeTestId } from '../support/stripe-events.js';
import { billingPost, buyer, mailsTo, readDatabase, sendStripeEvents, signInOnBilling, startCheckout } from './billing-fixtures.js';
import {
  ADMIN_PASSWORD,
  billingServerUrl,
  billingStripe,
  gotoHydrated,
  signInAsAdmin,
  stripeCustomerOf,
  waitForHydration,
} from './fixtures.js';

/**
 * The buyer's journey (issue 23) on the billing instance: the real app, stripe-mock, Stripe-signed
 * webhooks and a real SMTP exchange. stripe-mock is stateless: a Checkout Session retrieved from it
 * is always `open` and unpaid, so the success page cannot fulfil here and the webhook does (the
 * server's other order, success page first, is proven in test/e2e/billing-journey.e2e-spec.ts); its
 * answer to a subscription update reflects the parameters sent (`cancel_at_period_end`) and is a
 * fixture otherwise, which is what the cancel and switch journeys assert on.
 */

const now = () => Math.floor(Date.now() / 1000);
const objects = () => new StripeObjects(billingStripe().mockUrl);

/** What the app stored for a person: their orders and licences (by product), and the confirmation mails sent. */
async function stored(userId: string) {
  return readDatabase(async (db) => ({
    orders: await db
      .collection<{ _id: string; userId: string; status: string }>('orders')
      .find({ userId })
      .project({ _id: 1, status: 1 })
      .toArray(),
    licences: (await db.collection<{ userId: string; product: string }>('licences').find({ userId }).toArray())
      .map((l) => l.product)
      .sort(),
  }));
}

/** A running Team (monthly) subscription, as Stripe's events would make it after Checkout. */
async function subscribe(page: Page, request: Page['request'], planId = 'team-monthly') {
  const billing = await billingServerUrl();
  const person = await buyer(page, `journey-${planId}`);
  const response = await billingPost(page.request, '/api/billing/checkout', { planId });
  expect(response.status(), await response.text()).toBe(201);
  const { orderId } = (await response.json()) as { orderId: string };
  const customer = await stripeCustomerOf(person.user.id);
  const subscriptionId = stripeTestId('sub');
  const periodEnd = now() + 30 * 86_400;
  const metadata = { orderId, planId, userId: person.user.id };
  await sendStripeEvents(request, [
    stripeEvent(
      'customer.subscription.created',
      now() - 120,
      await objects().subscription({ id: subscriptionId, customer, status: 'active', quantity: 1, periodEnd, metadata }),
    ),
    stripeEvent(
      'checkout.session.completed',
      now() - 119,
      await objects().checkoutSession({
        id: stripeTestId('cs_test'),
        client_reference_id: orderId,
        mode: 'subscription',
        status: 'complete',
        payment_status: 'paid',
        customer,
        subscription: subscriptionId,
      }),
    ),
  ]);
  return { billing, person, orderId, customer, subscriptionId, periodEnd, metadata };
}

test.describe('the buyer’s journey', () => {
  test('a lifetime purchase: back from Checkout before the webhook, the page follows the purchase until the licences are active; the keys arrive by mail; both pages say what the person owns', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    const billing = await billingServerUrl();
    const person = await buyer(page, 'journey-lifetime');
    await gotoHydrated(page, `${billing}/dashboard/user/subscription?plan=solo-lifetime`);
    await expect(page.getByRole('region', { name: 'Your chosen plan' })).toContainText('Solo lifetime: €199 one-off');
    const { orderId, sessionId } = await startCheckout(page, page.getByRole('button', { name: 'Continue to checkout' }));

    // Stripe sends the buyer of a one-off plan back to their licences, before its webhook came.
    await gotoHydrated(page, `${billing}/dashboard/user/licenses?checkout=success&session_id=${sessionId}`);
    const progress = page.getByRole('region', { name: /^Payment received, activating your licence/ });
    await expect(progress).toBeVisible();
    await expect(progress.getByRole('status')).toContainText('Stripe has your payment for Solo lifetime');
    await expect(progress.getByRole('list', { name: 'Progress' }).getByRole('listitem')).toHaveText([
      'Payment received',
      'Licence activated',
    ]);
    // No "no licences yet, see pricing" under it while the purchase is on its way.
    await expect(page.getByRole('heading', { name: 'No licences yet' })).toHaveCount(0);
    expect((await stored(person.user.id)).orders).toEqual([{ _id: orderId, status: 'pending' }]);

    // Stripe's word arrives; the page, still open, shows the result without a reload.
    await sendStripeEvents(request, [
      stripeEvent(
        'checkout.session.completed',
        now(),
        await objects().checkoutSession({
          id: sessionId,
          client_reference_id: orderId,
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          payment_intent: stripeTestId('pi'),
          customer: await stripeCustomerOf(person.user.id),
        }),
      ),
    ]);
    const done = page.getByRole('region', { name: 'Your licences are active' });
    await expect(done).toBeVisible({ timeout: 15_000 });
    await expect(done.getByRole('status')).toHaveText(
      'Thank you for buying Solo lifetime. We e-mailed you the order confirmation with your licence keys.',
    );
    await expect(done.getByRole('link', { name: `Download ${COMPANION_PRODUCTS.apps.name}` })).toHaveAttribute(
      'href',
      `/dashboard/tools/${COMPANION_PRODUCTS.apps.slug}`,
    );
    await expect(page.getByRole('list', { name: 'Your licences' }).getByRole('listitem')).toHaveCount(2);
    const keys = await Promise.all(
      [COMPANION_PRODUCTS.apps, COMPANION_PRODUCTS.browsers].map((product) =>
        page.getByLabel(`Licence key for ${product.name}`).inputValue(),
      ),
    );

    // The confirmation, through the outbox to the SMTP server: what was bought, the amount, the keys, where to download.
    await expect
      .poll(() => mailsTo(person.email).map((mail) => mail.subject), { timeout: 15_000 })
      .toContain('Your Hitscope order: Solo lifetime');
    const [mail] = mailsTo(person.email).filter((item) => item.subject === 'Your Hitscope order: Solo lifetime');
    for (const key of keys) expect(mail.text).toContain(key);
    expect(mail.text).toContain('€199.00');
    expect(mail.text).toContain('Hitscope for Apps and Hitscope for Browsers');
    expect(mail.text).toContain(`${billing}/dashboard/tools/${COMPANION_PRODUCTS.browsers.slug}`);
    expect(await stored(person.user.id)).toEqual({
      orders: [{ _id: orderId, status: 'paid' }],
      licences: [COMPANION_PRODUCTS.apps.slug, COMPANION_PRODUCTS.browsers.slug],
    });

    // The subscription page says what they own, not "the free plan".
    await gotoHydrated(page, `${billing}/dashboard/user/subscription`);
    const owned = page.getByRole('region', { name: 'Solo lifetime' });
    await expect(owned).toContainText('Owned');
    await expect(owned.getByRole('term')).toHaveText(['Covers', 'Valid', 'Seats', 'Paid']);
    await expect(owned.getByRole('definition').first()).toHaveText('Hitscope for Apps and Hitscope for Browsers');
    await expect(owned.getByRole('definition').nth(1)).toHaveText('Forever (one-off)');
    await expect(owned.getByRole('listitem')).toHaveCount(2);
    await expect(page.getByText(/You are on the free plan/)).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Buy Solo lifetime' })).toHaveCount(0);

    await gotoHydrated(page, `${billing}/dashboard/lounge`);
    const glance = page.getByRole('region', { name: 'Your plan' });
    await expect(glance).toContainText('Solo lifetime Owned');
    await expect(glance).not.toContainText('Free plan');
    expect(mailsTo(person.email).filter((item) => item.subject.startsWith('Your Hitscope order'))).toHaveLength(1);
  });

  test('a subscription: back from Checkout after the webhook, active at once; fulfilled exactly once, whichever side comes again', async ({
    page,
    request,
  }) => {
    const billing = await billingServerUrl();
    const person = await buyer(page, 'journey-after');
    await gotoHydrated(page, `${billing}/dashboard/user/subscription?plan=team-monthly`);
    const { orderId, sessionId } = await startCheckout(page, page.getByRole('button', { name: 'Continue to checkout' }));
    const customer = await stripeCustomerOf(person.user.id);
    const subscriptionId = stripeTestId('sub');
    const metadata = { orderId, planId: 'team-monthly', userId: person.user.id };
    const completed = await objects().checkoutSession({
      id: sessionId,
      client_reference_id: orderId,
      mode: 'subscription',
      status: 'complete',
      payment_status: 'paid',
      customer,
      subscription: subscriptionId,
    });
    await sendStripeEvents(request, [
      stripeEvent(
        'customer.subscription.created',
        now() - 2,
        await objects().subscription({
          id: subscriptionId,
          customer,
          status: 'active',
          quantity: 1,
          periodEnd: now() + 30 * 86_400,
          metadata,
        }),
      ),
      stripeEvent('checkout.session.completed', now() - 1, completed),
    ]);

    await gotoHydrated(page, `${billing}/dashboard/user/subscription?checkout=success&session_id=${sessionId}`);
    await expect(page.getByRole('region', { name: 'Your licences are active' })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Team (monthly)' })).toContainText('Active');

    // The same completion fulfilled again (another delivery, another page load): nothing more.
    await sendStripeEvents(request, [stripeEvent('checkout.session.completed', now(), completed)]);
    await page.reload();
    await waitForHydration(page);
    await expect(page.getByRole('region', { name: 'Your licences are active' })).toBeVisible();
    await expect.poll(() => mailsTo(person.email).map((mail) => mail.subject), { timeout: 15_000 }).toContain('Your Hitscope order: Team');
    await page.waitForTimeout(1500);
    expect(mailsTo(person.email).filter((mail) => mail.subject.startsWith('Your Hitscope order'))).toHaveLength(1);
    expect(await stored(person.user.id)).toEqual({
      orders: [{ _id: orderId, status: 'paid' }],
      licences: [COMPANION_PRODUCTS.apps.slug, COMPANION_PRODUCTS.browsers.slug],
    });
  });

  test('a cancelled checkout says so and keeps the chosen plan', async ({ page }) => {
    const billing = await billingServerUrl();
    await buyer(page, 'journey-cancelled');
    await gotoHydrated(page, `${billing}/dashboard/user/subscription?checkout=cancelled&plan=team-yearly`);
    await expect(page.getByRole('status').filter({ hasText: 'Checkout was cancelled' })).toHaveText(
      'Checkout was cancelled: nothing was charged. Team (yearly) is still selected below.',
    );
    await expect(page.getByRole('region', { name: 'Your chosen plan' })).toContainText('Team (yearly): €290 per year');
    await expect(page.getByRole('button', { name: 'Continue to checkout' })).toBeVisible();
  });

  test('switching plan: every recurring plan can be switched to, with Stripe’s proration preview before confirming', async ({
    page,
    request,
  }) => {
    const { billing, customer, subscriptionId, periodEnd, person, orderId } = await subscribe(page, request);
    await gotoHydrated(page, `${billing}/dashboard/user/subscription`);
    await page.getByRole('region', { name: 'Team (monthly)' }).getByRole('button', { name: 'Change plan' }).click();
    const dialog = page.getByRole('dialog', { name: 'Change plan' });
    await dialog.getByRole('radio', { name: 'Yearly' }).check();
    await dialog.getByRole('button', { name: 'Switch to Team' }).click();

    const preview = page.getByRole('dialog', { name: 'Switch to Team (yearly)?' });
    const costs = preview.getByRole('region', { name: 'What the change costs' });
    // stripe-mock's preview invoice: one proration line of US$10.00.
    await expect(costs).toContainText('To pay for the rest of this period: US$10.00');
    await expect(costs.getByRole('row')).toHaveCount(2);
    await expect(costs.getByRole('cell').first()).toContainText('proration');
    const sent = page.waitForRequest((call) => call.url().endsWith('/api/billing/subscription/plan') && call.method() === 'POST');
    await preview.getByRole('button', { name: 'Confirm switch to Team' }).click();
    const body = (await sent).postDataJSON() as { planId: string; subscriptionId: string; prorationDate: number };
    expect(body).toMatchObject({ planId: 'team-yearly', subscriptionId });
    expect(Math.abs(body.prorationDate - now())).toBeLessThan(120);
    await expect(page.getByText('Your plan is now Team (yearly).')).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);

    // Stripe's event about the switch: the page names the new plan.
    await sendStripeEvents(request, [
      stripeEvent(
        'customer.subscription.updated',
        now() + 5,
        await objects().subscription({
          id: subscriptionId,
          customer,
          status: 'active',
          quantity: 1,
          periodEnd,
          metadata: { orderId, planId: 'team-yearly', userId: person.user.id },
        }),
      ),
    ]);
    await gotoHydrated(page, `${billing}/dashboard/user/subscription`);
    await expect(page.getByRole('region', { name: 'Team (yearly)' })).toContainText('Active');
  });

  test('cancel at period end and resume show at once, before any webhook; an older event arriving later changes nothing', async ({
    page,
    request,
  }) => {
    const { billing, customer, subscriptionId, periodEnd, metadata } = await subscribe(page, request);
    await gotoHydrated(page, `${billing}/dashboard/user/subscription`);
    const subscription = page.getByRole('region', { name: 'Team (monthly)' });
    await subscription.getByRole('button', { name: 'Cancel at period end' }).click();
    await page.getByRole('dialog', { name: 'Cancel at period end?' }).getByRole('button', { name: 'Cancel at period end' }).click();
    await expect(subscription).toContainText('Cancels at period end');
    await expect(subscription.getByRole('button', { name: 'Resume subscription' })).toBeVisible();
    await page.reload();
    await waitForHydration(page);
    await expect(subscription).toContainText('Cancels at period end');

    await subscription.getByRole('button', { name: 'Resume subscription' }).click();
    await expect(subscription.getByRole('button', { name: 'Cancel at period end' })).toBeVisible();
    await expect(subscription).toContainText('Active');
    await expect(page.getByText('Your subscription will renew as before.')).toBeVisible();

    // The event of the cancel, made before the resume, arrives late: ignored.
    await sendStripeEvents(request, [
      stripeEvent(
        'customer.subscription.updated',
        now() - 60,
        await objects().subscription({
          id: subscriptionId,
          customer,
          status: 'active',
          quantity: 1,
          periodEnd,
          cancelAtPeriodEnd: true,
          metadata,
        }),
      ),
    ]);
    await page.reload();
    await waitForHydration(page);
    await expect(subscription).toContainText('Active');
    await expect(subscription).not.toContainText('Cancels at period end');
  });

  test('a subscriber buys the other product as a second subscription, is guided to switch for one they have, and the catalogue shows what each plan covers', async ({
    page,
    request,
    browser,
  }) => {
    test.setTimeout(90_000);
    const billing = await billingServerUrl();
    const suffix = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const [appsPlan, browsersPlan] = [`apps-${suffix}`, `browsers-${suffix}`];
    const adminContext = await browser.newContext({ baseURL: test.info().project.use.baseURL });
    const admin = adminContext.request;
    const adminUser = await signInAsAdmin(admin);
    await signInOnBilling(admin, { email: adminUser.email, password: ADMIN_PASSWORD });
    try {
      for (const [id, products, amountMinor] of [
        [appsPlan, [COMPANION_PRODUCTS.apps.slug], 1500],
        [browsersPlan, [COMPANION_PRODUCTS.browsers.slug], 1000],
      ] as const) {
        const created = await billingPost(admin, '/api/admin/catalogue/plans', {
          id,
          name: id,
          products,
          amountMinor,
          currency: 'eur',
          interval: 'month',
          seats: 1,
          sortOrder: 9500,
        });
        expect(created.status(), await created.text()).toBe(201);
      }
      // The admin's catalogue: the products each plan covers, and the Stripe price each is sold with.
      const adminPage = await adminContext.newPage();
      await gotoHydrated(adminPage, `${billing}/admin/settings`);
      const row = (id: string) => adminPage.getByRole('row').filter({ has: adminPage.getByRole('rowheader').filter({ hasText: id }) });
      await expect(row(appsPlan).getByRole('list', { name: 'One product' }).getByRole('listitem')).toHaveText([
        COMPANION_PRODUCTS.apps.name,
      ]);
      await expect(row('team-monthly').getByRole('list', { name: 'Both products' })).toBeVisible();
      await expect(row(appsPlan)).toContainText('Price made at the next checkout');
      await adminPage.getByRole('button', { name: 'Sync with Stripe' }).click();
      await expect(row(appsPlan)).toContainText('Synced with the catalogue');
      // Every default plan is sold through its synced Stripe price, none "not sold through Stripe".
      for (const id of ['solo-monthly', 'team-monthly', 'team-yearly', 'solo-lifetime']) {
        await expect(row(id).getByRole('cell').filter({ hasText: 'Synced with the catalogue' })).toContainText(/price_\w+/);
      }

      // A subscriber of the Apps plan.
      const { person } = await subscribe(page, request, appsPlan);
      await gotoHydrated(page, `${billing}/dashboard/user/subscription?plan=${browsersPlan}`);
      const chosen = page.getByRole('region', { name: `Your chosen plan: ${browsersPlan} (monthly)` });
      await expect(chosen).toContainText(
        `${browsersPlan} (monthly) covers Hitscope for Browsers, which none of your subscriptions covers: it is a second subscription, billed on its own.`,
      );
      const second = await startCheckout(page, chosen.getByRole('button', { name: `Add ${browsersPlan}` }));
      expect(second.orderId).toMatch(/^ord_/);

      // A bundle covers the product they have: not bought twice, switched to instead.
      await gotoHydrated(page, `${billing}/dashboard/user/subscription?plan=team-monthly`);
      const bundle = page.getByRole('region', { name: 'Your chosen plan: Team (monthly)' });
      await expect(bundle).toContainText(
        `You already have Hitscope for Apps through ${appsPlan} (monthly). Switch that subscription to Team (monthly)`,
      );
      await bundle.getByRole('button', { name: 'Switch to Team' }).click();
      await expect(
        page.getByRole('dialog', { name: 'Switch to Team (monthly)?' }).getByRole('region', { name: 'What the change costs' }),
      ).toBeVisible();
      expect((await stored(person.user.id)).orders).toHaveLength(2);

      // The home page no longer promises both products with every plan.
      await gotoHydrated(page, `${billing}/`);
      const pricing = page.getByRole('region', { name: 'Pricing' });
      await expect(pricing.getByRole('heading', { level: 2 })).toHaveText('Licences for the companion products');
      await expect(pricing.getByRole('listitem').filter({ has: page.getByRole('heading', { name: appsPlan }) })).toContainText(
        'Hitscope for Apps only',
      );
    } finally {
      for (const id of [appsPlan, browsersPlan]) await billingPost(admin, `/api/admin/catalogue/plans/${id}/deactivate`, {});
      await adminContext.close();
    }
  });

  test('after the purchase: a renewal’s receipt, once per invoice; a dispute suspends and then revokes a purchase, each said by mail and shown on the subscription page', async ({
    page,
    request,
  }) => {
    test.setTimeout(90_000);
    // A renewal of a running subscription: its receipt, once per invoice however often Stripe says it.
    const { person, customer, subscriptionId, periodEnd, metadata } = await subscribe(page, request);
    const renewal = stripeTestId('in');
    const invoice = await objects().invoice(renewal, {
      customer,
      billing_reason: 'subscription_cycle',
      amount_paid: 2900,
      currency: 'eur',
      hosted_invoice_url: `https://invoice.stripe.com/i/${renewal}`,
      parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata } },
    });
    await sendStripeEvents(request, [stripeEvent('invoice.paid', now(), invoice)]);
    await sendStripeEvents(request, [stripeEvent('invoice.paid', now(), invoice)]);
    const receiptSubject = 'Receipt for your Hitscope subscription (Team)';
    await expect.poll(() => mailsTo(person.email).map((mail) => mail.subject), { timeout: 15_000 }).toContain(receiptSubject);
    const receipts = mailsTo(person.email).filter((mail) => mail.subject === receiptSubject);
    expect(receipts).toHaveLength(1);
    expect(receipts[0].text).toContain('€29.00');
    expect(receipts[0].text).toContain(`https://invoice.stripe.com/i/${renewal}`);
    expect(receipts[0].text).toContain(`valid until ${new Date(periodEnd * 1000).toISOString().slice(0, 10)}`);

    // A one-off purchase.
    const billing = await billingServerUrl();
    const buyerOfLifetime = await buyer(page, 'journey-refund');
    const response = await billingPost(page.request, '/api/billing/checkout', { planId: 'solo-lifetime' });
    expect(response.status(), await response.text()).toBe(201);
    const { orderId } = (await response.json()) as { orderId: string };
    const ids = { paymentIntent: stripeTestId('pi'), charge: stripeTestId('ch'), dispute: stripeTestId('dp') };
    await sendStripeEvents(request, [
      stripeEvent(
        'checkout.session.completed',
        now(),
        await objects().checkoutSession({
          id: stripeTestId('cs_test'),
          client_reference_id: orderId,
          mode: 'payment',
          status: 'complete',
          payment_status: 'paid',
          payment_intent: ids.paymentIntent,
          customer: await stripeCustomerOf(buyerOfLifetime.user.id),
        }),
      ),
    ]);
    // A dispute opens: suspended, with a mail; then lost: revoked, with another.
    const dispute = (type: string, status: string, created: number) =>
      stripeEvent(type, created, {
        id: ids.dispute,
        object: 'dispute',
        charge: ids.charge,
        payment_intent: ids.paymentIntent,
        status,
        amount: 19900,
      });
    await sendStripeEvents(request, [dispute('charge.dispute.created', 'needs_response', now() + 1)]);
    await gotoHydrated(page, `${billing}/dashboard/user/subscription`);
    const owned = page.getByRole('region', { name: 'Solo lifetime' });
    await expect(owned).toContainText('Suspended');
    const suspendedSubject = 'Your Hitscope licence is suspended during a payment dispute';
    await expect.poll(() => mailsTo(buyerOfLifetime.email).map((mail) => mail.subject), { timeout: 15_000 }).toContain(suspendedSubject);
    const suspended = mailsTo(buyerOfLifetime.email).find((mail) => mail.subject === suspendedSubject)!;
    expect(suspended.text).toContain(orderId);

    await sendStripeEvents(request, [dispute('charge.dispute.closed', 'lost', now() + 2)]);
    await page.reload();
    await waitForHydration(page);
    await expect(owned).toContainText('Revoked');
    await expect(owned).toContainText('the licences are revoked');
    await expect
      .poll(() => mailsTo(buyerOfLifetime.email).map((mail) => mail.subject), { timeout: 15_000 })
      .toContain('Your Hitscope licence is revoked after a payment dispute');
    expect(mailsTo(buyerOfLifetime.email).filter((mail) => mail.subject.startsWith('Your Hitscope licence is'))).toHaveLength(2);
  });
});
