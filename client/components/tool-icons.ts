import { COMPANION_PRODUCTS, type ToolSlug } from '../../lib/product.js';
import type { IconName } from './Icon.js';

/** One icon per tool, the same in the sidebar, the lounge and the home page. */
export const TOOL_ICONS: Record<ToolSlug, IconName> = {
  ga4mp: 'bolt',
  'google-tag-linker': 'link',
  [COMPANION_PRODUCTS.browsers.slug]: 'compass',
  [COMPANION_PRODUCTS.apps.slug]: 'phone',
};
