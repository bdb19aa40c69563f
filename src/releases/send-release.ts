import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import { parseRange } from './byte-range.js';
import { ReleasesErrorCode, ReleasesException } from './releases.exception.js';
import type { ReleasesService } from './releases.service.js';
import type { Release } from './schemas/release.schema.js';

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  return header.split(',').some((tag) => tag.trim().replace(/^W\//, '') === etag);
}

/**
 * Sends a build as a download: `attachment` under its (validated, plain) file name, never sniffed
 * or rendered, `ETag` = its SHA-256, one `Range` at a time (206, or 416 past the end; several
 * ranges are answered with the whole file, which RFC 9110 allows), HEAD without reading storage.
 * A download counts once: a full GET, or a range that starts at byte 0 (a resumed download's later
 * ranges, HEADs and 304s do not count).
 */
export async function sendRelease(request: Request, response: Response, releases: ReleasesService, release: Release): Promise<void> {
  const { size, sha256, filename, contentType } = release.file;
  const etag = `"${sha256}"`;
  response
    .setHeader('Accept-Ranges', 'bytes')
    .setHeader('ETag', etag)
    .setHeader('Last-Modified', release.publishedAt.toUTCString())
    // Licence-gated: no shared cache may keep it; no-transform keeps compression off the bytes and ranges.
    .setHeader('Cache-Control', 'private, no-cache, no-transform')
    .setHeader('Content-Disposition', `attachment; filename="${filename}"; filename*=UTF-8''${encodeURIComponent(filename)}`)
    .setHeader('Content-Security-Policy', "default-src 'none'; sandbox")
    .setHeader('X-Content-Type-Options', 'nosniff');
  if (etagMatches(request.headers['if-none-match'], etag)) {
    response.status(304).end();
    return;
  }
  // If-Range with another validator: the file changed since the client's part, so send it whole.
  const ifRange = request.headers['if-range'];
  const range = ifRange && String(ifRange).trim() !== etag ? null : parseRange(request.headers.range, size);
  if (range === 'unsatisfiable') {
    response.setHeader('Content-Range', `bytes */${size}`);
    throw new ReleasesException(ReleasesErrorCode.RangeNotSatisfiable, `The range asked for is outside the file's ${size} bytes`);
  }
  const length = range ? range.end - range.start + 1 : size;
  response
    .status(range ? 206 : 200)
    .setHeader('Content-Type', contentType)
    .setHeader('Content-Length', String(length));
  if (range) response.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${size}`);
  if (request.method === 'HEAD') {
    response.end();
    return;
  }
  const file = await releases.open(release, range);
  if (!range || range.start === 0) await releases.countDownload(release);
  // A storage failure half-way cannot become an error response any more (the headers are sent):
  // pipeline destroys the response, and the client sees a truncated body (its length is known).
  await pipeline(file.body, response).catch(() => undefined);
}
