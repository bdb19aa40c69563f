import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

const reactRouterDist = `${import.meta.dirname}/node_modules/react-router/dist/production`;
const PRODUCTION_REACT_ROUTER = [
  { find: /^react-router$/, replacement: `${reactRouterDist}/index.mjs` },
  { find: /^react-router\/dom$/, replacement: `${reactRouterDist}/dom-export.mjs` },
];

/**
 * One config for three uses: the dev middleware inside Nest, the client build (with manifest.json
 * for modulepreload links) and the SSR build of client/entry-server.tsx. The build id comes from
 * scripts/build.mjs so that both builds agree on it.
 */
export default defineConfig(({ command, isSsrBuild }) => ({
  root: import.meta.dirname,
  plugins: [react()],
  // react-router's package.json exports only its development build (dev warnings, extra checks).
  // The builds (client and SSR) use its production build; the dev middleware keeps the warnings.
  resolve: command === 'build' ? { alias: PRODUCTION_REACT_ROUTER } : {},
  publicDir: 'client/public',
  define: {
    __BUILD_ID__: JSON.stringify(process.env.HITSCOPE_BUILD_ID ?? 'development'),
  },
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        ssr: 'client/entry-server.tsx',
        copyPublicDir: false,
        target: 'node20',
        sourcemap: true,
        rollupOptions: { output: { entryFileNames: 'entry-server.js' } },
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        // Written without a sourceMappingURL comment and moved out of dist/client by scripts/build.mjs:
        // the maps (with the original sources) are for an error tracker, never served publicly.
        sourcemap: 'hidden',
        target: 'es2022',
        rollupOptions: { input: 'client/index.html' },
      },
  ssr: {
    // Bundle the client-side libraries into the SSR build so it runs without Vite at runtime.
    noExternal: ['react-router', '@tanstack/react-query', 'devalue'],
  },
}));
