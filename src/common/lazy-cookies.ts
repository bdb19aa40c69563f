import type { NextFunction, Request, Response } from 'express';

/**
 * The cookies of a `Cookie` header (RFC 6265 §5.4): the first of a repeated name wins, surrounding
 * quotes are dropped and percent-encoding (how Express writes values) is decoded where it is valid.
 */
export function parseCookieHeader(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = Object.create(null) as Record<string, string>;
  if (!header) return cookies;
  for (const pair of header.split(';')) {
    const equals = pair.indexOf('=');
    if (equals < 0) continue;
    const name = pair.slice(0, equals).trim();
    if (!name || name in cookies) continue;
    let value = pair.slice(equals + 1).trim();
    if (value.length > 1 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
    if (value.includes('%')) {
      try {
        value = decodeURIComponent(value);
      } catch {
        // Not valid percent-encoding: kept as sent.
      }
    }
    cookies[name] = value;
  }
  return cookies;
}

/**
 * `request.cookies`, parsed the first time something reads it: the health probes and most API
 * calls that need no session never pay for it (cookie-parser parsed every request's header).
 */
export function lazyCookies(request: Request, _response: Response, next: NextFunction): void {
  let parsed: Record<string, string> | undefined;
  Object.defineProperty(request, 'cookies', {
    configurable: true,
    enumerable: true,
    get: () => (parsed ??= parseCookieHeader(request.headers.cookie)),
    set: (value: Record<string, string>) => {
      parsed = value;
    },
  });
  next();
}
