import type { OrderStatus, PurchaseView, SubscriptionStatus, SubscriptionView } from '../../../lib/api/billing.js';
import type { Currency } from '../../../lib/api/catalogue.js';
import { formatMoney } from '../../../lib/money.js';

/** A price as the pricing cards show it: "€29", or "€29.50" when there are cents. */
export const formatPrice = (amountMinor: number, currency: Currency) => formatMoney(amountMinor, currency, { short: true });

/* One date format and one way of naming plans across the app (server and browser render alike). */
export { formatDate } from '../../../lib/format/date.js';
export { INTERVAL_PERIOD, planLabel, seatsText } from '../../../lib/catalogue/plan-text.js';

export type Tone = 'good' | 'warn' | 'bad' | 'neutral';

export const ORDER_STATUS: Record<OrderStatus, { label: string; tone: Tone }> = {
  pending: { label: 'Pending', tone: 'neutral' },
  paid: { label: 'Paid', tone: 'good' },
  refunded: { label: 'Refunded', tone: 'neutral' },
  partially_refunded: { label: 'Partially refunded', tone: 'warn' },
  failed: { label: 'Failed', tone: 'bad' },
  abandoned: { label: 'Abandoned', tone: 'neutral' },
};

const SUBSCRIPTION_STATUS: Record<SubscriptionStatus, { label: string; tone: Tone }> = {
  incomplete: { label: 'Awaiting payment', tone: 'warn' },
  incomplete_expired: { label: 'Expired', tone: 'bad' },
  trialing: { label: 'Trial', tone: 'good' },
  active: { label: 'Active', tone: 'good' },
  past_due: { label: 'Past due', tone: 'warn' },
  unpaid: { label: 'Unpaid', tone: 'bad' },
  canceled: { label: 'Canceled', tone: 'neutral' },
  paused: { label: 'Paused', tone: 'warn' },
};

/** A running subscription set to end says so rather than "Active". */
export function subscriptionStatus(subscription: Pick<SubscriptionView, 'status' | 'cancelAtPeriodEnd'>): { label: string; tone: Tone } {
  if (subscription.cancelAtPeriodEnd && (subscription.status === 'active' || subscription.status === 'trialing')) {
    return { label: 'Cancels at period end', tone: 'warn' };
  }
  return SUBSCRIPTION_STATUS[subscription.status];
}

/** Still billed and changeable: what Cancel, Resume and Change plan apply to. */
export const isRunning = (status: SubscriptionStatus) => status === 'active' || status === 'trialing' || status === 'past_due';

/** Not over yet (paused and unpaid included): shown as the user's plan rather than the free plan. */
export const isLive = (status: SubscriptionStatus) => status !== 'canceled' && status !== 'incomplete_expired';

/** What a one-off purchase gives now, in a word (its licences' state follows it). */
export const PURCHASE_STATE: Record<PurchaseView['state'], { label: string; tone: Tone }> = {
  active: { label: 'Owned', tone: 'good' },
  suspended: { label: 'Suspended', tone: 'warn' },
  revoked: { label: 'Revoked', tone: 'bad' },
  expired: { label: 'Expired', tone: 'neutral' },
};
