import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { STRIPE_WEBHOOK_PATH } from './stripe-webhook-route.js';

/**
 * The machine API: what the desktop app and the extension call (licensing, update checks, release
 * downloads), never rendered by a browser as a document.
 */
export const MACHINE_API_PREFIX = '/api/v1/';

/** Stripe's servers deliver events here; nobody renders the answer either. */
const MACHINE_PATHS = new Set([STRIPE_WEBHOOK_PATH, `${STRIPE_WEBHOOK_PATH}/`]);

export const isMachinePath = (path: string): boolean => path.startsWith(MACHINE_API_PREFIX) || MACHINE_PATHS.has(path);

export const isMachineApi = (request: Request): boolean => isMachinePath(request.path);

/**
 * The headers the machine API answers with instead of the pages' (a per-request CSP nonce, helmet's
 * dozen browser headers, compression): a fixed set that still forbids rendering or framing the
 * answer and MIME sniffing. The pages' set costs about 100 µs per request, a fifth of a licence
 * validation, and protects nothing in a JSON answer or a download (measured in `npm run bench`).
 */
export function machineApiHeaderList({ https }: { https: boolean }): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
    ['X-Content-Type-Options', 'nosniff'],
    ['Referrer-Policy', 'no-referrer'],
    ['X-Frame-Options', 'DENY'],
  ];
  if (https) headers.push(['Strict-Transport-Security', 'max-age=31536000; includeSubDomains']);
  return headers;
}

/** Sets the machine API's headers (machineApiHeaderList) on its requests. */
export function machineApiHeaders({ https }: { https: boolean }): RequestHandler {
  const headers = machineApiHeaderList({ https });
  return (request: Request, response: Response, next: NextFunction) => {
    if (isMachineApi(request)) for (const [name, value] of headers) response.setHeader(name, value);
    next();
  };
}

/** `middleware` for every request but the machine API's. */
export function exceptMachineApi(middleware: RequestHandler): RequestHandler {
  return (request, response, next) => (isMachineApi(request) ? next() : middleware(request, response, next));
}
