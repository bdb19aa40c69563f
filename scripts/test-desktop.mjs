#!/usr/bin/env node
// `npm run test:desktop`: the suites of Hitscope for Apps (companions/desktop).
//
//   1. The app: dist/apps/hitscope-for-apps, built by `npm run build:apps` (with its .deb and .rpm)
//      when it is missing or older than its sources.
//   2. Rust: `cargo test --no-default-features` in companions/desktop/src-tauri — the process handling against
//      fake adb, idevice_id and idevicesyslog replaying the project's recorded logs
//      (tests/processes.rs), and the units beside the code.
//   3. End to end: the built app under Xvfb, driven through WebDriver by test/desktop/*.e2e-spec.ts
//      (Jest): tauri-driver in front of Debian's WebKitWebDriver.
//
// Needs: cargo (Rust 1.82+), Xvfb, WebKitWebDriver (Debian: webkit2gtk-driver) and tauri-driver
// (HITSCOPE_TAURI_DRIVER, else ~/.cache/hitscope/tools/bin/tauri-driver, installed there with
// `cargo install` when missing). Cargo's output stays outside the clone (scripts/build-apps.mjs).
// Screenshots of the window go to test-results/desktop (HITSCOPE_DESKTOP_SHOTS).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const started = Date.now();
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;
const targetDir =
  process.env.HITSCOPE_CARGO_TARGET_DIR || process.env.CARGO_TARGET_DIR || join(homedir(), '.cache', 'hitscope', 'cargo-target');
const toolsDir = join(homedir(), '.cache', 'hitscope', 'tools');
const children = new Set();

function fail(message) {
  console.error(`\ntest:desktop failed: ${message}`);
  for (const child of children) child.kill('SIGTERM');
  process.exit(1);
}

function run(command, args, options = {}) {
  const result = spawnSync(command, args, { stdio: 'inherit', ...options });
  if (result.error) fail(`${command} could not start: ${result.error.message}`);
  return result.status;
}

function which(command) {
  const result = spawnSync('sh', ['-c', `command -v ${command}`], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : null;
}

/** The newest modification time under `path` (files only). */
function newest(path) {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = 0;
  for (const name of readdirSync(path)) {
    if (name === 'gen' || name === 'target' || name === 'node_modules') continue;
    latest = Math.max(latest, newest(join(path, name)));
  }
  return latest;
}

// 1. The built app (release profile), current with its sources.
const app = join(root, 'dist/apps/hitscope-for-apps');
const sources = ['companions/desktop', 'lib', 'client/components', 'client/features/applog', 'client/styles', 'package.json'].map((path) =>
  join(root, path),
);
if (!which('cargo')) fail('cargo is not installed: the desktop app needs Rust 1.82 or newer.');
if (!existsSync(app) || statSync(app).mtimeMs < Math.max(...sources.map(newest))) {
  const building = Date.now();
  console.log(existsSync(app) ? 'The built app is older than its sources: building it again.' : 'Building the app (npm run build:apps).');
  if (run(process.execPath, [join(root, 'scripts/build-apps.mjs')]) !== 0) fail('build:apps failed');
  console.log(`App built in ${seconds(building)}`);
}

// 2. Rust tests, in the dev profile and without the `app` feature (Tauri, GTK, WebKitGTK): the
//    process handling they test needs none of it, and the build compiles a sixth of the crates
//    (about 35 s from an empty target folder instead of 10 min). The release profile would link
//    every test binary with LTO. The dev build stays cached in the target folder.
let step = Date.now();
const rust = run('cargo', ['test', '--locked', '--no-default-features'], {
  cwd: join(root, 'companions/desktop/src-tauri'),
  env: { ...process.env, CARGO_TARGET_DIR: targetDir },
});
if (rust !== 0) fail('the Rust tests failed');
console.log(`Rust tests passed in ${seconds(step)}`);

// 3. The WebDriver pieces.
const nativeDriver = process.env.HITSCOPE_NATIVE_DRIVER || which('WebKitWebDriver');
if (!nativeDriver) fail('WebKitWebDriver is missing (Debian: apt-get install webkit2gtk-driver).');
let driver =
  process.env.HITSCOPE_TAURI_DRIVER ||
  (existsSync(join(toolsDir, 'bin/tauri-driver')) ? join(toolsDir, 'bin/tauri-driver') : which('tauri-driver'));
if (!driver) {
  step = Date.now();
  console.log(`Installing tauri-driver into ${toolsDir} (cargo install)`);
  if (run('cargo', ['install', 'tauri-driver', '--locked', '--root', toolsDir]) !== 0) fail('cargo install tauri-driver failed');
  driver = join(toolsDir, 'bin/tauri-driver');
  console.log(`tauri-driver installed in ${seconds(step)}`);
}

// 4. A display of its own: Xvfb on the first free number from 90.
const xvfb = which('Xvfb');
if (!xvfb) fail('Xvfb is missing (Debian: apt-get install xvfb).');
let display = 90;
while (existsSync(`/tmp/.X11-unix/X${display}`) || existsSync(`/tmp/.X${display}-lock`)) display++;
const server = spawn(xvfb, [`:${display}`, '-screen', '0', '1280x800x24', '-nolisten', 'tcp'], { stdio: 'ignore' });
children.add(server);
const deadline = Date.now() + 10_000;
while (!existsSync(`/tmp/.X11-unix/X${display}`)) {
  if (server.exitCode !== null) fail(`Xvfb :${display} exited with ${server.exitCode}`);
  if (Date.now() > deadline) fail(`Xvfb :${display} did not start`);
  await new Promise((resolve) => setTimeout(resolve, 50));
}

// 5. The end-to-end suite.
step = Date.now();
const jest = spawn(
  process.execPath,
  [join(root, 'node_modules/jest/bin/jest.js'), '--testMatch', '<rootDir>/test/desktop/**/*.e2e-spec.ts', '--runInBand'],
  {
    cwd: root,
    stdio: 'inherit',
    env: {
      ...process.env,
      NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules`.trim(),
      DISPLAY: `:${display}`,
      HITSCOPE_DESKTOP_APP: app,
      HITSCOPE_TAURI_DRIVER: driver,
      HITSCOPE_NATIVE_DRIVER: nativeDriver,
    },
  },
);
children.add(jest);
const code = await new Promise((resolve) => jest.once('exit', (status) => resolve(status ?? 1)));
server.kill('SIGTERM');
if (code !== 0) fail('the end-to-end suite failed');
console.log(`End-to-end suite passed in ${seconds(step)}; test:desktop done in ${seconds(started)}`);
