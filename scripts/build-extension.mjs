#!/usr/bin/env node
// Hitscope for Browsers: builds the extension (companions/browser) with Vite, writes its manifest
// stamped with package.json's version, checks the manifest's permissions and the bundles for remote
// code, and packs it: a .zip for the Chrome Web Store (and Edge Add-ons), an unsigned .xpi for
// Firefox (AMO signs it). dist/companions/packages.json lists every companion package built, which
// the releases publisher reads (src/releases/companion-builds.ts, `npm run publish:companions`).
//
//   node scripts/build-extension.mjs     (npm run build runs it too)
//
// Environment: HITSCOPE_SITE_URL stamps a default site into the settings; HITSCOPE_LICENSING_JWKS
// names a JWKS file whose keys the extension pins (else it trusts the site's keys at first activation).
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sha256, writePackages } from './companion-packages.mjs';
import { chromeManifest, codeProblems, firefoxManifest, manifestProblems } from './extension/manifest.mjs';
import { zip } from './extension/zip.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
export const EXTENSION_PRODUCT = 'hitscope-for-browsers';
/** Firefox's add-on id: fixed for the life of the add-on (AMO ties updates and signing to it). */
export const GECKO_ID = `${EXTENSION_PRODUCT}@hitscope`;

function filesOf(dir) {
  const out = [];
  const walk = (current) => {
    for (const name of readdirSync(current).sort()) {
      const path = join(current, name);
      if (statSync(path).isDirectory()) walk(path);
      else out.push(path);
    }
  };
  walk(dir);
  return out;
}

/** Builds, checks and packs the extension; returns what it wrote. */
export async function buildExtension({ log = console.log } = {}) {
  const started = Date.now();
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const source = join(root, 'companions/browser');
  const out = join(root, 'dist/companions');
  const chromeDir = join(out, 'browser/chrome');
  const firefoxDir = join(out, 'browser/firefox');
  rmSync(join(out, 'browser'), { recursive: true, force: true });
  for (const name of existsSync(out) ? readdirSync(out) : []) {
    if (name.startsWith(`${EXTENSION_PRODUCT}-`)) rmSync(join(out, name), { force: true });
  }

  if (process.env.HITSCOPE_LICENSING_JWKS) {
    const jwks = JSON.parse(readFileSync(process.env.HITSCOPE_LICENSING_JWKS, 'utf8'));
    if (!Array.isArray(jwks.keys)) throw new Error(`${process.env.HITSCOPE_LICENSING_JWKS} is not a JWKS (no "keys" array)`);
    process.env.HITSCOPE_PINNED_KEYS = JSON.stringify(jwks);
  }
  process.env.HITSCOPE_EXTENSION_OUT = chromeDir;
  const { build } = await import('vite');
  await build({ configFile: join(source, 'vite.config.ts'), logLevel: 'warn', mode: 'production' });
  // Content scripts are classic scripts (no modules there): one self-contained IIFE each.
  for (const name of ['relay', 'main-world']) {
    await build({
      configFile: false,
      logLevel: 'warn',
      mode: 'production',
      publicDir: false,
      build: {
        outDir: join(chromeDir, 'content'),
        emptyOutDir: false,
        target: 'es2022',
        sourcemap: false,
        lib: {
          entry: join(source, `src/content/${name}.ts`),
          formats: ['iife'],
          name: `hitscope_${name.replace('-', '_')}`,
          fileName: () => `${name}.js`,
        },
      },
    });
  }

  const template = JSON.parse(readFileSync(join(source, 'manifest.json'), 'utf8'));
  const manifest = chromeManifest(template, version);
  const problems = [...manifestProblems(manifest)];
  for (const file of filesOf(chromeDir).filter((path) => /\.(js|html)$/.test(path))) {
    problems.push(...codeProblems(relative(chromeDir, file), readFileSync(file, 'utf8')));
  }
  for (const script of [
    manifest.background.service_worker,
    ...manifest.content_scripts.flatMap((entry) => entry.js),
    manifest.side_panel.default_path,
    manifest.devtools_page,
    manifest.options_ui.page,
  ]) {
    if (!existsSync(join(chromeDir, script))) problems.push(`the manifest names ${script}, which the build did not write`);
  }
  if (problems.length) throw new Error(`The extension breaks its policy:\n  - ${problems.join('\n  - ')}`);
  writeFileSync(join(chromeDir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);

  cpSync(chromeDir, firefoxDir, { recursive: true });
  writeFileSync(join(firefoxDir, 'manifest.json'), `${JSON.stringify(firefoxManifest(manifest, GECKO_ID), null, 2)}\n`);

  const packages = [];
  for (const [platform, dir, extension] of [
    ['chrome', chromeDir, 'zip'],
    ['firefox', firefoxDir, 'xpi'],
  ]) {
    const archive = zip(filesOf(dir).map((path) => ({ path: relative(dir, path).split('\\').join('/'), data: readFileSync(path) })));
    const file = `${EXTENSION_PRODUCT}-${version}-${platform}.${extension}`;
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, file), archive);
    packages.push({
      product: EXTENSION_PRODUCT,
      platform,
      arch: 'universal',
      version,
      file,
      size: archive.length,
      sha256: sha256(archive),
    });
  }
  writePackages(out, EXTENSION_PRODUCT, packages);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  log(
    `Extension ${version}: ${packages.map((entry) => `${entry.file} (${(entry.size / 1024).toFixed(0)} KB)`).join(', ')} in ${seconds} s`,
  );
  return { version, packages, chromeDir, firefoxDir };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  buildExtension().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
