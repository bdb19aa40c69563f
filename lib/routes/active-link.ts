/** The path of a link target, without its query and fragment: `/login?forgot=1` → `/login`. */
export function linkPathname(to: string): string {
  const query = to.indexOf('?');
  const fragment = to.indexOf('#');
  const cut = query === -1 ? fragment : fragment === -1 ? query : Math.min(query, fragment);
  return cut === -1 ? to : to.slice(0, cut);
}

/**
 * Whether a link to `to` is the current page's (`aria-current="page"`), decided as react-router's
 * NavLink does — case-insensitively; without `end` also on the pages below it (`/admin` on
 * `/admin/users`, never on `/administrators`) — but with plain string comparisons instead of
 * NavLink's per-link path resolution, which was a fifth of a page's server render.
 */
export function isActiveLink(pathname: string, to: string, end = false): boolean {
  const target = linkPathname(to).toLowerCase();
  const current = pathname.toLowerCase();
  if (current === target) return true;
  if (end || !current.startsWith(target)) return false;
  // A target with a trailing slash (`/docs/`) covers `/docs/x` as well.
  const boundary = target !== '/' && target.endsWith('/') ? target.length - 1 : target.length;
  return current.charAt(boundary) === '/';
}

/**
 * The href react-router's `<Link to>` renders under the root basename, when `to` is a plain absolute
 * path with an optional query and fragment: the string as written. Null for anything Link resolves
 * further (relative paths, `.` and `..` segments, repeated slashes, another origin, an empty query or
 * fragment, a location object), which is left to Link. Checked against Link itself in the spec.
 */
export function plainLinkHref(to: unknown): string | null {
  if (typeof to !== 'string' || !to.startsWith('/') || to.startsWith('//')) return null;
  const path = linkPathname(to);
  if (path.includes('//') || path.split('/').some((segment) => segment === '.' || segment === '..')) return null;
  const rest = to.slice(path.length);
  if (rest.startsWith('?') && (rest.length === 1 || rest.charAt(1) === '#')) return null;
  if (rest.endsWith('#')) return null;
  return to;
}
