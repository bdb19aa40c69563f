import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildManifest } from '../../lib/client-constants.js';
import type { ServerEntry } from '../../lib/ssr/render-contract.js';
import { PROJECT_ROOT } from '../common/project-root.js';
import type { PageRenderer } from './page-renderer.js';

export const DIST_DIR = join(PROJECT_ROOT, 'dist');
export const CLIENT_DIST_DIR = join(DIST_DIR, 'client');
const TEMPLATE_PATH = join(CLIENT_DIST_DIR, 'client', 'index.html');
const VITE_MANIFEST_PATH = join(CLIENT_DIST_DIR, '.vite', 'manifest.json');
const SERVER_ENTRY_PATH = join(DIST_DIR, 'server', 'entry-server.js');
const BUILD_MANIFEST_PATH = join(DIST_DIR, 'build-manifest.json');

interface ManifestChunk {
  file: string;
  imports?: string[];
  css?: string[];
  isEntry?: boolean;
}

export function hasProductionBuild(): boolean {
  return [TEMPLATE_PATH, VITE_MANIFEST_PATH, SERVER_ENTRY_PATH, BUILD_MANIFEST_PATH].every((path) => existsSync(path));
}

/** Serves the output of `npm run build`: everything is read once at start-up. */
export async function createProductionRenderer(): Promise<PageRenderer> {
  if (!hasProductionBuild()) {
    throw new Error('No production build found in dist/. Run `npm run build` (npm start does it for you).');
  }
  const template = readFileSync(TEMPLATE_PATH, 'utf8');
  const manifest = JSON.parse(readFileSync(VITE_MANIFEST_PATH, 'utf8')) as Record<string, ManifestChunk>;
  const buildManifest = JSON.parse(readFileSync(BUILD_MANIFEST_PATH, 'utf8')) as BuildManifest;
  const entry = ((await import(pathToFileURL(SERVER_ENTRY_PATH).href)) as { serverEntry: ServerEntry }).serverEntry;
  const preloadCache = new Map<string, string>();

  const collect = (key: string, files: Set<string>, css: Set<string>) => {
    const chunk = manifest[key];
    if (!chunk || files.has(chunk.file)) return;
    files.add(chunk.file);
    chunk.css?.forEach((file) => css.add(file));
    chunk.imports?.forEach((imported) => collect(imported, files, css));
  };
  // The entry chunk and what it imports are already in the template; never preload them twice.
  const inTemplate = new Set<string>();
  const cssInTemplate = new Set<string>();
  collect('client/index.html', inTemplate, cssInTemplate);

  return {
    mode: 'production',
    entry: async () => entry,
    template: async () => template,
    preloadLinks(pageModules) {
      const key = pageModules.join('|');
      let links = preloadCache.get(key);
      if (links === undefined) {
        const files = new Set<string>();
        const css = new Set<string>();
        for (const page of pageModules) collect(`client/pages/${page}.tsx`, files, css);
        links = [
          // A second link to the app-wide stylesheet after a page's own would undo the page's rules.
          ...[...css].filter((file) => !cssInTemplate.has(file)).map((file) => `<link rel="stylesheet" href="/${file}">`),
          ...[...files].filter((file) => !inTemplate.has(file)).map((file) => `<link rel="modulepreload" href="/${file}">`),
        ].join('\n    ');
        preloadCache.set(key, links);
      }
      return links;
    },
    buildManifest: () => buildManifest,
    close: async () => undefined,
  };
}
