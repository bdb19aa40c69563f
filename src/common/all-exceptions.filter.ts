import { type ArgumentsHost, Catch, type ExceptionFilter, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { isReservedPath } from '../../lib/routes/reserved-paths.js';
import type { ErrorPageRenderer } from './error-page-renderer.js';
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

  constructor(private readonly errorPages: ErrorPageRenderer) {}

  catch(exception: unknown, host: ArgumentsHost): Promise<void> {
    return this.respond(exception, host.switchToHttp().getRequest<Request>(), host.switchToHttp().getResponse<Response>());
  }

  /** Answers `request` for `exception`; also used by the request deadline, outside Nest's pipeline. */
  async respond(exception: unknown, request: Request, response: Response): Promise<void> {
    // Already answered (the request deadline passed): whatever the late handler tried to send is dropped.
    if (response.headersSent) {
      if (!response.locals.deadlineExceeded)
        this.logger.error(`${request.method} ${request.originalUrl} failed after its answer was sent: ${String(exception)}`);
      return;
    }
    const result = toErrorResponse(exception);
    if (result.unexpected) {
      this.logger.error(`${request.method} ${request.originalUrl}: ${(exception as Error)?.stack ?? String(exception)}`);
    }
    for (const [name, value] of Object.entries(result.headers ?? {})) response.setHeader(name, value);

    const wantsPage = (request.method === 'GET' || request.method === 'HEAD') && !isReservedPath(request.path);
    if (!wantsPage) {
      response.status(result.status).json(result.body);
      return;
    }
    response.status(result.status).setHeader('Cache-Control', 'no-store').type('html');
    let html: string;
    try {
      // The screen is drawn from the status and the path alone: nothing of the exception reaches the page.
      html = await this.errorPages.renderErrorPage(result.status, request, response);
    } catch (error) {
      this.logger.error(`Rendering the error page failed: ${(error as Error).stack ?? String(error)}`);
      html = LAST_RESORT_HTML(result.status);
    }
    // The render is asynchronous: the request may have been answered meanwhile (deadline or handler).
    if (!response.headersSent) response.send(html);
  }
}
