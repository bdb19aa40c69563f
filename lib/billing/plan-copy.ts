/**
 * Words about plans, derived from the catalogue (never written down beside it): which companion
 * products a plan covers, and what the pricing says about all of them. Shared by the pages, the
 * mails and what the app names in Stripe.
 */
import { listText } from '../catalogue/plan-text.js';
import { COMPANION_PRODUCTS, PRODUCT_SLUGS, type ProductSlug } from '../product.js';

const PRODUCTS = Object.values(COMPANION_PRODUCTS);

/** `hitscope-for-apps` → "Hitscope for Apps". */
export const productName = (slug: ProductSlug | string): string => PRODUCTS.find((product) => product.slug === slug)?.name ?? slug;

/** "Hitscope for Apps", "Hitscope for Apps and Hitscope for Browsers": the products, in catalogue order. */
export function productsText(products: readonly (ProductSlug | string)[]): string {
  return listText(PRODUCT_SLUGS.filter((slug) => products.includes(slug)).map(productName));
}

/** Covers every companion product. */
export const coversAll = (products: readonly (ProductSlug | string)[]) => PRODUCT_SLUGS.every((slug) => products.includes(slug));

/** What a plan card says it covers: "Both companion products" only when it does, otherwise the product by name. */
export function coverageText(products: readonly (ProductSlug | string)[]): string {
  if (coversAll(products)) return PRODUCT_SLUGS.length === 2 ? 'Both companion products' : 'Every companion product';
  return `${productsText(products)} only`;
}

/**
 * The pricing section's heading and lead, from the plans on sale: "One licence, both companion
 * products" is said only while every plan covers both.
 */
export function pricingCopy(plans: ReadonlyArray<{ products: readonly (ProductSlug | string)[] }>): { heading: string; lead: string } {
  const [apps, browsers] = [COMPANION_PRODUCTS.apps, COMPANION_PRODUCTS.browsers];
  const products = `${apps.name}, the ${apps.kind}, and ${browsers.name}, the ${browsers.kind}`;
  if (plans.length > 0 && plans.every((plan) => coversAll(plan.products))) {
    return {
      heading: 'One licence, both companion products',
      lead: `Every plan includes ${products}. Cancel a subscription at the end of any billing period.`,
    };
  }
  return {
    heading: 'Licences for the companion products',
    lead: `Plans for ${products}: each plan names the products it covers. Cancel a subscription at the end of any billing period.`,
  };
}
