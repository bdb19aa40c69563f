import { readdirSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { chooseEncoding, type ContentCoding } from './accept-encoding.js';

/** Hashed build output: never changes under its name. */
export const ASSET_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** favicon.svg, og-image.svg…: same name across builds, revalidated hourly. */
export const CLIENT_FILE_CACHE_CONTROL = 'public, max-age=3600';

/** Brotli first: the build writes it at its highest quality, smaller than gzip level 9. */
const CODINGS: readonly { coding: ContentCoding; suffix: string }[] = [
  { coding: 'br', suffix: '.br' },
  { coding: 'gzip', suffix: '.gz' },
];

/**
 * Paths that may be a published file: they end in an extension other than .html (the raw template,
 * client/index.html, is never served) or the build's own .br/.gz (reached only through negotiation,
 * so that each file has one URL). Pages and API calls never reach the disk.
 */
const FILE_PATH = /\.(?!html?$|br$|gz$)[a-z0-9]+$/i;

const STATIC_FILE = Symbol('hitscope.staticFile');

/** True for a response that is (or carries) a published file: dynamic compression leaves it alone. */
export function isStaticFileResponse(response: Response): boolean {
  return (response.locals as Record<symbol, unknown>)[STATIC_FILE] === true;
}

function markStatic(response: Response, value: boolean) {
  (response.locals as Record<symbol, unknown>)[STATIC_FILE] = value;
}

/** URL path (`/assets/index-abc.js`) → the codings the build wrote beside it, best first. */
function findVariants(root: string): Map<string, ContentCoding[]> {
  const variants = new Map<string, ContentCoding[]>();
  let names: string[];
  try {
    names = readdirSync(root, { recursive: true, encoding: 'utf8' });
  } catch {
    return variants;
  }
  const present = new Set(names);
  for (const name of names) {
    if (!FILE_PATH.test(name)) continue;
    const codings = CODINGS.filter(({ suffix }) => present.has(`${name}${suffix}`)).map(({ coding }) => coding);
    if (codings.length) variants.set(`/${relative(root, join(root, name)).split(sep).join('/')}`, codings);
  }
  return variants;
}

/**
 * Serves the client build (dist/client): hashed `/assets/*` immutable for a year, the other files
 * for an hour, no index, no dotfiles. A file the build precompressed (scripts/precompress.mjs) goes
 * out as its `.br` or `.gz` sibling when the request's `Accept-Encoding` takes it (Brotli first,
 * `q=0` respected), with the original's Content-Type, `Content-Encoding`, the sibling's
 * Content-Length, ETag and Last-Modified (so a 304 and HEAD behave exactly as for any file), and
 * `Vary: Accept-Encoding` on every representation of it. Nothing here is compressed per request.
 *
 * A Range request gets the identity file: byte ranges then count bytes of the file itself, which is
 * what a client resuming a download means (ranges of a compressed representation are legal but no
 * browser asks for them).
 *
 * The variants are listed once, at start-up: the build under dist/client does not change while the
 * server runs (the renderer reads its template and manifest once too).
 */
export function serveClientFiles(root: string): RequestHandler {
  const variants = findVariants(root);
  const serve = express.static(root, {
    index: false,
    dotfiles: 'ignore',
    fallthrough: true,
    setHeaders(response: Response, path: string) {
      const assets = path.startsWith(join(root, 'assets') + sep);
      response.setHeader('Cache-Control', assets ? ASSET_CACHE_CONTROL : CLIENT_FILE_CACHE_CONTROL);
      const coding = CODINGS.find(({ suffix }) => path.endsWith(suffix));
      if (coding) {
        response.setHeader('Content-Encoding', coding.coding);
        // The original's type (send would call a .br file application/octet-stream).
        response.type(extname(path.slice(0, -coding.suffix.length)));
      }
    },
  });

  return (request: Request, response: Response, next: NextFunction) => {
    if ((request.method !== 'GET' && request.method !== 'HEAD') || !FILE_PATH.test(request.path)) return next();
    const codings = variants.get(request.path);
    // Falling through (no such file) hands the request back unmarked: the 404 page is compressed as usual.
    const fallThrough = (originalUrl: string) => (error?: unknown) => {
      request.url = originalUrl;
      markStatic(response, false);
      next(error);
    };
    markStatic(response, true);
    if (!codings) return serve(request, response, fallThrough(request.url));
    response.vary('Accept-Encoding');
    const coding = request.headers.range ? null : chooseEncoding(request.headers['accept-encoding'], codings);
    const originalUrl = request.url;
    if (coding) {
      const query = originalUrl.indexOf('?');
      const suffix = CODINGS.find((entry) => entry.coding === coding)!.suffix;
      request.url = query === -1 ? `${originalUrl}${suffix}` : `${originalUrl.slice(0, query)}${suffix}${originalUrl.slice(query)}`;
    }
    return serve(request, response, fallThrough(originalUrl));
  };
}
