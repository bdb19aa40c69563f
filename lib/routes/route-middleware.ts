import type { SessionUser } from '../api/auth.js';

export const LOGIN_PATH = '/login';
export const HOME_AFTER_SIGN_IN = '/dashboard/lounge';

/**
 * Why a guard sent a signed-in user somewhere they did not ask for. The guard adds it to the target
 * as `?notice=`; the page there tells the user once and removes it from the address.
 */
export const REDIRECT_NOTICES = ['admin-only'] as const;
export type RedirectNotice = (typeof REDIRECT_NOTICES)[number];
export const REDIRECT_NOTICE_PARAM = 'notice';

export function withRedirectNotice(path: string, notice: RedirectNotice): string {
  return `${path}?${REDIRECT_NOTICE_PARAM}=${notice}`;
}

export function readRedirectNotice(search: URLSearchParams): RedirectNotice | null {
  const value = search.get(REDIRECT_NOTICE_PARAM);
  return REDIRECT_NOTICES.find((notice) => notice === value) ?? null;
}

export interface RouteGuardContext {
  user: SessionUser | null;
  /** The requested URL; only its pathname and search are used. */
  url: URL;
}

/** A route middleware answers with a redirect target, or `null` to let the navigation through. */
export type RouteMiddleware = (context: RouteGuardContext) => string | null;

export function loginRedirectFor(url: URL): string {
  return `${LOGIN_PATH}?redirect=${encodeURIComponent(url.pathname + url.search)}`;
}

/**
 * The registry of named route middleware. Routes name their middleware; the same functions run in
 * the server's render pipeline (before any HTML, as an HTTP redirect) and in the browser's loaders
 * on client-side navigation, so the two can never disagree.
 */
export const routeMiddleware = {
  auth: ({ user, url }) => (user ? null : loginRedirectFor(url)),
  // `admin` always follows `auth` in the table; a signed-out visitor is still sent to sign in.
  // A signed-in non-admin lands on the lounge, which says why they are there.
  admin: ({ user, url }) => {
    if (!user) return loginRedirectFor(url);
    return user.role === 'admin' ? null : withRedirectNotice(HOME_AFTER_SIGN_IN, 'admin-only');
  },
  guest: ({ user }) => (user ? HOME_AFTER_SIGN_IN : null),
} satisfies Record<string, RouteMiddleware>;

export type MiddlewareName = keyof typeof routeMiddleware;
