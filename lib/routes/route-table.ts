import { COMPANION_PRODUCTS, isToolSlug, PRODUCT } from '../product.js';
import { routeMiddleware, type RouteMiddleware } from './route-middleware.js';

export type LayoutName = 'default' | 'none' | 'authenticated' | 'admin';
export type StructuredDataKind = 'home' | 'sponsor' | 'product';

export interface RouteDefinition {
  /** Stable id, also the react-router route id. */
  id: string;
  /** An exact path, or a prefix ending in `/*` (a family of paths checked by `validate`). */
  path: string;
  layout: LayoutName;
  /** Names looked up in the middleware registry when the table is built. */
  middleware: readonly string[];
  /** Client page module under `client/pages/`, without extension; `null` for validate-only families. */
  page: string | null;
  title: string;
  description: string;
  /** Listed in /sitemap.xml (public, indexable pages only). */
  sitemap?: boolean;
  /** Noindex pages (sign-in forms, the error screen, everything behind sign-in). */
  noindex?: boolean;
  structuredData?: StructuredDataKind;
  /** Rejecting the path is a fatal 404: `Page Not Found: {path}`. */
  validate?: (pathname: string) => boolean;
}

export interface RouteEntry extends Omit<RouteDefinition, 'middleware'> {
  middleware: readonly string[];
  /** The middleware functions, resolved from the registry in table order. */
  guards: readonly RouteMiddleware[];
}

export class UnknownRouteMiddlewareError extends Error {
  constructor(routePath: string, name: string, known: readonly string[]) {
    super(`Route "${routePath}" names unknown middleware "${name}" (known: ${known.join(', ')})`);
    this.name = 'UnknownRouteMiddlewareError';
  }
}

const { apps, browsers } = COMPANION_PRODUCTS;
const tool = (slug: string) => `/dashboard/tools/${slug}`;

/** The one route table (docs/routes.md). Order matters only for display (matching is exact first). */
export const ROUTE_DEFINITIONS: readonly RouteDefinition[] = [
  {
    id: 'home',
    path: '/',
    layout: 'default',
    middleware: [],
    page: 'public/HomePage',
    title: `${PRODUCT.name} — analytics debugging tools for GA4 and Google tag`,
    description: PRODUCT.description,
    sitemap: true,
    structuredData: 'home',
  },
  {
    id: 'login',
    path: '/login',
    layout: 'none',
    middleware: ['guest'],
    page: 'auth/LoginPage',
    title: `Sign in — ${PRODUCT.name}`,
    description: `Sign in to your ${PRODUCT.name} account.`,
    noindex: true,
  },
  {
    id: 'logout',
    path: '/logout',
    layout: 'none',
    middleware: [],
    page: 'auth/LogoutPage',
    title: `Signed out — ${PRODUCT.name}`,
    description: `You have been signed out of ${PRODUCT.name}.`,
    noindex: true,
  },
  {
    id: 'register',
    path: '/register',
    layout: 'none',
    middleware: ['guest'],
    page: 'auth/RegisterPage',
    title: `Create your account — ${PRODUCT.name}`,
    description: `Create a ${PRODUCT.name} account and start debugging your analytics.`,
  },
  {
    id: 'sponsor',
    path: '/sponsor',
    layout: 'default',
    middleware: [],
    page: 'public/SponsorPage',
    title: `Sponsor ${PRODUCT.name}`,
    description: `Sponsor ${PRODUCT.name} and keep free analytics debugging tools alive.`,
    sitemap: true,
    structuredData: 'sponsor',
  },
  {
    id: 'privacy-policy',
    path: '/privacy-policy',
    layout: 'default',
    middleware: [],
    page: 'public/PrivacyPolicyPage',
    title: `Privacy policy — ${PRODUCT.name}`,
    description: `How ${PRODUCT.name} collects, uses and protects your data.`,
    sitemap: true,
  },
  {
    id: 'terms',
    path: '/terms',
    layout: 'default',
    middleware: [],
    page: 'public/TermsPage',
    title: `Terms of service — ${PRODUCT.name}`,
    description: `The terms for using ${PRODUCT.name}: your account, the free web tools, and licences for ${PRODUCT.name} for Apps and ${PRODUCT.name} for Browsers.`,
    sitemap: true,
  },
  {
    id: 'error',
    path: '/error',
    layout: 'none',
    middleware: [],
    page: 'public/ErrorPage',
    title: `Something went wrong — ${PRODUCT.name}`,
    description: 'An error occurred.',
    noindex: true,
  },
  // The pages behind the links in newsletter mails: one button each, since opening a link changes nothing.
  {
    id: 'newsletter-confirm',
    path: '/newsletter/confirm',
    layout: 'none',
    middleware: [],
    page: 'public/NewsletterConfirmPage',
    title: `Confirm your newsletter subscription — ${PRODUCT.name}`,
    description: `Confirm your subscription to the ${PRODUCT.name} newsletter.`,
    noindex: true,
  },
  {
    id: 'newsletter-unsubscribe',
    path: '/newsletter/unsubscribe',
    layout: 'none',
    middleware: [],
    page: 'public/NewsletterUnsubscribePage',
    title: `Unsubscribe from the newsletter — ${PRODUCT.name}`,
    description: `Stop receiving the ${PRODUCT.name} newsletter.`,
    noindex: true,
  },
  ...(
    [
      ['admin', '/admin', 'admin/AdminOverviewPage', 'Admin overview'],
      ['admin-settings', '/admin/settings', 'admin/AdminSettingsPage', 'Settings'],
      ['admin-analytics', '/admin/analytics', 'admin/AdminAnalyticsPage', 'Analytics'],
      ['admin-newsletter', '/admin/newsletter', 'admin/AdminNewsletterPage', 'Newsletter'],
      ['admin-users', '/admin/users', 'admin/AdminUsersPage', 'Users'],
    ] as const
  ).map(([id, path, page, title]): RouteDefinition => ({
    id,
    path,
    layout: 'admin',
    middleware: ['auth', 'admin'],
    page,
    title: `${title} — ${PRODUCT.name} admin`,
    description: `${PRODUCT.name} administration: ${title.toLowerCase()}.`,
    noindex: true,
  })),
  ...(
    [
      ['lounge', '/dashboard/lounge', 'dashboard/LoungePage', 'Lounge'],
      ['tool-ga4mp', tool('ga4mp'), 'tools/Ga4mpPage', 'GA4 Measurement Protocol'],
      ['tool-linker', tool('google-tag-linker'), 'tools/LinkerPage', 'Google tag linker'],
      ['tool-apps', tool(apps.slug), 'tools/AppLogPage', apps.name],
      ['tool-browsers', tool(browsers.slug), 'tools/HarPage', browsers.name],
      ['user-orders', '/dashboard/user/orders', 'user/OrdersPage', 'Orders'],
      ['user-profile', '/dashboard/user/profile', 'user/ProfilePage', 'Profile'],
      ['user-licenses', '/dashboard/user/licenses', 'user/LicensesPage', 'Licences'],
      ['user-subscription', '/dashboard/user/subscription', 'user/SubscriptionPage', 'Subscription'],
    ] as const
  ).map(([id, path, page, title]): RouteDefinition => ({
    id,
    path,
    layout: 'authenticated',
    middleware: ['auth'],
    page,
    title: `${title} — ${PRODUCT.name}`,
    description: `${title} in your ${PRODUCT.name} dashboard.`,
    noindex: true,
  })),
  {
    // Every known tool has its own exact route above; anything else under /dashboard/tools/ is a
    // validation failure (a fatal 404), not an unmatched route.
    id: 'tool-unknown',
    path: '/dashboard/tools/*',
    layout: 'authenticated',
    middleware: ['auth'],
    page: null,
    // The 404 screen's title (docs/routes.md), also while the browser still names the matched route.
    title: `Page Not Found — ${PRODUCT.name}`,
    description: 'Unknown tool.',
    noindex: true,
    validate: (pathname) => {
      const rest = pathname.slice('/dashboard/tools/'.length).replace(/\/$/, '');
      return !rest.includes('/') && isToolSlug(rest);
    },
  },
];

