#!/usr/bin/env node
// `npm run build:apps`: Hitscope for Apps (companions/desktop), the Tauri 2 desktop app.
//
//   1. The window: companions/desktop's React UI through the project's Vite, into dist/desktop.
//   2. The app: `tauri build` (Rust, release profile) with the version of package.json, bundled as
//      the packages of this system: .deb and .rpm on Linux (not AppImage: its bundler downloads
//      linuxdeploy at build time), .dmg on macOS, .msi and NSIS .exe on Windows.
//   3. dist/apps/: the packages and the app's binary (the one the end-to-end suite drives), each
//      with its size and SHA-256.
//
// Cargo's build output stays outside the clone, so CI keeps it between runs: HITSCOPE_CARGO_TARGET_DIR,
// else CARGO_TARGET_DIR, else ~/.cache/hitscope/cargo-target. Licensing keys are pinned into the
// build from HITSCOPE_LICENSING_JWKS (a JWKS file), or fetched from HITSCOPE_SITE_URL (which also
// becomes the app's default site); with neither, the app trusts the keys its site publishes.
//
// HITSCOPE_APPS_TARGET cross-builds for a Rust target triple (macOS: universal-apple-darwin for one
// binary holding x64 and arm64, with both targets installed by rustup).
//
//   node scripts/build-apps.mjs [--no-bundle] [--debug]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { homedir, platform } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writePackages } from './companion-packages.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const args = new Set(process.argv.slice(2));
const bundle = !args.has('--no-bundle');
const debug = args.has('--debug');
const started = Date.now();

export const cargoTargetDir = () =>
  process.env.HITSCOPE_CARGO_TARGET_DIR || process.env.CARGO_TARGET_DIR || join(homedir(), '.cache', 'hitscope', 'cargo-target');

const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const triple = process.env.HITSCOPE_APPS_TARGET || null;
/** The releases API's platform and arch of this build (lib/releases/targets.ts). */
const releasePlatform = { linux: 'linux', darwin: 'macos', win32: 'windows' }[platform()];
const releaseArch = triple?.startsWith('universal')
  ? 'universal'
  : (triple ?? process.arch).startsWith('aarch64') || (!triple && process.arch === 'arm64')
    ? 'arm64'
    : 'x64';
