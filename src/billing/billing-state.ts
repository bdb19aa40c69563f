import type { OrderStatus, SubscriptionStatus } from '../../lib/api/billing.js';
import type { PlanInterval } from '../../lib/api/catalogue.js';
import type { ProductSlug } from '../../lib/product.js';
import type { Entitlement, EntitlementState } from './entitlement-sink.js';

/**
 * Pure rules of billing state: an order's status from its facts, and the entitlement of a
 * subscription or an order. No I/O, so they are table-tested (billing-state.spec.ts).
 */

/** How long a past_due subscription's licence stays valid after the period it paid for. */
export const GRACE_DAYS = 7;
const DAY_MS = 86_400_000;

export interface OrderFacts {
  amountMinor: number;
  paidAt: Date | null;
  failedAt: Date | null;
  expiredAt: Date | null;
  refundedMinor: number;
  refundedInFull: boolean;
}

/**
 * Facts only accumulate (a payment, a failure, an expiry, a growing refunded amount), and the status
 * is read from all of them at once, so events applied in any order end in the same status.
 */
export function orderStatus(facts: OrderFacts): OrderStatus {
  if (facts.paidAt) {
    if (facts.refundedInFull || (facts.amountMinor > 0 && facts.refundedMinor >= facts.amountMinor)) return 'refunded';
    if (facts.refundedMinor > 0) return 'partially_refunded';
    return 'paid';
  }
  if (facts.failedAt) return 'failed';
  if (facts.expiredAt) return 'abandoned';
  return 'pending';
}

export interface PlanFacts {
  id: string;
  products: ProductSlug[];
  seats: number;
  interval: PlanInterval;
}

export interface PaymentFacts {
  status: OrderStatus;
  dispute: { status: string } | null;
}

/** A dispute lost (or a payment refunded in full) revokes; one still open suspends; won restores. */
function paymentOverride(payments: PaymentFacts[]): EntitlementState | null {
  if (payments.some((payment) => payment.dispute?.status === 'lost')) return 'revoked';
  if (payments.some((payment) => payment.status === 'refunded')) return 'revoked';
  if (payments.some((payment) => payment.dispute && !['won', 'lost', 'warning_closed'].includes(payment.dispute.status)))
    return 'suspended';
  return null;
}

export interface SubscriptionFacts {
  id: string;
  userId: string;
  status: SubscriptionStatus;
  quantity: number;
  currentPeriodEnd: Date | null;
}

const SUBSCRIPTION_STATES: Record<SubscriptionStatus, EntitlementState> = {
  trialing: 'active',
  active: 'active',
  past_due: 'past_due',
  // Every retry failed: no grace any more, but the person may still pay the open invoice.
  unpaid: 'suspended',
  paused: 'suspended',
  // Created, first payment not (yet) made: nothing to use until it is.
  incomplete: 'suspended',
  incomplete_expired: 'expired',
  canceled: 'expired',
};

/** The complete entitlement of a subscription: its status, seats and period, and its payments' disputes/refunds. */
export function subscriptionEntitlement(subscription: SubscriptionFacts, plan: PlanFacts, payments: PaymentFacts[]): Entitlement {
  const state = paymentOverride(payments) ?? SUBSCRIPTION_STATES[subscription.status];
  const end = subscription.currentPeriodEnd;
  return {
    source: { kind: 'subscription', id: subscription.id },
    userId: subscription.userId,
    planId: plan.id,
    products: [...plan.products],
    seats: plan.seats * Math.max(1, subscription.quantity),
    state,
    expiresAt: end,
    graceUntil: state === 'past_due' && end ? new Date(end.getTime() + GRACE_DAYS * DAY_MS) : null,
  };
}

export interface StandaloneOrderFacts extends PaymentFacts {
  id: string;
  userId: string;
  quantity: number;
  paidAt: Date | null;
}

/** When an order paid outside a subscription ends: never for lifetime, one interval after payment otherwise. */
export function orderExpiry(interval: PlanInterval, paidAt: Date): Date | null {
  if (interval === 'lifetime') return null;
  const end = new Date(paidAt);
  const day = end.getUTCDate();
  if (interval === 'month') end.setUTCMonth(end.getUTCMonth() + 1);
  else end.setUTCFullYear(end.getUTCFullYear() + 1);
  // 31 January + 1 month is 28 February, not 3 March (Date rolls over; calendars do not).
  if (end.getUTCDate() !== day) end.setUTCDate(0);
  return end;
}

/**
 * The entitlement of an order that is its own source (lifetime purchases, manual orders), or null
 * when it never gave one (pending, failed, abandoned: nothing to apply, nothing to take back).
 */
export function orderEntitlement(order: StandaloneOrderFacts, plan: PlanFacts, now = new Date()): Entitlement | null {
  if (!order.paidAt) return null;
  const expiresAt = orderExpiry(plan.interval, order.paidAt);
  const state = paymentOverride([order]) ?? (expiresAt && expiresAt <= now ? 'expired' : 'active');
  return {
    source: { kind: 'order', id: order.id },
    userId: order.userId,
    planId: plan.id,
    products: [...plan.products],
    seats: plan.seats * Math.max(1, order.quantity),
    state,
    expiresAt,
    graceUntil: null,
  };
}
