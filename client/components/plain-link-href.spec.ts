import { createElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, Link, StaticRouterProvider } from 'react-router';
import { plainLinkHref } from '../../lib/routes/active-link.js';

/** What react-router's own <Link to> renders as href on the server, on a page at `/dashboard/lounge`. */
async function linkHref(to: string): Promise<string> {
  const routes = [{ path: '*', element: createElement(Link, { to }, 'x') }];
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request('http://localhost/dashboard/lounge'));
  if (context instanceof Response) throw new Error('unexpected response');
  const html = renderToString(
    createElement(StaticRouterProvider, { router: createStaticRouter(handler.dataRoutes, context), context, hydrate: false }),
  );
  const href = /<a href="([^"]*)"/.exec(html)?.[1];
  if (href === undefined) throw new Error(`no link in ${html}`);
  return href.replace(/&amp;/g, '&');
}

describe('plainLinkHref', () => {
  it.each([
    '/',
    '/login',
    '/login?redirect=%2Fdashboard%2Flounge',
    '/dashboard/user/orders?page=2&sort=date',
    '/terms#refunds',
    '/a?b=1#c',
    '/docs/',
    '/dashboard/tools/hitscope-for-apps',
    '/a b/ä',
    '/a.b/c..d',
  ])('answers %s exactly as react-router’s Link renders it', async (to) => {
    expect(plainLinkHref(to)).toBe(to);
    expect(await linkHref(to)).toBe(to);
  });

  it.each([
    'lounge',
    './lounge',
    '../orders',
    '/a/../b',
    '/a/./b',
    '//evil.example',
    '/a//b',
    '/a?',
    '/a#',
    '/a?#x',
    'https://example.com/x',
    '',
  ])('leaves %s to Link, which resolves it further', async (to) => {
    expect(plainLinkHref(to)).toBeNull();
  });

  it('leaves location objects to Link', () => {
    expect(plainLinkHref({ pathname: '/login', search: '?a=1' })).toBeNull();
  });
});
