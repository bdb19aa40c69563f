import type { QueryClient } from '@tanstack/react-query';
import { data, type LoaderFunctionArgs, redirect } from 'react-router';
import type { RouteEntry } from '../../lib/routes/route-table.js';
import { notFoundMessage, validationFailedMessage } from '../../lib/routes/route-table.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import { meQuery, routeRuleQuery, siteSettingsQuery } from '../app/queries.js';

export interface RouteDeps {
  queryClient: QueryClient;
  data: DataSource;
}

/**
 * How a loader finds the deps of its navigation. The browser has one set for the page's life; the
 * server builds the route table once per process and passes each request's set as react-router's
 * request context (`handler.query(request, { requestContext })`), which loaders get as `context`.
 */
export type RouteDepsOf = (args: LoaderFunctionArgs) => RouteDeps;

/**
 * Data a route's page shows on first render, fetched once the guards let the navigation through;
 * `url` is the page's, for data that depends on its query (the analytics range).
 */
export type RoutePrefetch = (deps: RouteDeps, url: URL) => Promise<unknown>;

/** Admin redirect rules run first on every navigation, server and client alike. */
async function applyRouteRules(deps: RouteDeps, url: URL): Promise<void> {
  const rule = await deps.queryClient.fetchQuery(routeRuleQuery(deps.data, url.pathname, url.search));
  if (rule) throw redirect(rule.location, rule.status);
}

/**
 * The navigation pipeline of docs/routes.md for one route: route rules, then the validate hook
 * (a fatal 404), then the route's middleware in table order, then the route's data.
 */
export function guardedLoader(route: RouteEntry, depsOf: RouteDepsOf, prefetch: readonly RoutePrefetch[] = []) {
  return async (args: LoaderFunctionArgs) => {
    const deps = depsOf(args);
    const url = new URL(args.request.url);
    await applyRouteRules(deps, url);
    if (route.validate && !route.validate(url.pathname)) {
      // Who is looking decides the frame (the dashboard shell for a signed-in user) and the way out.
      await prefetchErrorScreenData(deps);
      throw data(validationFailedMessage(url.pathname), { status: 404, statusText: 'Page Not Found' });
    }
    // The layouts' site name and announcement come with every page (a prefetch never throws).
    const [user] = await Promise.all([
      deps.queryClient.fetchQuery(meQuery(deps.data)),
      deps.queryClient.prefetchQuery(siteSettingsQuery(deps.data)),
    ]);
    for (const guard of route.guards) {
      const target = guard({ user, url });
      if (target) throw redirect(target);
    }
    await Promise.all(prefetch.map((load) => load(deps, url)));
    return null;
  };
}

/** What a 404 screen shows besides its message: who is signed in (its way out) and the site's name. */
async function prefetchErrorScreenData(deps: RouteDeps): Promise<void> {
  await Promise.all([
    deps.queryClient.fetchQuery(meQuery(deps.data)).catch(() => null),
    deps.queryClient.prefetchQuery(siteSettingsQuery(deps.data)),
  ]);
}

export function notFoundLoader(depsOf: RouteDepsOf) {
  return async (args: LoaderFunctionArgs) => {
    const deps = depsOf(args);
    const url = new URL(args.request.url);
    await applyRouteRules(deps, url);
    await prefetchErrorScreenData(deps);
    throw data(notFoundMessage(url.pathname), { status: 404, statusText: 'Not Found' });
  };
}
