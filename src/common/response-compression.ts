import { constants } from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { chooseEncoding, type ContentCoding } from './accept-encoding.js';
import { isStaticFileResponse } from './precompressed-static.js';

/**
 * Compression of what is made per request (pages, JSON, CSV exports): the cheapest setting for the
 * bytes it saves. Measured with scripts/compression-cost.mjs on the home page (31 168 bytes) and
 * GET /api/catalogue (2 159 bytes), compressed through a new zlib stream per response as the
 * middleware does, CPU per response including zlib's threads (best of 9 rounds of 100, interleaved,
 * on a shared 2-core machine at load average 5–9):
 *
 * | encoder      | home page bytes | CPU µs | catalogue bytes | CPU µs |
 * |--------------|-----------------|--------|-----------------|--------|
 * | gzip 1       | 7 085           | 114    | 534             | 55     |
 * | gzip 4       | 6 617           | 165    | 523             | 56     |
 * | gzip 6       | 6 435           | 192    | 520             | 54     |
 * | Brotli 1     | 7 404           | 100    | 570             | 44     |
 * | Brotli 4 (*) | 6 371           | 286    | 500             | 70     |
 *
 * (*) the `compression` package's default, which it picks whenever the browser offers `br`.
 * gzip 1 saves 77 % of the page for 40 % of Brotli 4's CPU; higher gzip levels add 45–70 % CPU for
 * 7–9 % fewer bytes. Brotli 1 costs 6–12 % less CPU than gzip 1 (best and median rounds) but sends
 * 4.5 % more bytes (320 on the page): gzip 1 whenever the browser takes gzip (every browser does),
 * Brotli 1 for a client that takes only Brotli. (Compressed in one call rather than a stream,
 * Brotli 1 is about twice as fast as gzip 1; the middleware streams, so that is not the cost here.)
 */
export const DYNAMIC_GZIP_LEVEL = 1;
export const DYNAMIC_BROTLI_QUALITY = 1;
/** Smaller bodies go out as they are: the compression headers and CPU outweigh the bytes saved. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** The order in which dynamic responses pick a coding among those the request weighs equally. */
const DYNAMIC_CODINGS: readonly ContentCoding[] = ['gzip', 'br'];

/**
 * The `compression` middleware with the levels above. It is told which coding to use through the
 * request's `Accept-Encoding`, narrowed to the chosen coding when the response headers go out (the
 * package itself prefers Brotli whenever it is offered); a request that takes neither keeps its
 * header, so the package answers identity with `Vary: Accept-Encoding`. Files served by
 * serveClientFiles are never compressed here: they are precompressed or too small to gain.
 * Streams (the subscribers' CSV) are compressed chunk by chunk; `Cache-Control: no-transform`
 * (the campaign progress events) is never buffered by a compressor.
 */
export function responseCompression(): RequestHandler {
  const compress = compression({
    level: DYNAMIC_GZIP_LEVEL,
    brotli: { params: { [constants.BROTLI_PARAM_QUALITY]: DYNAMIC_BROTLI_QUALITY } },
    threshold: COMPRESSION_THRESHOLD_BYTES,
    filter(request: Request, response: Response) {
      if (isStaticFileResponse(response) || !compression.filter(request, response)) return false;
      const coding = chooseEncoding(request.headers['accept-encoding'], DYNAMIC_CODINGS);
      if (coding) request.headers['accept-encoding'] = coding;
      return true;
    },
  });
  // The health probes answer a few bytes, often: not even considered (the package wraps the response's methods per request).
  return (request, response, next) => (request.path.startsWith('/health/') ? next() : compress(request, response, next));
}
