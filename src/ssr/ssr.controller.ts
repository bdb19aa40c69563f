import { Controller, Get, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isReservedPath } from '../../lib/routes/reserved-paths.js';
import { Public } from '../auth/decorators/public.decorator.js';
import { publicContentGeneration } from '../common/public-content.js';
import { PageCache, pageCacheKey } from './page-cache.js';
import { PageContextService } from './page-context.service.js';
import { PageDocumentService } from './page-document.service.js';

/**
 * The catch-all page route. It lives in its own module, imported last, so every API route is
 * registered before it (an earlier catch-all would shadow them).
 */
@Controller()
export class SsrController {
  constructor(
    private readonly context: PageContextService,
    private readonly pages: PageDocumentService,
    private readonly cache: PageCache,
  ) {}

  @Public()
  @Get('{*path}')
  async render(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (isReservedPath(request.path)) throw new NotFoundException(`Cannot GET ${request.path}`);
    // Read before rendering: a change to public content made meanwhile must not be hidden by this render.
    const generation = publicContentGeneration();
    const cacheKey = this.cache.enabled && request.method === 'GET' ? pageCacheKey(request.originalUrl, request.headers.cookie) : null;
    const input = await this.context.forPage(request, response);
    const page = await this.pages.renderPage(input);
    if (page.type === 'redirect') {
      response.setHeader('Cache-Control', 'no-store').redirect(page.status, page.location);
      return;
    }
    response
      .status(page.status)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Cache-Control', 'no-cache, private')
      .setHeader('Vary', 'Cookie');
    // Only the anonymous, successful page: the cache refuses one that set a cookie.
    if (cacheKey !== null && page.status === 200) {
      this.cache.store(cacheKey, { status: page.status, headers: response.getHeaders(), html: page.html, nonce: input.nonce }, generation);
    }
    // No ETag: with a nonce of its own in every page, it would never match.
    const body = Buffer.from(page.html);
    response.setHeader('Content-Length', body.length).end(body);
  }
}
