import { COMPANION_PRODUCTS, type ProductSlug } from '../../../lib/product.js';

const PRODUCT_NAMES = Object.fromEntries(Object.values(COMPANION_PRODUCTS).map((product) => [product.slug, product.name])) as Record<
  ProductSlug,
  string
>;

export const productName = (slug: ProductSlug): string => PRODUCT_NAMES[slug] ?? slug;
