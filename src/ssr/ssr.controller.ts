import { Controller, Get, NotFoundException, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isReservedPath } from '../../lib/routes/reserved-paths.js';
import { Public } from '../auth/decorators/public.decorator.js';
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
  ) {}

  @Public()
  @Get('{*path}')
  async render(@Req() request: Request, @Res() response: Response): Promise<void> {
    if (isReservedPath(request.path)) throw new NotFoundException(`Cannot GET ${request.path}`);
    const page = await this.pages.renderPage(await this.context.forPage(request, response));
    if (page.type === 'redirect') {
      response.setHeader('Cache-Control', 'no-store').redirect(page.status, page.location);
      return;
    }
    response
      .status(page.status)
      .setHeader('Content-Type', 'text/html; charset=utf-8')
      .setHeader('Cache-Control', 'no-cache, private')
      .setHeader('Vary', 'Cookie')
      .send(page.html);
  }
}
