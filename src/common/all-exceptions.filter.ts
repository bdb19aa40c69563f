import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { COLOR_MODE_COOKIE, parseColorMode } from '../../lib/client-constants.js';
import type { AppConfig } from '../config/app-config.js';
import { assembleDocument } from '../ssr/html-document.js';
import type { PageRenderer } from '../ssr/page-renderer.js';
import { RESERVED_PATH } from '../ssr/ssr.controller.js';
import { toErrorResponse } from './error-response.js';

const LAST_RESORT_HTML = (status: number) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status === 404 ? 'Page Not Found' : 'Internal Server Error'}</title></head>` +
  `<body><h1>${status === 404 ? 'Page Not Found' : 'Internal Server Error'}</h1><p><a href="/">Home</a></p></body></html>`;

/**
 * The one place errors become responses: JSON `{ statusCode, error, message }` under /api (and
 * other machine paths), the 404/500 screens for pages. Stacks are logged, never sent.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');

  constructor(
    private readonly config: AppConfig,
    private readonly renderer: PageRenderer,
  ) {}

  async catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    const request = host.switchToHttp().getRequest<Request>();
    const response = host.switchToHttp().getResponse<Response>();
    const result = toErrorResponse(exception);
    if (result.unexpected) {
      this.logger.error(`${request.method} ${request.originalUrl}: ${(exception as Error)?.stack ?? String(exception)}`);
    }
    if (response.headersSent) return;
    for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);

    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !RESERVED_PATH.test(request.path);
    if (!wantsPage) {
      response.status(result.status).json(result.body);
      return;
    }
    response.status(result.status).setHeader('Cache-Control', 'no-store').type('html');
    try {
      response.send(await this.renderErrorPage(request, response, result.status));
    } catch (error) {
      this.logger.error(`Rendering the error page failed: ${(error as Error).stack ?? String(error)}`);
      response.send(LAST_RESORT_HTML(result.status));
    }
  }

  private async renderErrorPage(request: Request, response: Response, status: number): Promise<string> {
    const colorMode = parseColorMode((request.cookies as Record<string, string> | undefined)?.[COLOR_MODE_COOKIE]);
    const entry = await this.renderer.entry();
    const screen = entry.renderErrorScreen({ status, path: request.path, publicUrl: this.config.publicUrl, colorMode });
    return assembleDocument(await this.renderer.template(request.originalUrl), {
      ...screen,
      scripts: '',
      preloadLinks: '',
      nonce: (response.locals.cspNonce as string | undefined) ?? '',
      colorMode,
      staticError: true,
    });
  }
}
