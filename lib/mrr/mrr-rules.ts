/**
 * Monthly recurring revenue (MRR) by Hitscope's documented rules (docs/mrr.md, research
 * commerce-admin §5.2). Pure and framework-free: the daily snapshot job (src/overview) and the tests
 * use the same functions. Money is integer minor units throughout; each subscription is rounded
 * once, half to even, so a total is always the exact sum of its subscriptions.
 */
import type { SubscriptionStatus } from '../api/billing.js';

/** Stripe's billing intervals, plus the catalogue's one-off `lifetime` (never MRR). */
export type MrrInterval = 'day' | 'week' | 'month' | 'year' | 'lifetime';

export interface MrrPrice {
  /** Per unit and per billing period, excluding tax. */
  amountMinor: number;
  currency: string;
  interval: MrrInterval;
  /** Billed every `intervalCount` intervals (Stripe's `interval_count`); 1 unless given. */
  intervalCount?: number;
}

/**
 * A recurring discount (a Stripe coupon applied to the subscription). `once` coupons reduce one
 * invoice, not the recurring revenue, so they are ignored; `repeating` ones count until `end`.
 */
export interface MrrDiscount {
  /** 0-100, up to two decimals (Stripe's `percent_off`). */
  percentOff?: number | null;
  /** Off each invoice, in the discount's currency (Stripe's `amount_off`). */
  amountOffMinor?: number | null;
  currency?: string | null;
  duration: 'forever' | 'once' | 'repeating';
  end?: Date | null;
}

export interface MrrSubscriptionInput {
  id: string;
  customerId: string;
  status: SubscriptionStatus;
  quantity: number;
  /** Null when the subscription's plan is not known (it cannot be valued). */
  price: MrrPrice | null;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  currentPeriodEnd: Date | null;
  discount?: MrrDiscount | null;
}

/** Statuses whose subscriptions count: paid, or paid late (a failed renewal still counts, as in ChartMogul). */
export const MRR_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due'];

export type MrrExclusion = 'status' | 'ended' | 'one-off' | 'unpriced';

export type MrrValuation =
  { counted: true; currency: string; mrrMinor: number } | { counted: false; reason: MrrExclusion; currency: string | null };

/** One subscription's share of a day's MRR, as a snapshot stores it. */
export interface MrrContribution {
  id: string;
  customerId: string;
  currency: string;
  mrrMinor: number;
}

export const MOVEMENT_KINDS = ['new', 'expansion', 'contraction', 'churn', 'reactivation'] as const;
export type MovementKind = (typeof MOVEMENT_KINDS)[number];

/** Each kind as a non-negative amount: net change = new + expansion + reactivation − contraction − churn. */
export type Movements = Record<MovementKind, number>;

export const noMovements = (): Movements => ({ new: 0, expansion: 0, contraction: 0, churn: 0, reactivation: 0 });

/** `numerator / denominator` (denominator > 0, numerator ≥ 0) to the nearest integer, ties to even. */
export function divideHalfEven(numerator: bigint, denominator: bigint): bigint {
  const quotient = numerator / denominator;
  const twice = (numerator % denominator) * 2n;
  if (twice > denominator || (twice === denominator && quotient % 2n === 1n)) return quotient + 1n;
  return quotient;
}

/** Months per interval as a fraction: a period's amount × numerator ÷ denominator is a month's. */
function monthlyFactor(interval: Exclude<MrrInterval, 'lifetime'>, count: number): [bigint, bigint] {
  const n = BigInt(count);
  switch (interval) {
    case 'month':
      return [1n, n];
    case 'year':
      return [1n, 12n * n];
    case 'week':
      return [52n, 12n * n];
    case 'day':
      return [365n, 12n * n];
  }
}

function discountApplies(discount: MrrDiscount | null | undefined, currency: string, asOf: Date): discount is MrrDiscount {
  if (!discount || discount.duration === 'once') return false;
  if (discount.end && discount.end.getTime() <= asOf.getTime()) return false;
  if (discount.amountOffMinor && discount.currency && discount.currency.toLowerCase() !== currency) return false;
  return Boolean(discount.percentOff) || Boolean(discount.amountOffMinor);
}

/** Has the subscription ended by `asOf`, even if the event saying so has not arrived yet? */
function hasEnded(subscription: MrrSubscriptionInput, asOf: Date): boolean {
  const at = asOf.getTime();
  if (subscription.cancelAt && subscription.cancelAt.getTime() <= at) return true;
  return subscription.cancelAtPeriodEnd && subscription.currentPeriodEnd !== null && subscription.currentPeriodEnd.getTime() <= at;
}

/**
 * One subscription's MRR at `asOf`:
 * `unit amount × quantity − recurring discount`, per billing period, normalised to a month
 * (month ÷ count, year ÷ 12·count, week × 52/12·count, day × 365/12·count), computed as an exact
 * fraction and rounded once, half to even, to the currency's minor unit.
 */
