import { readFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { join } from 'node:path';
import type { ServerEntry } from '../../lib/ssr/render-contract.js';
import { PROJECT_ROOT } from '../common/project-root.js';
import type { PageRenderer } from './page-renderer.js';

/**
 * Development: Vite runs inside Nest as middleware (hot module replacement over the same HTTP
 * server) and the server entry is loaded through Vite's module runner, so edits apply on reload.
 */
export async function createViteDevRenderer(httpServer: Server) {
  const { createServer, isRunnableDevEnvironment } = await import('vite');
  const vite = await createServer({
    root: PROJECT_ROOT,
    configFile: join(PROJECT_ROOT, 'vite.config.ts'),
    appType: 'custom',
    server: { middlewareMode: true, hmr: { server: httpServer } },
  });
  const ssr = vite.environments.ssr;
  if (!isRunnableDevEnvironment(ssr)) throw new Error('Vite SSR environment is not runnable');
  const startedAt = Date.now();
  const renderer: PageRenderer = {
    mode: 'development',
    entry: async () => ((await ssr.runner.import('/client/entry-server.tsx')) as { serverEntry: ServerEntry }).serverEntry,
    template: async (url) => vite.transformIndexHtml(url, await readFile(join(PROJECT_ROOT, 'client', 'index.html'), 'utf8')),
    preloadLinks: () => '',
    buildManifest: () => ({ id: 'development', timestamp: startedAt }),
    close: () => vite.close(),
  };
  return { renderer, middlewares: vite.middlewares };
}
