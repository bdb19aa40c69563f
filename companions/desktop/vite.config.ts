import { readFileSync } from 'node:fs';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The desktop window's build: React + TypeScript from this repository (lib/, client/components and the
 * app-log feature's components), into dist/desktop, which Tauri packages (src-tauri/tauri.conf.json).
 * HITSCOPE_LICENSING_JWKS names a JWKS file to pin (scripts/build-apps.mjs writes it from the site).
 */
function pinnedKeys(): unknown {
  const file = process.env.HITSCOPE_LICENSING_JWKS;
  if (!file) return null;
  const jwks = JSON.parse(readFileSync(file, 'utf8')) as { keys?: unknown };
  if (!Array.isArray(jwks.keys)) throw new Error(`${file} is not a JWKS (no "keys" array)`);
  return jwks;
}

export default defineConfig({
  root: import.meta.dirname,
  // Tauri serves the files from its own scheme: relative URLs work there and in `file:` alike.
  base: './',
  plugins: [react()],
  publicDir: false,
  define: {
    __HITSCOPE_PINNED_KEYS__: JSON.stringify(pinnedKeys()),
  },
  server: { host: '127.0.0.1', port: 5183, strictPort: true },
  worker: { format: 'es' },
  build: {
    outDir: '../../dist/desktop',
    emptyOutDir: true,
    // WebKitGTK 2.40+ (Debian 12), WebView2 (Chromium) and macOS 13's WebKit.
    target: ['es2022', 'safari16'],
    sourcemap: false,
    chunkSizeWarningLimit: 1024,
  },
});
