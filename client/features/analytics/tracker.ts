import { isRouteErrorResponse } from 'react-router';
import type { Beacon } from '../../../lib/api/analytics.js';

/**
 * The first-party page-view tracker: one beacon when the app hydrates and one per client-side
 * navigation to a new path. No cookies, no storage, no identifiers: the server derives a daily
 * visitor hash it cannot reverse (src/analytics). Admin pages are never counted (the admin area is
 * not the site's audience, and admins are dropped by default anyway).
 */
export const COLLECTOR_URL = '/api/e';
const UTM = { utm_source: 'us', utm_medium: 'um', utm_campaign: 'uc' } as const;

export function beaconFor(location: { pathname: string; search: string }, referrer: string, origin: string): Beacon {
  const beacon: Beacon = { p: location.pathname };
  const params = new URLSearchParams(location.search);
  for (const [param, key] of Object.entries(UTM) as Array<[keyof typeof UTM, 'us' | 'um' | 'uc']>) {
    const value = params.get(param);
    if (value) beacon[key] = value.slice(0, 512);
  }
  // Only an external referrer says where a visit came from; our own pages do not.
  if (referrer && !referrer.startsWith(`${origin}/`) && referrer !== origin) beacon.r = referrer.slice(0, 1024);
  return beacon;
}

export const isTrackedPath = (pathname: string) => pathname !== '/admin' && !pathname.startsWith('/admin/');

/** The privacy signals a browser may carry: Global Privacy Control, and the older Do Not Track. */
export interface PrivacySignals {
  globalPrivacyControl?: boolean;
  doNotTrack?: string | null;
}

/** Whether the browser asks not to be tracked (GPC, or DNT set to `"1"`). */
export const sendsPrivacySignal = (signals: PrivacySignals) => signals.globalPrivacyControl === true || signals.doNotTrack === '1';

function send(beacon: Beacon): void {
  const body = JSON.stringify(beacon);
  // A string body is sent as text/plain: a "simple" request, so no CORS preflight.
  if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(COLLECTOR_URL, body)) return;
  void fetch(COLLECTOR_URL, {
    method: 'POST',
    body,
    keepalive: true,
    credentials: 'same-origin',
    headers: { 'content-type': 'text/plain' },
  }).catch(() => undefined);
}

/** Whether the router shows the "Page not found" screen: a loader (unmatched path, refused slug) threw a 404. */
export const showsNotFound = (errors: Record<string, unknown> | null) =>
  Object.values(errors ?? {}).some((error) => isRouteErrorResponse(error) && error.status === 404);

interface RouterLike {
  state: {
    location: { pathname: string; search: string };
    navigation: { state: string };
    errors: Record<string, unknown> | null;
  };
  subscribe(listener: (state: RouterLike['state']) => void): () => void;
}

/**
 * Starts tracking the router's location; answers a function that stops it. `respectsPrivacySignals`
 * is the admin setting (from the public site settings), asked at each page view: when it holds and
 * the browser sends GPC or DNT, nothing is sent at all (the collector also drops such page views,
 * by their `Sec-GPC` and `DNT` headers, as the defence for other clients).
 */
export function startAnalyticsTracker(router: RouterLike, respectsPrivacySignals: () => boolean): () => void {
  let lastPath: string | null = null;
  let first = true;
  const track = ({ location, errors }: RouterLike['state']) => {
    if (location.pathname === lastPath) return;
    lastPath = location.pathname;
    if (!isTrackedPath(location.pathname)) return;
    if (respectsPrivacySignals() && sendsPrivacySignal(navigator as PrivacySignals)) return;
    const beacon = beaconFor(location, first ? document.referrer : '', window.location.origin);
    first = false;
    beacon.w = Math.round(window.screen?.width ?? 0);
    if (navigator.webdriver) beacon.wd = true;
    // Counted apart from the top pages (scanners and broken links would fill them).
    if (showsNotFound(errors)) beacon.nf = true;
    send(beacon);
  };
  track(router.state);
  return router.subscribe((state) => {
    if (state.navigation.state === 'idle') track(state);
  });
}
