import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import { isReservedPath } from '../../lib/routes/reserved-paths.js';

/**
 * Powerful browser features no Hitscope page uses, switched off for the page and every frame in it
 * (clipboard writes stay allowed: "copy" buttons use them).
 */
const PERMISSIONS_POLICY = [
  'accelerometer=()',
  'autoplay=()',
  'browsing-topics=()',
  'camera=()',
  'display-capture=()',
  'geolocation=()',
  'gyroscope=()',
  'hid=()',
  'magnetometer=()',
  'microphone=()',
  'midi=()',
  'payment=()',
  'publickey-credentials-get=()',
  'serial=()',
  'usb=()',
  'xr-spatial-tracking=()',
  'clipboard-write=(self)',
].join(', ');
type Directives = NonNullable<Exclude<HelmetOptions['contentSecurityPolicy'], boolean | undefined>['directives']>;

function helmetOptions(directives: Directives, https: boolean): HelmetOptions {
  return {
    contentSecurityPolicy: { useDefaults: true, directives },
    crossOriginEmbedderPolicy: false,
    strictTransportSecurity: https,
  };
}

/** The headers a helmet middleware sets on a response, read once by running it on a stand-in. */
function headersOf(middleware: RequestHandler): Array<[string, string]> {
  const headers = new Map<string, string>();
  const response = {
    setHeader: (name: string, value: unknown) => headers.set(name, String(value)),
    removeHeader: (name: string) => headers.delete(name),
    getHeader: (name: string) => headers.get(name),
  };
  middleware({ headers: {} } as Request, response as unknown as Response, () => undefined);
  return [...headers];
}

/** The Content-Security-Policy, with `scriptSrc` as given (the pages' names a nonce). */
function directivesFor(scriptSrc: Directives[string], { dev, https }: { dev: boolean; https: boolean }): Directives {
  return {
    defaultSrc: ["'self'"],
    scriptSrc,
    // No inline styles either: nothing renders a style attribute or element (Vite's dev server
    // injects <style> elements for hot reloading, so development allows them).
    styleSrc: dev ? ["'self'", "'unsafe-inline'"] : ["'self'"],
    imgSrc: ["'self'", 'data:', 'blob:'],
    connectSrc: dev ? ["'self'", 'ws:', 'wss:'] : ["'self'"],
    workerSrc: ["'self'", 'blob:'],
    objectSrc: ["'none'"],
    frameAncestors: ["'none'"],
    formAction: ["'self'"],
    upgradeInsecureRequests: https ? [] : null,
  };
}

/** The headers of a path that is never a page (lib/routes/reserved-paths.ts): helmet's set without a nonce, and the Permissions-Policy. */
export function reservedPathHeaders(options: { dev: boolean; https: boolean }): Array<[string, string]> {
  return [
    ...headersOf(helmet(helmetOptions(directivesFor(["'self'"], options), options.https))),
    ['Permissions-Policy', PERMISSIONS_POLICY],
  ];
}

/** Stands in for the nonce while helmet writes the pages' headers once; each request puts its own in its place. */
const NONCE_MARK = 'hitscope-nonce-mark';

/**
 * The browser-facing security headers: helmet's set, the Permissions-Policy, and a CSP whose
 * script-src names a nonce made for this request, put on every inline script of the page (no
 * 'unsafe-inline'). Helmet runs once, at start-up, with a mark where the nonce goes: a page's
 * headers are that list with the request's nonce in place of the mark (helmet building them on
 * every request was about 150 µs of a page's CPU). Paths that are never a page (the JSON API, the
 * health probes, the build manifest: lib/routes/reserved-paths.ts) get the same headers with no
 * nonce.
 */
export function browserSecurityHeaders({ dev, https }: { dev: boolean; https: boolean }): RequestHandler {
  const pageHeaders: Array<[string, string | string[]]> = [
    ['Permissions-Policy', PERMISSIONS_POLICY],
    ...headersOf(helmet(helmetOptions(directivesFor(["'self'", `'nonce-${NONCE_MARK}'`], { dev, https }), https))),
  ].map(([name, value]) => [name, value.includes(NONCE_MARK) ? value.split(NONCE_MARK) : value]);
  const fixedHeaders = reservedPathHeaders({ dev, https });

  return (request: Request, response: Response, next: NextFunction) => {
    if (isReservedPath(request.path)) {
      for (const [name, value] of fixedHeaders) response.setHeader(name, value);
      return next();
    }
    const nonce = randomBytes(16).toString('base64');
    response.locals.cspNonce = nonce;
    for (const [name, value] of pageHeaders) response.setHeader(name, typeof value === 'string' ? value : value.join(nonce));
    next();
  };
}
