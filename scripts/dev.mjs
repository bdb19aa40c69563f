#!/usr/bin/env node
// `npm run dev`: the server is compiled by `tsc --watch` (Nest needs decorator metadata, which
// esbuild-style transpilers do not emit) and restarted by `node --watch`; the client is served by
// Vite inside the server with hot module replacement.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tscBin = join(root, 'node_modules/typescript/bin/tsc');
const main = join(root, 'dist/app/src/main.js');
const children = [];
const env = { ...process.env, NODE_ENV: 'development' };

const tsc = spawn(process.execPath, [tscBin, '-p', 'tsconfig.build.json', '--watch', '--preserveWatchOutput'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
});
children.push(tsc);

let server = null;
tsc.stdout.on('data', (chunk) => {
  const text = chunk.toString();
  process.stdout.write(text);
  if (!server && /Found 0 errors/.test(text) && existsSync(main)) {
    server = spawn(process.execPath, ['--enable-source-maps', '--watch-path=dist/app', main], { cwd: root, stdio: 'inherit', env });
    children.push(server);
  }
});

const stop = () => {
  for (const child of children) child.kill('SIGTERM');
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
