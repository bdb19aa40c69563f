// Stripe-shaped webhook events for the webhook benchmark (`BENCH_ONLY=webhooks`), in plain JS: the
// Jest suite's builders (test/e2e/billing.e2e-spec.ts) are TypeScript. As there, each object is a
// schema-shaped one from stripe-mock with this purchase's values laid over it. (This folder is not
// a tool benchmark: scripts/bench.mjs only runs the *.mjs files directly in scripts/bench.)
import Stripe from 'stripe';

/** The API version the app speaks (src/billing/stripe-client.ts): the same as the stripe package's. */
export const API_VERSION = Stripe.API_VERSION;

/** The base objects, once: a subscription, a Checkout Session and an invoice as stripe-mock answers them. */
export async function stripeFixtures(stripeMockUrl) {
  const url = new URL(stripeMockUrl);
  const stripe = new Stripe('sk_test_benchfixtures', { host: url.hostname, port: Number(url.port), protocol: 'http' });
  const [subscription, session, invoice] = await Promise.all([
    stripe.subscriptions.retrieve('sub_fixture'),
    stripe.checkout.sessions.retrieve('cs_test_fixture'),
    stripe.invoices.retrieve('in_fixture'),
  ]);
  return { subscription, session, invoice };
}

const event = (id, type, created, object) => ({
  id,
  object: 'event',
  type,
  api_version: API_VERSION,
  created,
  livemode: false,
  pending_webhooks: 1,
  request: { id: null, idempotency_key: null },
  data: { object },
});

/**
 * The six events of one customer who bought a subscription through Checkout 40 days ago, had it
 * renewed 10 days ago, and bought the lifetime plan too:
 *
 *   customer.subscription.created   active, first period
 *   checkout.session.completed      subscription mode, paid: the subscription's checkout order
 *   checkout.session.completed      payment mode, paid: the lifetime order
 *   invoice.paid                    subscription_create: pays the checkout order
 *   invoice.paid                    subscription_cycle: a renewal order inv_<invoice id>
 *   customer.subscription.updated   the renewed period
 *
 * `tag` makes every id unique; `customer` is the Stripe customer the app made at checkout, and the
 * orders are the ones POST /api/billing/checkout answered.
 */
export function purchaseEvents(fixtures, { tag, userId, customer, planId, amountMinor, subscriptionOrderId, lifetimeOrderId, now }) {
  const start = now - 40 * 86_400;
  const renewed = now - 10 * 86_400;
  const subscriptionId = `sub_bench${tag}`;
  const metadata = { orderId: subscriptionOrderId, planId, userId };
  const subscription = (status, periodStart, periodEnd, latestInvoice) => {
    const item = fixtures.subscription.items.data[0];
    return {
      ...fixtures.subscription,
      id: subscriptionId,
      customer,
      status,
      created: start,
      start_date: start,
      billing_cycle_anchor: start,
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      latest_invoice: latestInvoice,
      metadata,
      items: {
        ...fixtures.subscription.items,
        data: [
          {
            ...item,
            id: `si_bench${tag}`,
            subscription: subscriptionId,
            quantity: 1,
            current_period_start: periodStart,
            current_period_end: periodEnd,
          },
        ],
      },
    };
  };
  const session = (suffix, overrides) => ({
    ...fixtures.session,
    id: `cs_test_bench${tag}${suffix}`,
    customer,
    status: 'complete',
    payment_status: 'paid',
    created: start,
    url: null,
    ...overrides,
  });
  const invoice = (id, billingReason, created, periodStart, periodEnd) => ({
    ...fixtures.invoice,
    id,
    customer,
    billing_reason: billingReason,
    status: 'paid',
    currency: 'eur',
    amount_due: amountMinor,
    amount_paid: amountMinor,
    amount_remaining: 0,
    created,
    period_start: periodStart,
    period_end: periodEnd,
    hosted_invoice_url: `https://invoice.stripe.com/i/bench/${id}`,
    parent: { type: 'subscription_details', quote_details: null, subscription_details: { subscription: subscriptionId, metadata } },
    payments: {
      object: 'list',
      has_more: false,
      url: `/v1/invoice_payments?invoice=${id}`,
      data: [{ object: 'invoice_payment', id: `inpay_${id}`, payment: { type: 'payment_intent', payment_intent: `pi_${id}` } }],
    },
  });
  const firstInvoice = `in_bench${tag}a`;
  const renewalInvoice = `in_bench${tag}b`;
  const month = 30 * 86_400;
  return [
    event(`evt_bench${tag}_1`, 'customer.subscription.created', start, subscription('active', start, start + month, firstInvoice)),
    event(
      `evt_bench${tag}_2`,
      'checkout.session.completed',
      start,
      session('s', {
        mode: 'subscription',
        client_reference_id: subscriptionOrderId,
        subscription: subscriptionId,
        invoice: firstInvoice,
        payment_intent: null,
        metadata,
      }),
    ),
    event(
      `evt_bench${tag}_3`,
      'checkout.session.completed',
      start,
      session('l', {
        mode: 'payment',
        client_reference_id: lifetimeOrderId,
        subscription: null,
        invoice: null,
        payment_intent: `pi_bench${tag}l`,
        metadata: { orderId: lifetimeOrderId, planId: 'solo-lifetime', userId },
      }),
    ),
    event(`evt_bench${tag}_4`, 'invoice.paid', start, invoice(firstInvoice, 'subscription_create', start, start, start + month)),
    event(`evt_bench${tag}_5`, 'invoice.paid', renewed, invoice(renewalInvoice, 'subscription_cycle', renewed, renewed, renewed + month)),
    event(`evt_bench${tag}_6`, 'customer.subscription.updated', renewed, subscription('active', renewed, renewed + month, renewalInvoice)),
  ];
}

/** The `Stripe-Signature` header of a body, made as Stripe makes it (timestamp: now). */
export const signature = (body, secret) => Stripe.webhooks.generateTestHeaderString({ payload: body, secret });