const targetDir = cargoTargetDir();
const out = join(root, 'dist/apps');
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(1)} s`;

function fail(message) {
  console.error(`\nbuild:apps failed: ${message}`);
  process.exit(1);
}

function run(command, commandArgs, options = {}) {
  const result = spawnSync(command, commandArgs, { stdio: 'inherit', ...options });
  if (result.error) fail(`${command} could not start: ${result.error.message}`);
  if (result.status !== 0) fail(`${command} ${commandArgs.join(' ')} exited with ${result.status}`);
}

const cargo = spawnSync('cargo', ['--version'], { encoding: 'utf8' });
if (cargo.status !== 0) {
  fail('cargo is not installed. The desktop app needs Rust 1.82 or newer (https://rustup.rs); `npm start` does not.');
}
console.log(`Hitscope for Apps ${version}: ${cargo.stdout.trim()}, cargo output in ${targetDir}`);

// Licensing keys pinned into the build.
const env = { ...process.env, CARGO_TARGET_DIR: targetDir };
if (!process.env.HITSCOPE_LICENSING_JWKS && process.env.HITSCOPE_SITE_URL) {
  const url = `${process.env.HITSCOPE_SITE_URL.replace(/\/+$/, '')}/.well-known/hitscope-licensing-keys.json`;
  const response = await fetch(url).catch((error) => fail(`could not fetch ${url}: ${error.message}`));
  if (!response.ok) fail(`${url} answered ${response.status}`);
  const jwks = await response.json();
  if (!Array.isArray(jwks.keys) || jwks.keys.length === 0) fail(`${url} holds no keys`);
  mkdirSync(join(root, 'dist'), { recursive: true });
  env.HITSCOPE_LICENSING_JWKS = join(root, 'dist/desktop-licensing-keys.json');
  writeFileSync(env.HITSCOPE_LICENSING_JWKS, JSON.stringify(jwks));
  console.log(`Pinned ${jwks.keys.length} licensing key(s) from ${url}`);
}

// 1. The window.
let step = Date.now();
const { build } = await import('vite');
process.env.HITSCOPE_LICENSING_JWKS = env.HITSCOPE_LICENSING_JWKS ?? '';
await build({ configFile: join(root, 'companions/desktop/vite.config.ts'), logLevel: 'warn', mode: 'production' });
console.log(`Window built into dist/desktop in ${seconds(step)}`);

// 2. The app.
const bundles = { linux: 'deb,rpm', darwin: 'app,dmg', win32: 'msi,nsis' }[platform()];
if (bundle && !bundles) fail(`no package format for ${platform()}`);
const tauri = join(root, 'node_modules/@tauri-apps/cli/tauri.js');
if (!existsSync(tauri)) fail('@tauri-apps/cli is missing: run npm install');
step = Date.now();
run(process.execPath, [tauri, 'build', ...(debug ? ['--debug'] : []), ...(bundle ? ['--bundles', bundles] : ['--no-bundle']), '--ci'], {
  cwd: join(root, 'companions/desktop/src-tauri'),
  env,
});
console.log(`App built in ${seconds(step)}`);

// 3. dist/apps.
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
const profile = join(targetDir, ...(triple ? [triple] : []), debug ? 'debug' : 'release');
const binary = join(profile, platform() === 'win32' ? 'hitscope-for-apps.exe' : 'hitscope-for-apps');
const files = [binary];
if (bundle) {
  const bundleDir = join(profile, 'bundle');
  for (const kind of readdirSync(bundleDir)) {
    for (const name of readdirSync(join(bundleDir, kind))) {
      // Only this version's packages: the target folder is kept between builds.
      if (/\.(deb|rpm|dmg|msi|exe)$/.test(name) && name.includes(version)) files.push(join(bundleDir, kind, name));
    }
  }
}
for (const file of files) {
  // "Hitscope for Apps_0.1.0_amd64.deb" → "hitscope-for-apps_0.1.0_amd64.deb": release file names are plain.
  const name = basename(file).replace(/ /g, '-').toLowerCase();
  copyFileSync(file, join(out, name));
  const bytes = readFileSync(file);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  console.log(`  dist/apps/${name}  ${(statSync(file).size / 1024 / 1024).toFixed(1)} MB  sha256 ${sha256}`);
}
// What the publishing command needs of each package: the releases API's product, platform, arch and format.
const packages = files.slice(1).map((file) => {
  const name = basename(file).replace(/ /g, '-').toLowerCase();
  return {
    file: name,
    product: 'hitscope-for-apps',
    platform: releasePlatform,
    arch: releaseArch,
    format: name.slice(name.lastIndexOf('.') + 1),
    version,
  };
});
// The packages also go beside the extension's, in dist/companions with their rows in packages.json:
// what `npm run publish:companions` (and a fresh site's first start) publishes as releases.
if (packages.length > 0) {
  const companions = join(root, 'dist/companions');
  mkdirSync(companions, { recursive: true });
  // An earlier version's packages go: packages.json lists only this build's.
  for (const name of readdirSync(companions)) {
    if (name.startsWith('hitscope-for-apps') && /\.(deb|rpm|dmg|msi|exe)$/.test(name)) rmSync(join(companions, name), { force: true });
  }
  const rows = packages.map(({ file, product, platform: releasePlatformOf, arch, version: packageVersion }) => {
    copyFileSync(join(out, file), join(companions, file));
    const bytes = readFileSync(join(out, file));
    return {
      product,
      platform: releasePlatformOf,
      arch,
      version: packageVersion,
      file,
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    };
  });
  writePackages(companions, 'hitscope-for-apps', rows);
  console.log(`  dist/companions/packages.json lists ${rows.map((row) => row.file).join(', ')} for npm run publish:companions`);
}
writeFileSync(
  join(out, 'build.json'),
  JSON.stringify({ version, binary: basename(binary), packages, builtAt: new Date().toISOString() }, null, 2),
);
console.log(`build:apps done in ${seconds(started)}`);
