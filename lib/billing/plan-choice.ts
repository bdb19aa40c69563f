import type { PlanInterval } from '../api/catalogue.js';
import type { ProductSlug } from '../product.js';

/** A subscription that still runs, with the products its plan covers. */
export interface RunningSubscription {
  id: string;
  planId: string | null;
  /** Empty when its plan is not known: then it is taken to cover every product. */
  products: readonly ProductSlug[];
}

/**
 * What a person can do with a plan they chose, given the subscriptions they already run. One rule
 * for the server (Checkout refuses what it does not allow) and the subscription page (which says
 * what to do instead of ignoring the choice):
 * - `buy`: Checkout. A one-off plan always (it is a licence of its own), a recurring plan when no
 *   running subscription covers any of its products (a second subscription for the other product).
 * - `switch`: a recurring plan covering products that one running subscription already covers:
 *   change that subscription's plan (prorated), rather than paying twice for a product.
 * - `current`: the plan of a running subscription.
 * - `overlap`: it covers products of two or more running subscriptions; one has to end first.
 */
export type PlanChoice =
  | { kind: 'buy' }
  | { kind: 'switch'; subscriptionId: string }
  | { kind: 'current'; subscriptionId: string }
  | { kind: 'overlap'; subscriptionIds: string[] };

export function planChoice(
  plan: { id: string; interval: PlanInterval; products: readonly ProductSlug[] },
  running: readonly RunningSubscription[],
): PlanChoice {
  if (plan.interval === 'lifetime') return { kind: 'buy' };
  const overlapping = running.filter(
    (subscription) => subscription.products.length === 0 || subscription.products.some((product) => plan.products.includes(product)),
  );
  if (overlapping.length === 0) return { kind: 'buy' };
  if (overlapping.length > 1) return { kind: 'overlap', subscriptionIds: overlapping.map((subscription) => subscription.id) };
  const [only] = overlapping;
  return only.planId === plan.id ? { kind: 'current', subscriptionId: only.id } : { kind: 'switch', subscriptionId: only.id };
}

/** The products `plans` leave uncovered: what a person could still buy a subscription for. */
export function uncoveredProducts(all: readonly ProductSlug[], running: readonly RunningSubscription[]): ProductSlug[] {
  if (running.some((subscription) => subscription.products.length === 0)) return [];
  return all.filter((product) => !running.some((subscription) => subscription.products.includes(product)));
}
