import { pipeline } from 'node:stream/promises';
import type { Request, Response } from 'express';
import type { StoredFile } from './file-storage.js';

/**
 * Streams a stored file as an inert download-safe response: its stored type (never sniffed), its
 * length, its ETag (a matching If-None-Match answers 304 without a body) and its Cache-Control,
 * or `defaultCacheControl` when it was stored without one.
 */
export async function sendStoredFile(request: Request, response: Response, file: StoredFile, defaultCacheControl: string): Promise<void> {
  response
    .setHeader('Cache-Control', file.cacheControl ?? defaultCacheControl)
    .setHeader('ETag', file.etag)
    .setHeader('Last-Modified', file.lastModified.toUTCString())
    .setHeader('Content-Disposition', 'inline')
    .setHeader('Content-Security-Policy', "default-src 'none'; sandbox")
    .setHeader('X-Content-Type-Options', 'nosniff');
  if (etagMatches(request.headers['if-none-match'], file.etag)) {
    file.body.destroy();
    response.status(304).end();
    return;
  }
  response.status(200).setHeader('Content-Type', file.contentType).setHeader('Content-Length', String(file.length));
  if (request.method === 'HEAD') {
    file.body.destroy();
    response.end();
    return;
  }
  // A storage failure half-way cannot become an error response any more (the headers are sent):
  // pipeline destroys the response, and the client sees a truncated body it will not cache.
  await pipeline(file.body, response).catch(() => undefined);
}

function etagMatches(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  if (header.trim() === '*') return true;
  const bare = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => bare(tag) === bare(etag));
}
