import { Inject, Injectable } from '@nestjs/common';
import type { Request, Response } from 'express';
import type { ServerRenderInput } from '../../lib/ssr/render-contract.js';
import type { ErrorPageRenderer } from '../common/error-page-renderer.js';
import { isDatabaseUnavailable } from '../common/error-response.js';
import { assembleDocument } from './html-document.js';
import { PageContextService } from './page-context.service.js';
import { PAGE_RENDERER, type PageRenderer } from './page-renderer.js';

export type RenderedPage = { type: 'redirect'; status: number; location: string } | { type: 'page'; status: number; html: string };

/** Turns what the server entry renders into the HTML document sent to the browser. */
@Injectable()
export class PageDocumentService implements ErrorPageRenderer {
  constructor(
    @Inject(PAGE_RENDERER) private readonly renderer: PageRenderer,
    private readonly context: PageContextService,
  ) {}

  /** A page, or the redirect its route guards or route rules asked for. */
  async renderPage(input: ServerRenderInput): Promise<RenderedPage> {
    const entry = await this.renderer.entry();
    const result = await entry.render(input);
    if (result.type === 'redirect') return result;
    // A loader that could not reach the database: thrown to the exception filter, which answers the
    // 503 screen with Retry-After, as the API does, rather than the in-app 500.
    if (isDatabaseUnavailable(result.failure)) throw result.failure;
    const html = assembleDocument(await this.renderer.template(input.url), {
      ...result,
      preloadLinks: this.renderer.preloadLinks(result.pageModules),
      nonce: input.nonce,
      colorMode: input.colorMode,
    });
    return { type: 'page', status: result.status, html };
  }

  /** The bare 404/500 screen, outside the router: no scripts, so the client does not hydrate it. */
  async renderErrorPage(status: number, request: Request, response: Response): Promise<string> {
    const { url, nonce, ...screenInput } = this.context.forErrorScreen(request, response);
    const entry = await this.renderer.entry();
    const screen = entry.renderErrorScreen({ ...screenInput, status });
    return assembleDocument(await this.renderer.template(url), {
      ...screen,
      scripts: '',
      preloadLinks: '',
      nonce,
      colorMode: screenInput.colorMode,
      staticError: true,
    });
  }
}
