import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isRouteErrorResponse, Outlet, ScrollRestoration, useLocation, useMatches, useRouteError } from 'react-router';
import { findRoute } from '../../lib/routes/route-table.js';
import { siteTitle } from '../../lib/seo/site-title.js';
import { useDataSource, useSiteSettings } from '../app/data-source.js';
import { meQuery } from '../app/queries.js';
import { ErrorScreen, type ErrorScreenViewer, errorTitle } from '../components/ErrorScreen.js';
import { VersionNotice } from '../components/VersionNotice.js';
import { BareFrame } from './BareLayout.js';

function useDocumentTitle() {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  const { siteName } = useSiteSettings();
  useEffect(() => {
    if (!leaf || leaf.id.startsWith('layout-') || leaf.id === 'root' || leaf.id === 'not-found') return;
    try {
      document.title = siteTitle(findRoute(leaf.id).title, siteName);
    } catch {
      document.title = siteName;
    }
  }, [leaf, siteName]);
}

export function RootLayout() {
  useDocumentTitle();
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Outlet />
      <VersionNotice />
      <ScrollRestoration />
    </>
  );
}

/** The error screen's card for the error this boundary caught, titled in the document too. */
export function RouteErrorScreen() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : undefined;
  const location = useLocation();
  // What the loaders already know, never a request of its own: an unmatched path's loader fetches the
  // session before it throws, a rejected tool slug's does not (then only the way home is offered).
  const me = useQuery({ ...meQuery(useDataSource()), enabled: false });
  const viewer: ErrorScreenViewer | undefined = me.isSuccess ? (me.data ? 'signed-in' : 'visitor') : undefined;
  const { siteName } = useSiteSettings();
  useEffect(() => {
    document.title = `${errorTitle(status)} — ${siteName}`;
  }, [status, siteName]);
  return <ErrorScreen status={status} message={message} viewer={viewer} retryHref={location.pathname + location.search} />;
}

/**
 * Errors thrown by loaders (404s, validation failures) and render errors (500) end up here, unless a
 * layout's own boundary shows them in its shell (client/routes.tsx): the bare screens' frame, with
 * the logo and the colour switch.
 */
export function RouteErrorBoundary() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <BareFrame>
        <RouteErrorScreen />
      </BareFrame>
      <VersionNotice />
    </>
  );
}
