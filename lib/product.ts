/**
 * Product identity. The slug is configuration, not a literal: the companion products' tool routes,
 * download names and licence prefixes are all derived from it.
 */
export const PRODUCT = {
  slug: 'hitscope',
  name: 'Hitscope',
  tagline: 'Debug GA4, Google tag and consent mode like you mean it.',
  description:
    'Hitscope is the workbench for web-analytics engineers: validate GA4 Measurement Protocol payloads, decode Google tag _gl links, and inspect every analytics hit in HAR files and app logs.',
} as const;

export const COMPANION_PRODUCTS = {
  apps: { slug: `${PRODUCT.slug}-for-apps`, name: `${PRODUCT.name} for Apps`, kind: 'desktop app' },
  browsers: {
    slug: `${PRODUCT.slug}-for-browsers`,
    name: `${PRODUCT.name} for Browsers`,
    kind: 'browser extension',
  },
} as const;

/** The dashboard tools, in display order. Each one is a route under /dashboard/tools/. */
export const TOOLS = [
  {
    slug: 'ga4mp',
    name: 'GA4 Measurement Protocol',
    summary: 'Compose, validate and send Measurement Protocol payloads for web and app streams.',
  },
  {
    slug: 'google-tag-linker',
    name: 'Google tag linker',
    summary: 'Decode and build _gl cross-domain linker parameters and check their fingerprint.',
  },
  {
    slug: COMPANION_PRODUCTS.browsers.slug,
    name: COMPANION_PRODUCTS.browsers.name,
    summary: 'Analyse HAR exports: hits of Google, Adobe, Meta, Matomo, Segment and 40 more tools decoded, with warnings.',
  },
  {
    slug: COMPANION_PRODUCTS.apps.slug,
    name: COMPANION_PRODUCTS.apps.name,
    summary: 'Decode Firebase / GA4 debug logs from Android logcat and the iOS console.',
  },
] as const;

export type ToolSlug = (typeof TOOLS)[number]['slug'];

export const TOOL_SLUGS: readonly string[] = TOOLS.map((tool) => tool.slug);

export function isToolSlug(slug: string): slug is ToolSlug {
  return TOOL_SLUGS.includes(slug);
}

/** The slug of a companion product (`hitscope-for-apps`, `hitscope-for-browsers`): what plans and licences cover. */
export type ProductSlug = (typeof COMPANION_PRODUCTS)[keyof typeof COMPANION_PRODUCTS]['slug'];

export const PRODUCT_SLUGS: readonly ProductSlug[] = Object.values(COMPANION_PRODUCTS).map((product) => product.slug);
