import type { CorsOptions, CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import type { Request } from 'express';
import type { AppConfig } from '../config/app-config.js';

const LICENSING_API = '/api/v1/licenses/';

/** `scheme://*` allows every origin of that scheme; anything else is an exact origin. */
export function originAllowed(origin: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) =>
    entry.endsWith('://*') ? origin.startsWith(entry.slice(0, -1)) && origin.length > entry.length - 1 : origin === entry,
  );
}

/**
 * CORS for the licensing API only, so the extension can call it from its pages (every other path
 * gets no CORS headers: `origin: false` lets the request through untouched). It is not the
 * security boundary: the API reads no cookies, so there is nothing ambient for another origin to
 * use, and Firefox gives every install a random `moz-extension://` origin, which is why the default
 * allows every extension origin. Installed with `app.enableCors()` (a plain middleware, not a route,
 * so the preflight is answered without an OPTIONS handler).
 */
export function licensingCors(config: Pick<AppConfig, 'licensingCorsOrigins'>): CorsOptionsDelegate<Request> {
  const denied: CorsOptions = { origin: false };
  return (request, callback) => {
    const origin = request.headers.origin;
    if (!request.path.startsWith(LICENSING_API) || !origin || !originAllowed(origin, config.licensingCorsOrigins)) {
      callback(null, denied);
      return;
    }
    callback(null, {
      origin,
      methods: ['POST'],
      allowedHeaders: ['Content-Type'],
      exposedHeaders: ['Retry-After'],
      credentials: false,
      maxAge: 600,
    });
  };
}
