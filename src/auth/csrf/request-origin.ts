import type { IncomingHttpHeaders } from 'node:http';

/**
 * Fetch metadata values refused on a write. `cross-site` is another site. `same-site` is refused as
 * well: it is a sibling host under the same registrable domain (a user-content or forgotten staging
 * subdomain, one taken over through a dangling DNS record), whose requests carry our SameSite=Lax
 * cookies; the app's own pages are always `same-origin`. `none` (the user's own navigation) passes.
 */
const REFUSED_FETCH_SITES = new Set(['cross-site', 'same-site']);

/** 127.0.0.0/8, ::1 and `localhost` (which RFC 6761 keeps on the machine itself). */
export function isLoopbackHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127(?:\.\d{1,3}){3}$/.test(host);
}

/**
 * The origin the request was sent to, when that is a loopback address: `http://` and the `Host`
 * header. A page the app served at `http://127.0.0.1:3000` names that origin, whatever the default
 * PUBLIC_URL says (`http://localhost:3000`). Only loopback: another host in `Host` (a DNS-rebinding
 * name pointing at 127.0.0.1, a proxy's public name) is never taken for ours.
 */
function loopbackOriginOf(host: string | undefined): string | null {
  if (!host) return null;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  return isLoopbackHostname(url.hostname) && `${url.host}` === host.toLowerCase() ? url.origin : null;
}

/**
 * Why a write did not come from the app's own pages, or null when nothing says so. A second line of
 * defence behind the CSRF token: what browsers send is checked when it is there (`Origin`,
 * `Sec-Fetch-Site`); clients that send neither (scripts, older browsers) rely on the token alone.
 * `Origin: null` (a sandboxed frame, a privacy-stripped redirect) is not our origin either.
 *
 * `acceptLoopback` (PUBLIC_URL unset, so `publicOrigin` is a guess): the loopback origin the request
 * came to is ours as well, so a newcomer's `npm start` works at 127.0.0.1 and at localhost alike.
 */
export function crossSiteWrite(headers: IncomingHttpHeaders, publicOrigin: string, acceptLoopback = false): string | null {
  const origin = headers.origin;
  if (origin !== undefined && origin !== publicOrigin && !(acceptLoopback && origin === loopbackOriginOf(headers.host))) {
    return `Origin ${origin}`;
  }
  const site = headers['sec-fetch-site'];
  if (typeof site === 'string' && REFUSED_FETCH_SITES.has(site.toLowerCase())) return `Sec-Fetch-Site ${site}`;
  return null;
}
