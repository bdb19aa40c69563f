import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { type RangeQuery, rangeSearch } from '../../lib/analytics/range.js';
import { SLOW_QUERY_OPTIONS } from '../../lib/client-constants.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';

export const ME_KEY = ['auth', 'me'] as const;
export const meQuery = (data: DataSource) => queryOptions({ queryKey: ME_KEY, queryFn: () => data.me() });

export const routeRuleQuery = (data: DataSource, pathname: string, search: string) =>
  queryOptions({
    queryKey: ['route-rule', pathname, search] as const,
    queryFn: () => data.routeRule(pathname, search),
    staleTime: 30_000,
  });

/** Which sign-in buttons to show; changes only with the server's configuration. */
export const authProvidersQuery = (data: DataSource) =>
  queryOptions({ queryKey: ['auth', 'providers'] as const, queryFn: () => data.authProviders(), ...SLOW_QUERY_OPTIONS });

/** Older overview figures than this are being recomputed on the server. */
const OVERVIEW_STALE_MS = 60_000;

/**
 * The key figures of /admin: the server computes them at most every 30 s, so asking sooner gains
 * nothing. It answers with the figures it kept, however old, while it computes fresh ones: asked
 * again every few seconds until they are recent.
 */
export const adminOverviewQuery = (data: DataSource) =>
  queryOptions({
    queryKey: ['admin', 'overview'] as const,
    queryFn: () => data.adminOverview(),
    staleTime: 30_000,
    refetchInterval: (query) => {
      const asOf = query.state.data?.asOf;
      return asOf && Date.now() - Date.parse(asOf) > OVERVIEW_STALE_MS ? 3_000 : false;
    },
  });

/** /admin/analytics for a range (`?preset=…` or `?from=…&to=…`, as in the page's URL); prefetched by the route. */
export const adminAnalyticsQuery = (data: DataSource, range: RangeQuery) =>
  queryOptions({
    queryKey: ['admin', 'analytics', rangeSearch(range)] as const,
    queryFn: () => data.adminAnalytics(range),
    placeholderData: keepPreviousData,
  });

/**
 * What the layouts show on every page (site name, announcement) and the register page asks
 * (registration open). Slow-changing; a dismissal or an admin's save updates it in place.
 */
export const SITE_SETTINGS_KEY = ['site-settings'] as const;
export const siteSettingsQuery = (data: DataSource) =>
  queryOptions({ queryKey: SITE_SETTINGS_KEY, queryFn: () => data.siteSettings(), ...SLOW_QUERY_OPTIONS });

export const sponsorsQuery = (data: DataSource) =>
  queryOptions({ queryKey: ['site-settings', 'sponsors'] as const, queryFn: () => data.sponsors(), ...SLOW_QUERY_OPTIONS });

export const privacyPolicyQuery = (data: DataSource) =>
  queryOptions({ queryKey: ['site-settings', 'privacy-policy'] as const, queryFn: () => data.privacyPolicy(), ...SLOW_QUERY_OPTIONS });

export const termsQuery = (data: DataSource) =>
  queryOptions({ queryKey: ['site-settings', 'terms'] as const, queryFn: () => data.terms(), ...SLOW_QUERY_OPTIONS });

export const catalogueQuery = (data: DataSource) =>
  queryOptions({ queryKey: ['catalogue'] as const, queryFn: () => data.catalogue(), staleTime: 60_000 });

/*
 * The signed-in person's billing and licences: used by several features (the pages, the lounge's
 * glances, the tool pages' download cards), so defined once here, with the keys mutations update.
 */
export const BILLING_STATUS_KEY = ['billing', 'status'] as const;
export const SUBSCRIPTION_KEY = ['billing', 'subscription'] as const;
export const ORDERS_KEY = ['billing', 'orders'] as const;
export const LICENCES_KEY = ['licences'] as const;

/** Changes only with the server's configuration. */
export const billingStatusQuery = (data: DataSource) =>
  queryOptions({ queryKey: BILLING_STATUS_KEY, queryFn: () => data.billingStatus(), staleTime: 5 * 60_000 });

export const subscriptionQuery = (data: DataSource) => queryOptions({ queryKey: SUBSCRIPTION_KEY, queryFn: () => data.subscription() });

export const ordersQuery = (data: DataSource) => queryOptions({ queryKey: ORDERS_KEY, queryFn: () => data.orders() });

export const licencesQuery = (data: DataSource) => queryOptions({ queryKey: LICENCES_KEY, queryFn: () => data.licences() });
