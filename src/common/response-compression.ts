import { constants } from 'node:zlib';
import compression from 'compression';
import type { Request, RequestHandler, Response } from 'express';
import { chooseEncoding, type ContentCoding } from './accept-encoding.js';
import { isStaticFileResponse } from './precompressed-static.js';

/**
 * Compression of what is made per request (pages, JSON, CSV exports): the cheapest setting for the
 * bytes it saves. Measured with scripts/compression-cost.mjs on the home page (31 168 bytes) and
 * GET /api/catalogue (2 159 bytes), stream-compressed as the middleware does, CPU per response
 * (best of 7 rounds of 200 on a shared 2-core machine):
 *
 * | encoder      | home page bytes | CPU µs | catalogue bytes | CPU µs |
 * |--------------|-----------------|--------|-----------------|--------|
 * | gzip 1       | 7 086           | 121    | 534             | 48     |
 * | gzip 4       | 6 618           | 171    | 523             | 52     |
 * | gzip 6       | 6 438           | 202    | 520             | 52     |
 * | Brotli 1     | 7 406           | 102    | 570             | 43     |
 * | Brotli 4 (*) | 6 374           | 261    | 500             | 68     |
 *
 * (*) the `compression` package's default, which it picks whenever the browser offers `br`.
 * gzip 1 saves 77 % of the page for less than half of Brotli 4's CPU; the higher levels add 40–70 %
 * CPU for 7–9 % fewer bytes. Brotli 1 costs ~15 % less CPU than gzip 1 but sends ~4.5 % more bytes;
 * the two are within this machine's noise on CPU, so the smaller answer wins: gzip 1 whenever
 * the browser takes gzip (every browser does), Brotli 1 for a client that takes only Brotli.
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
  return compression({
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
}
