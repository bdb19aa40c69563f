#!/usr/bin/env node
// Production build: client bundle (+ manifest), SSR bundle, the browser extension's packages, server
// (tsc), and the build manifest that open tabs poll to notice a new version. One build id is shared
// by all of them.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describePrecompression, precompressDirectory } from './precompress.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const timestamp = Date.now();
const id = `${timestamp.toString(36)}-${randomBytes(4).toString('hex')}`;
process.env.HITSCOPE_BUILD_ID = id;

const { build } = await import('vite');
const started = Date.now();
await build({ root, configFile: join(root, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
await build({
  root,
  configFile: join(root, 'vite.config.ts'),
  logLevel: 'warn',
  mode: 'production',
  build: { ssr: 'client/entry-server.tsx' },
});

// Hitscope for Browsers: the extension, checked and packed (.zip, .xpi) into dist/companions, where
// the releases publisher finds it (a fresh site publishes it on first start).
const { buildExtension } = await import('./build-extension.mjs');
await buildExtension();

// The client's source maps hold the original sources: keep them beside the build for an error
// tracker (dist/sourcemaps/client/assets), out of the directory the server publishes.
const publicAssets = join(root, 'dist/client/assets');
const privateMaps = join(root, 'dist/sourcemaps/client/assets');
rmSync(join(root, 'dist/sourcemaps'), { recursive: true, force: true });
mkdirSync(privateMaps, { recursive: true });
for (const name of readdirSync(publicAssets).filter((file) => file.endsWith('.map'))) {
  renameSync(join(publicAssets, name), join(privateMaps, name));
}

// .br and .gz beside every compressible published file, served instead of compressing per request
// (src/common/precompressed-static.ts); after the maps left, so none of them is compressed.
console.log(describePrecompression(await precompressDirectory(join(root, 'dist/client'))));

const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
});
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist/build-manifest.json'), JSON.stringify({ id, timestamp }));
console.log(`Built ${id} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
