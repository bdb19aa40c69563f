import type { IncomingHttpHeaders } from 'node:http';

/**
 * Fetch metadata values refused on a write. `cross-site` is another site. `same-site` is refused as
 * well: it is a sibling host under the same registrable domain (a user-content or forgotten staging
 * subdomain, one taken over through a dangling DNS record), whose requests carry our SameSite=Lax
 * cookies; the app's own pages are always `same-origin`. `none` (the user's own navigation) passes.
 */
const REFUSED_FETCH_SITES = new Set(['cross-site', 'same-site']);

/**
 * Why a write did not come from the app's own pages, or null when nothing says so. A second line of
 * defence behind the CSRF token: what browsers send is checked when it is there (`Origin`,
 * `Sec-Fetch-Site`); clients that send neither (scripts, older browsers) rely on the token alone.
 * `Origin: null` (a sandboxed frame, a privacy-stripped redirect) is not our origin either.
 */
export function crossSiteWrite(headers: IncomingHttpHeaders, publicOrigin: string): string | null {
  const origin = headers.origin;
  if (origin !== undefined && origin !== publicOrigin) return `Origin ${origin}`;
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && REFUSED_FETCH_SITES.has(site.toLowerCase())) return `Sec-Fetch-Site ${site}`;
  return null;
}