/**
 * Resolves every middleware name against the registry. An unknown name is a programming error and
 * throws here, when the table is built at start-up, rather than letting a route go unguarded.
 */
export function buildRouteTable(
  definitions: readonly RouteDefinition[],
  registry: Readonly<Record<string, RouteMiddleware>> = routeMiddleware,
): readonly RouteEntry[] {
  const known = Object.keys(registry);
  const ids = new Set<string>();
  return definitions.map((definition) => {
    if (ids.has(definition.id)) throw new Error(`Duplicate route id "${definition.id}"`);
    ids.add(definition.id);
    const guards = definition.middleware.map((name) => {
      if (!Object.hasOwn(registry, name)) {
        throw new UnknownRouteMiddlewareError(definition.path, name, known);
      }
      return registry[name];
    });
    return Object.freeze({ ...definition, guards });
  });
}

export const ROUTE_TABLE = buildRouteTable(ROUTE_DEFINITIONS);

export function isPrefixRoute(route: Pick<RouteDefinition, 'path'>): boolean {
  return route.path.endsWith('/*');
}

/** Exact routes win over prefix families; a trailing slash is not significant. */
export function matchRoute(pathname: string, table = ROUTE_TABLE): RouteEntry | null {
  const path = pathname.length > 1 ? pathname.replace(/\/+$/, '') : pathname;
  const exact = table.find((route) => !isPrefixRoute(route) && route.path === path);
  if (exact) return exact;
  return table.find((route) => isPrefixRoute(route) && path.startsWith(route.path.slice(0, -1))) ?? null;
}

export function findRoute(id: string, table = ROUTE_TABLE): RouteEntry {
  const route = table.find((entry) => entry.id === id);
  if (!route) throw new Error(`No route with id "${id}"`);
  return route;
}

export function notFoundMessage(pathname: string): string {
  return `Page not found: ${pathname}`;
}

export function validationFailedMessage(pathname: string): string {
  return `Page Not Found: ${pathname}`;
}
