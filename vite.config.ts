import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * One config for three uses: the dev middleware inside Nest, the client build (with manifest.json
 * for modulepreload links) and the SSR build of client/entry-server.tsx. The build id comes from
 * scripts/build.mjs so that both builds agree on it.
 */
export default defineConfig(({ isSsrBuild }) => ({
  root: import.meta.dirname,
  plugins: [react()],
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
