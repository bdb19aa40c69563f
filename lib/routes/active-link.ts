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
