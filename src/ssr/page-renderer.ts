import type { BuildManifest } from '../../lib/client-constants.js';
import type { ServerEntry } from '../../lib/ssr/render-contract.js';

/**
 * How pages are produced: through Vite's dev server (development, hot reload) or from the
 * production build in dist/. The SSR controller and the error filter only see this interface.
 */
export interface PageRenderer {
  readonly mode: 'development' | 'production';
  entry(): Promise<ServerEntry>;
  /** The HTML shell with its placeholders (see client/index.html). */
  template(url: string): Promise<string>;
  /** `<link rel="modulepreload">` tags for the chunks of the matched pages. */
  preloadLinks(pageModules: readonly string[]): string;
  buildManifest(): BuildManifest;
  close(): Promise<void>;
}

export const PAGE_RENDERER = Symbol('PAGE_RENDERER');
