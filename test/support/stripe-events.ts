/**
 * Stripe webhook events for the test suites (test/e2e/billing.e2e-spec.ts, test/browser/purchase.spec.ts):
 * the objects are stripe-mock's schema-shaped fixtures with each test's values on top (research
 * §2.4's recipe), and deliveries are signed offline with the stripe package, exactly as Stripe signs them.
 */
import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';

/** The API version of the webhook endpoint, stamped on every event (src/billing/stripe-client.ts pins the same). */
export const STRIPE_EVENT_API_VERSION = '2026-10-28.endive';

export interface StripeTestEvent {
  id: string;
  object: 'event';
  type: string;
  api_version: string;
  created: number;
  livemode: false;
  pending_webhooks: 1;
  data: { object: Record<string, unknown> };
}

/** An id unique across workers and runs, in Stripe's `<prefix>_…` form. */
export const stripeTestId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${randomBytes(5).toString('hex')}`;

/** An event of `type`, created at `created` (seconds), about `object`. */
export const stripeEvent = (type: string, created: number, object: Record<string, unknown>): StripeTestEvent => ({
  id: stripeTestId('evt'),
  object: 'event',
  type,
  api_version: STRIPE_EVENT_API_VERSION,
  created,
  livemode: false,
  pending_webhooks: 1,
  data: { object },
});

/** The `Stripe-Signature` header of `body` signed with `secret` (at `timestamp` seconds; now by default). */
export const stripeSignature = (body: string, secret: string, timestamp?: number): string =>
  Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp });

/** Builds event objects from stripe-mock's fixtures (so every field Stripe sends is there, in its shape). */
export class StripeObjects {
  private readonly stripe: Stripe;

  /** `mockUrl`: stripe-mock's origin (`http://127.0.0.1:<port>`). */
  constructor(mockUrl: string) {
    const mock = new URL(mockUrl);
    this.stripe = new Stripe('sk_test_fixtures', { host: mock.hostname, port: Number(mock.port), protocol: 'http' });
  }

  async subscription(overrides: {
    id: string;
    customer: string;
    status: string;
    quantity: number;
    periodEnd: number;
    cancelAtPeriodEnd?: boolean;
    metadata: Record<string, string>;
  }): Promise<Record<string, unknown>> {
    const base = (await this.stripe.subscriptions.retrieve(overrides.id)) as unknown as Record<string, unknown>;
    const items = base.items as { data: Array<Record<string, unknown>> };
    return {
      ...base,
      id: overrides.id,
      customer: overrides.customer,
      status: overrides.status,
      cancel_at_period_end: overrides.cancelAtPeriodEnd ?? false,
      cancel_at: overrides.cancelAtPeriodEnd ? overrides.periodEnd : null,
      metadata: overrides.metadata,
      items: { ...items, data: [{ ...items.data[0], quantity: overrides.quantity, current_period_end: overrides.periodEnd }] },
    };
  }

  async checkoutSession(overrides: Record<string, unknown>): Promise<Record<string, unknown>> {
    const base = (await this.stripe.checkout.sessions.retrieve('cs_test_fixture')) as unknown as Record<string, unknown>;
    return { ...base, ...overrides };
  }

  async invoice(id: string, overrides: Record<string, unknown>): Promise<Record<string, unknown>> {
    const base = (await this.stripe.invoices.retrieve(id)) as unknown as Record<string, unknown>;
    return { ...base, id, ...overrides };
  }
}
