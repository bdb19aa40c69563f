import type { ComponentType, ReactNode } from 'react';
import type { RouteObject } from 'react-router';
import { type LayoutName, ROUTE_TABLE, type RouteEntry } from '../lib/routes/route-table.js';
import { AdminLayout } from './layouts/AdminLayout.js';
import { BareFrame, BareLayout } from './layouts/BareLayout.js';
import { DashboardLayout } from './layouts/DashboardLayout.js';
import { PublicLayout } from './layouts/PublicLayout.js';
import { RootLayout, RouteErrorBoundary, RouteErrorScreen } from './layouts/RootLayout.js';
import { useMe } from './app/data-source.js';
import { loadPageModule } from './app/lazy-page.js';
import { pageLoader, type RouteHandle } from './app/page-modules.js';
import { rangeQueryOf } from '../lib/analytics/range.js';
import { chosenPlanId } from '../lib/catalogue/chosen-plan.js';
import {
  adminAnalyticsQuery,
  adminOverviewQuery,
  authProvidersQuery,
  billingStatusQuery,
  catalogueQuery,
  licencesQuery,
  ordersQuery,
  privacyPolicyQuery,
  sponsorsQuery,
  subscriptionQuery,
  termsQuery,
} from './app/queries.js';
import { guardedLoader, notFoundLoader, type RouteDepsOf, type RoutePrefetch } from './middleware/guarded-loader.js';

const LAYOUTS: Record<LayoutName, ComponentType> = {
  default: PublicLayout,
  none: BareLayout,
  authenticated: DashboardLayout,
  admin: AdminLayout,
};

const RenderNothing = () => null;

const authProviders: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(authProvidersQuery(data));

/**
 * Per route id, the data its loader prefetches (server and client alike) so the first render shows
 * it without a spinner. Prefetches never throw: a page whose data failed fetches it again itself.
 */
const catalogue: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(catalogueQuery(data));
// The sign-in screens name the plan chosen on the pricing (`?redirect=…?plan=<id>`): only then the catalogue.
const chosenPlan: RoutePrefetch = (deps, url) =>
  chosenPlanId(url.searchParams.get('redirect')) ? catalogue(deps, url) : Promise.resolve();
// The signed-in person's own data, on routes whose guard requires a session.
const billingStatus: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(billingStatusQuery(data));
const subscription: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(subscriptionQuery(data));
const orders: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(ordersQuery(data));
const licences: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(licencesQuery(data));

// Site settings: /sponsor's tiers and sponsors, /privacy-policy's text rendered on the server.
const sponsors: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(sponsorsQuery(data));
const privacyPolicy: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(privacyPolicyQuery(data));
const terms: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(termsQuery(data));

const adminOverview: RoutePrefetch = ({ queryClient, data }) => queryClient.prefetchQuery(adminOverviewQuery(data));
const adminAnalytics: RoutePrefetch = ({ queryClient, data }, url) =>
  queryClient.prefetchQuery(adminAnalyticsQuery(data, rangeQueryOf(url.searchParams)));

const ROUTE_PREFETCH: Readonly<Record<string, readonly RoutePrefetch[]>> = {
  home: [catalogue],
  admin: [adminOverview],
  'admin-analytics': [adminAnalytics],
  login: [authProviders, chosenPlan],
  register: [authProviders, chosenPlan],
  sponsor: [sponsors],
  'privacy-policy': [privacyPolicy],
  terms: [terms],
  // The glances: licences and subscription.
  lounge: [catalogue, subscription, licences],
  // What the person owns, with each purchase's licences.
  'user-subscription': [catalogue, billingStatus, subscription, licences],
  'user-orders': [catalogue, orders],
  // Plan names come from the catalogue.
  'user-licenses': [catalogue, licences],
  // The download card asks whether the product's downloads are free, and shows the key.
  'tool-apps': [catalogue, licences],
  'tool-browsers': [catalogue, licences],
};

/** `data-layout` names the layout in the markup (tests and styles rely on it); adds no box (`display: contents` in base.css). */
function withLayoutMarker(layout: LayoutName, Layout: ComponentType): ComponentType {
  const Marked = () => (
    <div data-layout={layout}>
      <Layout />
    </div>
  );
  Marked.displayName = `Layout(${layout})`;
  return Marked;
}

/**
 * The shells that show an error of one of their pages inside themselves, for a signed-in viewer (a
 * signed-in user's unknown tool keeps the dashboard's sidebar); a visitor gets the bare error screen.
 */
const SHELLS: Partial<Record<LayoutName, ComponentType<{ children?: ReactNode }>>> = {
  authenticated: DashboardLayout,
  admin: AdminLayout,
};

function shellErrorBoundary(layout: LayoutName, Shell: ComponentType<{ children?: ReactNode }>): ComponentType {
  const ShellErrorBoundary = () =>
    useMe() ? (
      <div data-layout={layout}>
        <Shell>
          <RouteErrorScreen />
        </Shell>
      </div>
    ) : (
      <BareFrame>
        <RouteErrorScreen />
      </BareFrame>
    );
  ShellErrorBoundary.displayName = `ErrorBoundary(${layout})`;
  return ShellErrorBoundary;
}

function toRouteObject(route: RouteEntry, depsOf: RouteDepsOf): RouteObject {
  const handle: RouteHandle = { page: route.page };
  return {
    id: route.id,
    path: route.path,
    handle,
    loader: guardedLoader(route, depsOf, ROUTE_PREFETCH[route.id]),
    ...(route.page
      ? { lazy: async () => ({ Component: (await loadPageModule(pageLoader(route.page!))).default }) }
      : { Component: RenderNothing }), // validate-only family: its loader always throws a 404
  };
}

/**
 * The react-router tree, built from the one route table (lib/routes/route-table.ts). It holds no
 * per-request state: the loaders ask `depsOf` for the query client and data source of their
 * navigation, so the server builds it once per process.
 */
export function createRoutes(depsOf: RouteDepsOf): RouteObject[] {
  const unknown = Object.keys(ROUTE_PREFETCH).filter((id) => !ROUTE_TABLE.some((route) => route.id === id));
  if (unknown.length) throw new Error(`ROUTE_PREFETCH names routes that are not in the route table: ${unknown.join(', ')}`);
  const layouts = Object.keys(LAYOUTS) as LayoutName[];
  return [
    {
      id: 'root',
      Component: RootLayout,
      ErrorBoundary: RouteErrorBoundary,
      children: [
        ...layouts.map((layout): RouteObject => ({
          id: `layout-${layout}`,
          Component: withLayoutMarker(layout, LAYOUTS[layout]),
          ...(SHELLS[layout] ? { ErrorBoundary: shellErrorBoundary(layout, SHELLS[layout]) } : {}),
          children: ROUTE_TABLE.filter((route) => route.layout === layout).map((route) => toRouteObject(route, depsOf)),
        })),
        // Its loader always throws a 404, so the root error boundary renders; the component never shows.
        { id: 'not-found', path: '*', loader: notFoundLoader(depsOf), Component: RenderNothing },
      ],
    },
  ];
}
