import type { CataloguePlan } from '../api/catalogue.js';
import { COMPANION_PRODUCTS, PRODUCT } from '../product.js';
import type { RouteDefinition, StructuredDataKind } from '../routes/route-table.js';
import { siteTitle } from './site-title.js';

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON for a `<script type="application/ld+json">`: `<` is escaped so the text cannot close the tag. */
export function jsonForScript(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** What a plan costs per unit, as schema.org wants it ("29.00"); one-off and recurring plans alike. */
const offerPrice = (plan: Pick<CataloguePlan, 'amountMinor'>) => (plan.amountMinor / 100).toFixed(2);

/**
 * The page's JSON-LD. A product's offers are the plans on sale that cover it (from the catalogue the
 * page was rendered with); without the catalogue, no offers rather than made-up ones.
 */
export function structuredData(kind: StructuredDataKind, publicUrl: string, plans: readonly CataloguePlan[] = []): object[] {
  const organization = {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: PRODUCT.name,
    url: publicUrl,
    logo: `${publicUrl}/favicon.svg`,
  };
  const website = {
    '@context': 'https://schema.org',
    '@type': 'WebSite',
    name: PRODUCT.name,
    url: publicUrl,
    description: PRODUCT.description,
  };
  const products = Object.values(COMPANION_PRODUCTS).map((product) => ({
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: product.name,
    applicationCategory: 'DeveloperApplication',
    operatingSystem: product.kind === 'desktop app' ? 'Windows, macOS, Linux' : 'Chrome, Edge, Firefox',
    url: `${publicUrl}/dashboard/tools/${product.slug}`,
    ...(plans.some((plan) => plan.products.includes(product.slug))
      ? {
          offers: plans
            .filter((plan) => plan.products.includes(product.slug))
            .map((plan) => ({
              '@type': 'Offer',
              name: plan.interval === 'lifetime' ? plan.name : `${plan.name} (${plan.interval === 'month' ? 'monthly' : 'yearly'})`,
              price: offerPrice(plan),
              priceCurrency: plan.currency.toUpperCase(),
            })),
        }
      : {}),
  }));
  switch (kind) {
    case 'home':
      return [organization, website, ...products];
    case 'sponsor':
      return [organization];
    case 'product':
      return products;
  }
}

export interface HeadInput {
  route: Pick<RouteDefinition, 'title' | 'description' | 'noindex' | 'structuredData'> | null;
  /** Used when there is no route (error screens). */
  title?: string;
  pathname: string;
  publicUrl: string;
  nonce?: string;
  /** The site name from the settings (defaults to the product name). */
  siteName?: string;
  /** The plans on sale, when the page was rendered with the catalogue (the products' offers). */
  plans?: readonly CataloguePlan[];
}

/** The `<head>` tags of a page: title, description, canonical, Open Graph, robots and JSON-LD. */
export function renderHead({ route, title, pathname, publicUrl, nonce, siteName, plans }: HeadInput): string {
  const pageTitle = siteTitle(title ?? route?.title ?? PRODUCT.name, siteName);
  const description = route?.description ?? PRODUCT.description;
  const canonical = `${publicUrl}${pathname === '/' ? '/' : pathname}`;
  const tags = [
    `<title>${escapeHtml(pageTitle)}</title>`,
    `<meta name="description" content="${escapeHtml(description)}">`,
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="${escapeHtml(siteName ?? PRODUCT.name)}">`,
    `<meta property="og:title" content="${escapeHtml(pageTitle)}">`,
    `<meta property="og:description" content="${escapeHtml(description)}">`,
    `<meta property="og:url" content="${escapeHtml(canonical)}">`,
    `<meta property="og:image" content="${escapeHtml(`${publicUrl}/og-image.svg`)}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
  ];
  if (!route || route.noindex) tags.push('<meta name="robots" content="noindex">');
  if (route?.structuredData) {
    const nonceAttr = nonce ? ` nonce="${escapeHtml(nonce)}"` : '';
    for (const item of structuredData(route.structuredData, publicUrl, plans)) {
      tags.push(`<script type="application/ld+json"${nonceAttr}>${jsonForScript(item)}</script>`);
    }
  }
  return tags.join('\n    ');
}
