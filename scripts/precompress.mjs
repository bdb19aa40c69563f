#!/usr/bin/env node
// Build step: writes `name.br` (Brotli, quality 11) and `name.gz` (gzip, level 9) next to every
// compressible file the server publishes from dist/client, so that a request for it costs a file
// read instead of a compression (src/common/precompressed-static.ts serves them). Run by
// scripts/build.mjs; `node scripts/precompress.mjs [dir]` redoes it on an existing build.
import { readdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname, extname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Text formats worth compressing; images (png, webp, woff2…) are compressed already. */
export const COMPRESSIBLE_EXTENSIONS = new Set(['.js', '.mjs', '.css', '.svg', '.json', '.txt', '.xml', '.webmanifest', '.map']);
/** Below this a compressed copy saves less than its extra headers and a file lookup cost. */
export const PRECOMPRESS_MIN_BYTES = 1024;
/** A variant is kept only when it is at most this fraction of the original. */
const KEEP_RATIO = 0.95;

/**
 * Paths (relative, "/"-separated) the server never publishes: dot directories (.vite/manifest.json)
 * and the raw HTML template (client/index.html, read by the renderer and never served).
 */
function published(path) {
  return !path.split('/').some((part) => part.startsWith('.')) && extname(path) !== '.html';
}

async function* files(dir, root = dir) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* files(path, root);
    else if (entry.isFile()) yield relative(root, path).split('\\').join('/');
  }
}

/**
 * Compresses every published compressible file of `dir` above `minBytes`. Stale variants from an
 * earlier run are removed first, so a variant never outlives or disagrees with its original.
 * Answers what it did: files, bytes before and after (the smallest variant), and the CPU time spent.
 */
export async function precompressDirectory(dir, { minBytes = PRECOMPRESS_MIN_BYTES, concurrency = 2 } = {}) {
  const all = [];
  for await (const path of files(dir)) all.push(path);
  await Promise.all(all.filter((path) => /\.(br|gz)$/.test(path)).map((path) => unlink(join(dir, path))));
  const candidates = all.filter((path) => !/\.(br|gz)$/.test(path) && published(path) && COMPRESSIBLE_EXTENSIONS.has(extname(path)));

  const result = { files: 0, variants: 0, originalBytes: 0, brotliBytes: 0, gzipBytes: 0, cpuMs: 0, wallMs: 0 };
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const queue = [...candidates];
  const worker = async () => {
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      const file = join(dir, path);
      if ((await stat(file)).size < minBytes) continue;
      const original = await readFile(file);
      const [br, gz] = await Promise.all([
        brotli(original, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: original.length,
          },
        }),
        gzipAsync(original, { level: 9 }),
      ]);
      result.files += 1;
      result.originalBytes += original.length;
      for (const [variant, suffix, key] of [
        [br, '.br', 'brotliBytes'],
        [gz, '.gz', 'gzipBytes'],
      ]) {
        if (variant.length <= original.length * KEEP_RATIO) {
          await writeFile(`${file}${suffix}`, variant);
          result.variants += 1;
          result[key] += variant.length;
        } else {
          result[key] += original.length;
        }
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  const cpu = process.cpuUsage(cpuStarted);
  result.cpuMs = Math.round((cpu.user + cpu.system) / 1000);
  result.wallMs = Math.round(performance.now() - started);
  return result;
}

export function describePrecompression(result) {
  const kb = (bytes) => `${(bytes / 1024).toFixed(0)} kB`;
  return (
    `Precompressed ${result.files} files (${result.variants} .br/.gz variants): ${kb(result.originalBytes)} → ` +
    `br ${kb(result.brotliBytes)}, gzip ${kb(result.gzipBytes)} in ${(result.wallMs / 1000).toFixed(1)} s ` +
    `(${(result.cpuMs / 1000).toFixed(1)} s CPU)`
  );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const dir = process.argv[2] ?? join(dirname(fileURLToPath(import.meta.url)), '..', 'dist/client');
  console.log(describePrecompression(await precompressDirectory(dir)));
}
