import type { Request, Response } from 'express';

/**
 * Draws the 404/500 screen of a page request. Declared here and implemented by the SSR module, so
 * the exception filter, which every module stands on, never depends on how pages are rendered.
 */
export interface ErrorPageRenderer {
  /**
   * The whole HTML document of the error screen for `status` (`Page Not Found` for 404, `Internal
   * Server Error` otherwise). Rejects when the screen cannot be rendered: the filter then sends a
   * bare last-resort page instead.
   */
  renderErrorPage(status: number, request: Request, response: Response): Promise<string>;
}

export const ERROR_PAGE_RENDERER = Symbol('ERROR_PAGE_RENDERER');
