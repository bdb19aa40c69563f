import { createHash } from 'node:crypto';
import type { Currency, PlanInterval } from '../../lib/api/catalogue.js';
import { productsText } from '../../lib/billing/plan-copy.js';
import { PRODUCT, type ProductSlug } from '../../lib/product.js';

/**
 * What a plan looks like in Stripe: one Product per plan (its own id, so it is found again without a
 * lookup table) and its current Price (found by lookup key). Pure, so the rules are table-tested
 * (stripe-catalogue.spec.ts); StripeCatalogueService does the calls.
 */

export interface CataloguePlanFacts {
  _id: string;
  name: string;
  products: readonly ProductSlug[];
  seats: number;
  amountMinor: number;
  currency: Currency;
  interval: PlanInterval;
}

export interface StripeProductParams {
  id: string;
  name: string;
  description: string;
  metadata: { planId: string; products: string };
}

export interface StripePriceParams {
  currency: Currency;
  unit_amount: number;
  /** Absent for a one-off (lifetime) plan: a one-time price, sold in Checkout's payment mode. */
  recurring?: { interval: 'month' | 'year' };
  lookup_key: string;
  nickname: string;
  metadata: { planId: string };
}

export interface StripeCatalogueEntry {
  product: StripeProductParams;
  /** Changes when the Product's name or description must change (Products can be updated). */
  productHash: string;
  price: Omit<StripePriceParams, 'product'>;
  /** Changes when the plan needs another Price (amount, currency and interval of a Price are fixed). */
  priceHash: string;
}

const hash = (parts: unknown[]) => createHash('sha256').update(JSON.stringify(parts)).digest('hex').slice(0, 16);

/** `hitscope_plan_<plan id>`: Stripe accepts ids of our choosing for Products. */
export const stripeProductIdOf = (planId: string) => `${PRODUCT.slug}_plan_${planId}`;

/** The lookup key of a plan's current Price; moved to each new Price (`transfer_lookup_key`). */
export const stripeLookupKeyOf = (planId: string) => `${PRODUCT.slug}_${planId}`;

export function stripeCatalogueEntry(plan: CataloguePlanFacts): StripeCatalogueEntry {
  const product: StripeProductParams = {
    id: stripeProductIdOf(plan._id),
    name: `${PRODUCT.name} ${plan.name}`,
    description: `${productsText(plan.products)}, ${plan.seats === 1 ? '1 seat' : `${plan.seats} seats`}`,
    metadata: { planId: plan._id, products: plan.products.join(',') },
  };
  const price: Omit<StripePriceParams, 'product'> = {
    currency: plan.currency,
    unit_amount: plan.amountMinor,
    ...(plan.interval === 'lifetime' ? {} : { recurring: { interval: plan.interval } }),
    lookup_key: stripeLookupKeyOf(plan._id),
    nickname: `${plan.name} (${plan.interval === 'lifetime' ? 'one-off' : `${plan.interval}ly`})`,
    metadata: { planId: plan._id },
  };
  return {
    product,
    productHash: hash([product.name, product.description, product.metadata]),
    price,
    priceHash: hash([product.id, price.currency, price.unit_amount, plan.interval]),
  };
}

/** The parts of a Stripe Price this module compares. */
export interface StripePriceLike {
  id: string;
  active: boolean;
  currency: string;
  unit_amount: number | null;
  product: string | { id: string };
  recurring: { interval: string; interval_count: number } | null;
}

/**
 * Whether a Price found in Stripe (by the plan's lookup key) already sells the plan as it is now: it
 * is then used instead of making another one (a sync interrupted after Stripe made the Price, an
 * app database restored from a backup, a second instance that got there first).
 */
export function priceMatches(price: StripePriceLike, entry: StripeCatalogueEntry): boolean {
  const productId = typeof price.product === 'string' ? price.product : price.product.id;
  const wanted = entry.price.recurring;
  const recurringMatches = wanted
    ? price.recurring?.interval === wanted.interval && price.recurring.interval_count === 1
    : price.recurring === null;
  return (
    price.active &&
    productId === entry.product.id &&
    price.currency === entry.price.currency &&
    price.unit_amount === entry.price.unit_amount &&
    recurringMatches
  );
}
