import { ROUTE_DEFINITIONS, buildRouteTable, matchRoute, ROUTE_TABLE, UnknownRouteMiddlewareError } from './route-table.js';
import { routeMiddleware } from './route-middleware.js';

const DOCUMENTED_ROUTES: Array<[string, string, string[]]> = [
  ['/', 'default', []],
  ['/login', 'none', ['guest']],
  ['/logout', 'none', []],
  ['/register', 'none', ['guest']],
  ['/sponsor', 'default', []],
  ['/privacy-policy', 'default', []],
  // Not in PRODUCT.md §1 yet: the terms of service that registration asks visitors to accept.
  ['/terms', 'default', []],
  ['/error', 'none', []],
  // Not in PRODUCT.md §1 yet: the one-button pages behind the links in newsletter mails.
  ['/newsletter/confirm', 'none', []],
  ['/newsletter/unsubscribe', 'none', []],
  ['/admin', 'admin', ['auth', 'admin']],
  ['/admin/settings', 'admin', ['auth', 'admin']],
  ['/admin/analytics', 'admin', ['auth', 'admin']],
  ['/admin/newsletter', 'admin', ['auth', 'admin']],
  ['/admin/users', 'admin', ['auth', 'admin']],
  ['/dashboard/lounge', 'authenticated', ['auth']],
  ['/dashboard/tools/ga4mp', 'authenticated', ['auth']],
  ['/dashboard/tools/google-tag-linker', 'authenticated', ['auth']],
  ['/dashboard/tools/hitscope-for-apps', 'authenticated', ['auth']],
  ['/dashboard/tools/hitscope-for-browsers', 'authenticated', ['auth']],
  ['/dashboard/user/orders', 'authenticated', ['auth']],
  ['/dashboard/user/profile', 'authenticated', ['auth']],
  ['/dashboard/user/licenses', 'authenticated', ['auth']],
  ['/dashboard/user/subscription', 'authenticated', ['auth']],
];

describe('route table', () => {
  it.each(DOCUMENTED_ROUTES)('has %s with layout %s and middleware %j, as docs/routes.md says', (path, layout, middleware) => {
    const route = matchRoute(path);
    expect(route?.path).toBe(path);
    expect(route?.layout).toBe(layout);
    expect(route?.middleware).toEqual(middleware);
  });

  it('has no exact route beyond those of docs/routes.md and no path parameters', () => {
    const exact = ROUTE_TABLE.filter((route) => !route.path.endsWith('/*')).map((route) => route.path);
    expect(exact.sort()).toEqual(DOCUMENTED_ROUTES.map(([path]) => path).sort());
    expect(ROUTE_TABLE.some((route) => route.path.includes(':'))).toBe(false);
  });

  it('throws when a route names middleware that is not in the registry', () => {
    const definitions = [{ ...ROUTE_DEFINITIONS[0], id: 'x', middleware: ['auth', 'paywall'] }];
    expect(() => buildRouteTable(definitions)).toThrow(UnknownRouteMiddlewareError);
    expect(() => buildRouteTable(definitions)).toThrow('Route "/" names unknown middleware "paywall" (known: auth, admin, guest)');
  });

  it('does not accept inherited object keys as middleware names', () => {
    const definitions = [{ ...ROUTE_DEFINITIONS[0], id: 'x', middleware: ['toString'] }];
    expect(() => buildRouteTable(definitions, routeMiddleware)).toThrow(UnknownRouteMiddlewareError);
  });

  it('refuses duplicate route ids', () => {
    expect(() => buildRouteTable([ROUTE_DEFINITIONS[0], ROUTE_DEFINITIONS[0]])).toThrow('Duplicate route id "home"');
  });

  it('sends unknown tools to the validate-only family, which rejects them', () => {
    const route = matchRoute('/dashboard/tools/unknown-tool');
    expect(route?.id).toBe('tool-unknown');
    expect(route?.validate?.('/dashboard/tools/unknown-tool')).toBe(false);
    expect(route?.validate?.('/dashboard/tools/ga4mp/extra')).toBe(false);
  });

  it('matches with or without a trailing slash and returns null for unknown paths', () => {
    expect(matchRoute('/sponsor/')?.id).toBe('sponsor');
    expect(matchRoute('/nope')).toBeNull();
    expect(matchRoute('/dashboard/tool')).toBeNull();
  });

  it('lists only public pages in the sitemap', () => {
    const sitemap = ROUTE_TABLE.filter((route) => route.sitemap);
    expect(sitemap.map((route) => route.path)).toEqual(['/', '/sponsor', '/privacy-policy', '/terms']);
    expect(sitemap.every((route) => route.middleware.length === 0)).toBe(true);
  });
});
