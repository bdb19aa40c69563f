#!/usr/bin/env node
// `npm start`: build the production bundles when they are missing, then serve. The app runs as a
// child process; this one hands it every stop signal (Ctrl-C, `kill <pid>`, a closed terminal) and
// exits with its exit code, so stopping `npm start` by its pid stops the app and, through the app,
// its embedded database.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
/** How often this process checks that whoever started it is still there. */
const ORPHAN_CHECK_MS = 500;
const required = ['dist/build-manifest.json', 'dist/server/entry-server.js', 'dist/app/src/main.js'];
if (!required.every((file) => existsSync(join(root, file)))) {
  console.log('No production build found: building it first (npm run build)…');
  const result = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

const child = spawn(process.execPath, ['--enable-source-maps', join(root, 'dist/app/src/main.js')], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, NODE_ENV: process.env.NODE_ENV ?? 'production' },
});
// The app shuts down cleanly on each of them (src/main.ts). A Ctrl-C reaches it from the terminal as
// well; its shutdown runs once however many arrive.
const stopApp = (signal) => {
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
};
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopApp(signal));

// `npm start` runs this under `sh -c`: stopping npm by its pid stops npm and the shell, and the
// signal npm passes on ends the shell without reaching this process. An orphan is re-parented, so
// a changed parent means whoever started it is gone: stop the app as a closed terminal would.
const parent = process.ppid;
const orphanWatch = setInterval(() => {
  if (process.ppid === parent) return;
  clearInterval(orphanWatch);
  stopApp('SIGHUP');
}, ORPHAN_CHECK_MS);
orphanWatch.unref();

// Killed by a signal itself, it has no code: the shell's convention, 128 + the signal's number.
child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
