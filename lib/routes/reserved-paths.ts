/**
 * Paths that belong to the server itself: the JSON API (`/api`), the health probes (`/health`) and
 * the build manifest (`/_app`). None of them is ever a page: the page catch-all refuses them and
 * the error filter answers them in JSON, so `/api/<unknown>` is a JSON 404, never the HTML app.
 */
export const RESERVED_PATH = /^\/(api|health|_app)(\/|$)/;

export function isReservedPath(pathname: string): boolean {
  return RESERVED_PATH.test(pathname);
}
