import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * Hitscope for Browsers, the extension's pages and service worker (scripts/build-extension.mjs
 * builds the two content scripts apart, as classic scripts, and writes the manifest). Everything the
 * extension runs is in the package: no remote code, no eval (the build checks both).
 */
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  publicDir: 'public',
  define: {
    __HITSCOPE_SITE_URL__: JSON.stringify(process.env.HITSCOPE_SITE_URL ?? ''),
    __HITSCOPE_PINNED_KEYS__: process.env.HITSCOPE_PINNED_KEYS ?? 'null',
  },
  build: {
    outDir: process.env.HITSCOPE_EXTENSION_OUT ?? '../../dist/companions/browser/chrome',
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    // The polyfill would be injected into the shared chunk the service worker imports too.
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1024,
    rollupOptions: {
      input: {
        sidepanel: 'sidepanel.html',
        panel: 'panel.html',
        devtools: 'devtools.html',
        options: 'options.html',
        'service-worker': 'src/background/service-worker.ts',
      },
      output: {
        // The manifest names the worker: a stable name, not a hashed one.
        entryFileNames: (chunk) => (chunk.name === 'service-worker' ? 'service-worker.js' : 'assets/[name]-[hash].js'),
      },
    },
  },
});
