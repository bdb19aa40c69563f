/**
 * Paths that belong to the server itself: the JSON API (`/api`), the health probes (`/health`), the
 * build manifest (`/_app`) and well-known documents (`/.well-known`, RFC 8615: the licensing keys). None of them is ever a page: the page catch-all refuses them and
 * the error filter answers them in JSON, so `/api/<unknown>` is a JSON 404, never the HTML app.
 */
export const RESERVED_PATH = /^\/(api|health|_app|\.well-known)(\/|$)/;

export function isReservedPath(pathname: string): boolean {
  return RESERVED_PATH.test(pathname);
}
