import { useEffect } from 'react';
import { isRouteErrorResponse, Outlet, ScrollRestoration, useMatches, useRouteError } from 'react-router';
import { findRoute } from '../../lib/routes/route-table.js';
import { ErrorScreen, errorTitle } from '../components/ErrorScreen.js';
import { VersionNotice } from '../components/VersionNotice.js';
import { PRODUCT } from '../../lib/product.js';

function useDocumentTitle() {
  const matches = useMatches();
  const leaf = matches[matches.length - 1];
  useEffect(() => {
    if (!leaf || leaf.id.startsWith('layout-') || leaf.id === 'root' || leaf.id === 'not-found') return;
    try {
      document.title = findRoute(leaf.id).title;
    } catch {
      document.title = PRODUCT.name;
    }
  }, [leaf]);
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

/** Errors thrown by loaders (404s, validation failures) and render errors (500) end up here. */
export function RouteErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message = isRouteErrorResponse(error) && typeof error.data === 'string' ? error.data : undefined;
  useEffect(() => {
    document.title = `${errorTitle(status)} — ${PRODUCT.name}`;
  }, [status]);
  return (
    <>
      <ErrorScreen status={status} message={message} />
      <VersionNotice />
    </>
  );
}
