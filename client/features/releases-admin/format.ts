import { COMPANION_PRODUCTS, type ProductSlug } from '../../../lib/product.js';

const PRODUCT_NAMES = Object.fromEntries(Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name])) as Record<
  ProductSlug,
  string
>;

export const productName = (slug: ProductSlug): string => PRODUCT_NAMES[slug] ?? slug;

const COUNT = new Intl.NumberFormat('en-GB');

/** "1,234": a fixed locale, as every figure the server renders. */
export const formatCount = (value: number) => COUNT.format(value);
