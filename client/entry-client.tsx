// The app-wide stylesheet first: component and feature stylesheets come after it and may refine it.
import './styles/index.css';
import { hydrate } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, type HydrationState, matchRoutes } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { parseColorMode } from '../lib/client-constants.js';
import type { PublicSiteSettings } from '../lib/api/site-settings.js';
import { STATE_GLOBAL } from '../lib/ssr/render-contract.js';
import { AppProviders } from './app/AppProviders.js';
import { ErrorScreen } from './components/ErrorScreen.js';
import { trackPendingNavigation } from './app/lazy-page.js';
import { browserDataSource } from './app/browser-data-source.js';
import { createPreloader } from './app/preload.js';
import { SITE_SETTINGS_KEY } from './app/queries.js';
import { createQueryClient } from './app/query-client.js';
import { startAnalyticsTracker } from './features/analytics/tracker.js';
import { createRoutes } from './routes.js';

declare global {
  interface Window {
    [STATE_GLOBAL]?: unknown;
    __staticRouterHydrationData?: HydrationState;
    __hitscope?: { router: ReturnType<typeof createBrowserRouter>; preloader: ReturnType<typeof createPreloader> };
  }
}

async function start() {
  const root = document.getElementById('root');
  // A static error screen (the server could not render the app) has nothing to hydrate.
  if (!root || document.documentElement.hasAttribute('data-static-error')) return;

  const queryClient = createQueryClient();
  if (window[STATE_GLOBAL]) hydrate(queryClient, window[STATE_GLOBAL]);
  const deps = { queryClient, data: browserDataSource };
  const routes = createRoutes(() => deps);

  // Resolve the lazy modules of the routes the server rendered, or react-router would render its
  // hydrate fallback instead of the server's markup and hydration would fail.
  const matches = matchRoutes(routes, window.location) ?? [];
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const module = await route.lazy();
      Object.assign(route, { ...module, lazy: undefined });
    }),
  );

  const router = createBrowserRouter(routes, { hydrationData: window.__staticRouterHydrationData });
  trackPendingNavigation(() => {
    const pending = router.state.navigation.location;
    return pending ? pending.pathname + pending.search : null;
  });
  const preloader = createPreloader(routes, deps);
  window.__hitscope = { router, preloader };
  const colorMode = parseColorMode(document.documentElement.dataset.colorMode);

  hydrateRoot(
    root,
    <StrictMode>
      <AppProviders queryClient={queryClient} data={browserDataSource} colorMode={colorMode} preloader={preloader}>
        <RouterProvider router={router} />
      </AppProviders>
    </StrictMode>,
  );
  document.documentElement.dataset.hydrated = 'true';
  // The setting arrives with every page's site settings; unknown (never expected) counts as "respect".
  startAnalyticsTracker(router, () => queryClient.getQueryData<PublicSiteSettings>(SITE_SETTINGS_KEY)?.respectPrivacySignals ?? true);
}

start().catch((error: unknown) => {
  // The page's own code failed to load again within the reload window: show the error screen
  // instead of leaving server HTML that looks alive but never responds.
  console.error(error);
  const root = document.getElementById('root');
  if (root) {
    createRoot(root).render(
      <main className="bare">
        <ErrorScreen status={500} retryHref={window.location.pathname + window.location.search} />
      </main>,
    );
  }
});
