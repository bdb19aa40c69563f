// The app-wide stylesheet first: component and feature stylesheets come after it and may refine it.
import './styles/index.css';
import { dehydrate } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, isRouteErrorResponse, StaticRouterProvider } from 'react-router';
import type { CatalogueResponse } from '../lib/api/catalogue.js';
import { findRoute, notFoundMessage } from '../lib/routes/route-table.js';
import { escapeHtml, renderHead } from '../lib/seo/head.js';
import { stateExpression } from '../lib/ssr/state-script.js';
import {
  type ErrorScreenInput,
  type ServerEntry,
  type ServerRenderInput,
  type ServerRenderResult,
  STATE_GLOBAL,
} from '../lib/ssr/render-contract.js';
import { AppProviders } from './app/AppProviders.js';
import { ErrorScreen, errorTitle } from './components/ErrorScreen.js';
import { BareFrame } from './layouts/BareLayout.js';
import { PRODUCT } from '../lib/product.js';
import { themeAttribute } from './app/color-mode.js';
import type { RouteHandle } from './app/page-modules.js';
import { createQueryClient } from './app/query-client.js';
import { prefetchedSiteSettings } from './app/data-source.js';
import type { RouteDeps } from './middleware/guarded-loader.js';
import { createRoutes } from './routes.js';

/**
 * Built once per process: the route table holds no request state. Each request's query client and
 * data source reach the loaders as react-router's request context (their `context` argument).
 */
const handler = createStaticHandler(createRoutes(({ context }) => context as RouteDeps));

type StaticContext = Exclude<Awaited<ReturnType<typeof handler.query>>, Response>;
type StaticRouter = ReturnType<typeof createStaticRouter>;

/**
 * createStaticRouter converts the whole route table again on every call, though the handler's data
 * routes are converted already, with the same route properties (2–4 % of a signed-in page's CPU).
 * So one router is made here, and each render gets a view of it with what createStaticRouter would
 * take from the request: its location, matches, loader data and errors. The matches are the
 * handler's own routes, whose lazy page modules it has resolved, so the view's manifest is empty
 * (react-router falls back to the match's route).
 */
const baseRouter = createStaticRouter(handler.dataRoutes, {
  basename: '/',
  location: { pathname: '/', search: '', hash: '', state: null, key: 'default' },
  matches: [],
  loaderData: {},
  actionData: null,
  errors: null,
  statusCode: 200,
  loaderHeaders: {},
  actionHeaders: {},
} as unknown as StaticContext);
const idleState = baseRouter.state;
const NO_MANIFEST = Object.freeze({});

function staticRouterFor(context: StaticContext): StaticRouter {
  const state = {
    ...idleState,
    location: context.location,
    matches: context.matches,
    loaderData: context.loaderData,
    actionData: context.actionData,
    errors: context.errors,
  };
  return Object.create(baseRouter, {
    basename: { value: context.basename },
    routes: { value: handler.dataRoutes },
    manifest: { value: NO_MANIFEST },
    state: { get: () => ({ ...state, fetchers: new Map(), blockers: new Map() }) },
  }) as StaticRouter;
}

/**
 * Loader errors are serialised into the page for hydration. Only route error responses (404s with
 * their public message) pass through; anything else becomes a bare 500 so no internals leak. The
 * first such error is answered, for the server to tell a database outage (503) from a fault.
 */
function sanitiseErrors(context: StaticContext): unknown {
  let failure: unknown;
  if (!context.errors) return failure;
  for (const [id, error] of Object.entries(context.errors)) {
    if (isRouteErrorResponse(error)) continue;
    console.error(`[ssr] loader error in route ${id}:`, error);
    failure ??= error;
    context.errors[id] = new Error('Internal Server Error');
  }
  return failure;
}

function errorStatus(context: StaticContext): number | null {
  const errors = Object.values(context.errors ?? {});
  if (!errors.length) return null;
  const [first] = errors;
  return isRouteErrorResponse(first) ? first.status : 500;
}

async function render(input: ServerRenderInput): Promise<ServerRenderResult> {
  const queryClient = createQueryClient({ server: true });
  const deps: RouteDeps = { queryClient, data: input.data };
  const url = new URL(input.url, input.publicUrl);
  const context = await handler.query(new Request(url), { requestContext: deps });

  if (context instanceof Response) {
    const location = context.headers.get('Location');
    if (location && context.status >= 300 && context.status < 400) {
      return { type: 'redirect', status: context.status, location };
    }
    throw new Error(`Unexpected loader response ${context.status}`);
  }

  const failure = sanitiseErrors(context);
  const router = staticRouterFor(context);
  const html = renderToString(
    <AppProviders queryClient={queryClient} data={input.data} colorMode={input.colorMode}>
      <StaticRouterProvider router={router} context={context} nonce={input.nonce} />
    </AppProviders>,
  );

  const failed = errorStatus(context);
  const leaf = context.matches[context.matches.length - 1];
  const route = failed === null && leaf ? findRoute(leaf.route.id) : null;
  const siteName = prefetchedSiteSettings(queryClient)?.siteName;
  const head = renderHead({
    route,
    siteName,
    title: failed === null ? undefined : `${errorTitle(failed)} — ${siteName ?? PRODUCT.name}`,
    pathname: url.pathname,
    publicUrl: input.publicUrl,
    nonce: input.nonce,
    // The home page prefetches the catalogue: its JSON-LD offers are the plans on sale.
    plans: queryClient.getQueryData<CatalogueResponse>(['catalogue'])?.plans,
  });
  const state = stateExpression(dehydrate(queryClient));
  queryClient.clear();
  const scripts = `<script nonce="${escapeHtml(input.nonce)}">window.${STATE_GLOBAL}=${state}</script>`;
  const pageModules = context.matches
    .map((match) => (match.route.handle as RouteHandle | undefined)?.page)
    .filter((page): page is string => Boolean(page));

  return {
    type: 'page',
    status: context.statusCode,
    head,
    html,
    scripts,
    pageModules,
    theme: themeAttribute(input.colorMode),
    failure,
  };
}

const unavailable = () => Promise.reject(new Error('An error screen reads no data'));

function renderErrorScreen({ status, path, publicUrl, colorMode }: ErrorScreenInput) {
  const queryClient = createQueryClient({ server: true });
  const noData = {
    me: async () => null,
    routeRule: async () => null,
    authProviders: async () => ({ oidc: null }),
    catalogue: async () => ({ products: [], plans: [] }),
    // An error screen never reads the database, which may be what failed.
    billingStatus: unavailable,
    subscription: unavailable,
    orders: unavailable,
    licences: unavailable,
    adminOverview: unavailable,
    adminAnalytics: unavailable,
    siteSettings: async () => ({ siteName: PRODUCT.name, registrationOpen: true, announcement: null, respectPrivacySignals: true }),
    sponsors: unavailable,
    privacyPolicy: unavailable,
    terms: unavailable,
  };
  const html = renderToString(
    <AppProviders queryClient={queryClient} data={noData} colorMode={colorMode}>
      <BareFrame static>
        <ErrorScreen status={status} message={status === 404 ? notFoundMessage(path) : undefined} retryHref={path} />
      </BareFrame>
    </AppProviders>,
  );
  const head = renderHead({ route: null, title: `${errorTitle(status)} — ${PRODUCT.name}`, pathname: path, publicUrl });
  return { status, head, html, theme: themeAttribute(colorMode) };
}

export const serverEntry: ServerEntry = { render, renderErrorScreen };
