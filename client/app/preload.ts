import { createContext } from 'react';
import { matchRoutes, type RouteObject } from 'react-router';
import { MAX_PRELOADS_IN_FLIGHT } from '../../lib/client-constants.js';
import { createPreloadQueue } from '../../lib/preload-queue.js';
import type { RouteDeps } from '../middleware/guarded-loader.js';
import { routeRuleQuery } from './queries.js';
import { pageLoader, type RouteHandle } from './page-modules.js';

export interface Preloader {
  preload(href: string): void;
}

export const PreloaderContext = createContext<Preloader | null>(null);

/**
 * Warms a navigation before it happens (link hover, focus or visibility): the page's code chunk and
 * the data its loader asks for first. At most five preloads run at once so a long list of links
 * cannot flood the network.
 */
export function createPreloader(routes: RouteObject[], deps: RouteDeps): Preloader & { readonly peakInFlight: number } {
  const queue = createPreloadQueue(MAX_PRELOADS_IN_FLIGHT);
  return {
    preload(href: string) {
      const url = new URL(href, window.location.href);
      if (url.origin !== window.location.origin) return;
      queue.enqueue(url.pathname + url.search, async () => {
        const matches = matchRoutes(routes, url.pathname) ?? [];
        const pages = matches
          .map((match) => (match.route.handle as RouteHandle | undefined)?.page)
          .filter((page): page is string => Boolean(page));
        await Promise.all([
          // A plain import: a failed preload must never reload or navigate (the queue retries later,
          // and a real click still goes through the chunk-reload guard).
          ...pages.map((page) => pageLoader(page)()),
          deps.queryClient.prefetchQuery(routeRuleQuery(deps.data, url.pathname, url.search)),
        ]);
      });
    },
    get peakInFlight() {
      return queue.peakInFlight;
    },
  };
}
