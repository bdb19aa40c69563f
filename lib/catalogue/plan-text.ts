import type { CataloguePlan, PlanInterval } from '../api/catalogue.js';
import { formatMoney } from '../money.js';
import { COMPANION_PRODUCTS, type ProductSlug } from '../product.js';

/**
 * How a plan of the catalogue is put into words, wherever a page or a document names one (the
 * register page's chosen plan, the terms): always from the catalogue's own figures, so the words
 * cannot drift from what is sold.
 */

/** "per month", "per year", "one-off". */
export const INTERVAL_PERIOD: Readonly<Record<PlanInterval, string>> = { month: 'per month', year: 'per year', lifetime: 'one-off' };

/** "1 seat", "5 seats". */
export const seatsText = (seats: number) => (seats === 1 ? '1 seat' : `${seats} seats`);

/** "Team (monthly)", "Team (yearly)"; a one-off plan by its name alone ("Solo lifetime"). */
export function planLabel(plan: Pick<CataloguePlan, 'name' | 'interval'>): string {
  if (plan.interval === 'lifetime') return plan.name;
  return `${plan.name} (${plan.interval === 'month' ? 'monthly' : 'yearly'})`;
}

/** "€29 per month", "€199 one-off" (cents only when there are some). */
export function planPriceText(plan: Pick<CataloguePlan, 'amountMinor' | 'currency' | 'interval'>): string {
  return `${formatMoney(plan.amountMinor, plan.currency, { short: true })} ${INTERVAL_PERIOD[plan.interval]}`;
}

const PRODUCT_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name]),
);

/** "Hitscope for Apps", "Hitscope for Apps and Hitscope for Browsers". */
export function productsText(products: readonly ProductSlug[]): string {
  return listText(products.map((slug) => PRODUCT_NAMES[slug] ?? slug));
}

/** Words joined as a person lists them: "a", "a and b", "a, b and c". */
export function listText(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}