export function valueSubscription(subscription: MrrSubscriptionInput, asOf: Date): MrrValuation {
  const currency = subscription.price?.currency.toLowerCase() ?? null;
  if (!MRR_STATUSES.includes(subscription.status)) return { counted: false, reason: 'status', currency };
  if (hasEnded(subscription, asOf)) return { counted: false, reason: 'ended', currency };
  const price = subscription.price;
  if (!price || currency === null) return { counted: false, reason: 'unpriced', currency };
  if (price.interval === 'lifetime') return { counted: false, reason: 'one-off', currency };

  const quantity = BigInt(Math.max(0, Math.trunc(subscription.quantity)));
  const gross = BigInt(Math.trunc(price.amountMinor)) * quantity;
  // The period's net amount as net / 10 000 (hundredths of a percent keep percent_off exact).
  let net = gross * 10_000n;
  const discount = subscription.discount;
  if (discountApplies(discount, currency, asOf)) {
    if (discount.percentOff) {
      const off = BigInt(Math.min(10_000, Math.max(0, Math.round(discount.percentOff * 100))));
      net = gross * (10_000n - off);
    } else if (discount.amountOffMinor) {
      const off = BigInt(Math.max(0, Math.trunc(discount.amountOffMinor)));
      net = (gross > off ? gross - off : 0n) * 10_000n;
    }
  }
  const [perMonth, periods] = monthlyFactor(price.interval, Math.max(1, Math.trunc(price.intervalCount ?? 1)));
  const mrrMinor = divideHalfEven(net * perMonth, 10_000n * periods);
  return { counted: true, currency, mrrMinor: Number(mrrMinor) };
}

export interface MrrDay {
  /** Subscriptions with MRR > 0, sorted by id (the same input gives the same document). */
  contributions: MrrContribution[];
  /** Per currency, sorted by code. */
  totals: { currency: string; mrrMinor: number; subscriptions: number }[];
  counts: { counted: number; trialing: number; pastDue: number; excluded: number; unpriced: number };
}

/** Every subscription valued at `asOf`, with per-currency totals (never summed across currencies). */
export function computeMrr(subscriptions: readonly MrrSubscriptionInput[], asOf: Date): MrrDay {
  const contributions: MrrContribution[] = [];
  const counts = { counted: 0, trialing: 0, pastDue: 0, excluded: 0, unpriced: 0 };
  for (const subscription of subscriptions) {
    if (subscription.status === 'trialing') counts.trialing += 1;
    const valuation = valueSubscription(subscription, asOf);
    if (!valuation.counted) {
      if (valuation.reason === 'unpriced') counts.unpriced += 1;
      else counts.excluded += 1;
      continue;
    }
    counts.counted += 1;
    if (subscription.status === 'past_due') counts.pastDue += 1;
    if (valuation.mrrMinor > 0) {
      contributions.push({
        id: subscription.id,
        customerId: subscription.customerId,
        currency: valuation.currency,
        mrrMinor: valuation.mrrMinor,
      });
    }
  }
  contributions.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { contributions, totals: totalsOf(contributions), counts };
}

export function totalsOf(contributions: readonly MrrContribution[]): MrrDay['totals'] {
  const totals = new Map<string, { currency: string; mrrMinor: number; subscriptions: number }>();
  for (const { currency, mrrMinor } of contributions) {
    const total = totals.get(currency) ?? { currency, mrrMinor: 0, subscriptions: 0 };
    total.mrrMinor += mrrMinor;
    total.subscriptions += 1;
    totals.set(currency, total);
  }
  return [...totals.values()].sort((a, b) => a.currency.localeCompare(b.currency));
}

/** MRR per customer and currency (the unit movements are classified by). */
function byCustomer(contributions: readonly MrrContribution[]): Map<string, number> {
  const sums = new Map<string, number>();
  for (const { customerId, currency, mrrMinor } of contributions) {
    const key = `${currency}\u0000${customerId}`;
    sums.set(key, (sums.get(key) ?? 0) + mrrMinor);
  }
  return sums;
}

/** Customers at 0 in `before` and above 0 in `after`: the ones `hadMrrBefore` must answer for. */
export function customersStarting(before: readonly MrrContribution[], after: readonly MrrContribution[]): string[] {
  const earlier = new Set(before.map((entry) => entry.customerId));
  return [...new Set(after.filter((entry) => !earlier.has(entry.customerId)).map((entry) => entry.customerId))].sort();
}

/**
 * Movements from one snapshot to the next, per currency, by customer (a Stripe customer's MRR in a
 * currency): 0 → >0 is new, or reactivation when `hadMrrBefore(customer)`; up is expansion; down is
 * contraction; >0 → 0 is churn. For every currency, the movements add up to the change in its total.
 */
export function classifyMovements(
  before: readonly MrrContribution[],
  after: readonly MrrContribution[],
  hadMrrBefore: (customerId: string) => boolean,
): Map<string, Movements> {
  const from = byCustomer(before);
  const to = byCustomer(after);
  const result = new Map<string, Movements>();
  const movementsOf = (currency: string) => {
    let movements = result.get(currency);
    if (!movements) result.set(currency, (movements = noMovements()));
    return movements;
  };
  for (const key of new Set([...from.keys(), ...to.keys()])) {
    const [currency, customerId] = key.split('\u0000');
    const was = from.get(key) ?? 0;
    const is = to.get(key) ?? 0;
    if (was === is) continue;
    const movements = movementsOf(currency);
    if (was === 0) movements[hadMrrBefore(customerId) ? 'reactivation' : 'new'] += is;
    else if (is === 0) movements.churn += was;
    else if (is > was) movements.expansion += is - was;
    else movements.contraction += was - is;
  }
  return result;
}

export function addMovements(into: Movements, more: Movements): Movements {
  for (const kind of MOVEMENT_KINDS) into[kind] += more[kind];
  return into;
}

export const netMovement = (movements: Movements): number =>
  movements.new + movements.expansion + movements.reactivation - movements.contraction - movements.churn;
