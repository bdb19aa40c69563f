/**
 * The built extension (dist/companions, written by `npm run build`): its manifests keep to the
 * permission allow-list and the store's no-remote-code rule, its version is package.json's, and its
 * packages are what packages.json says, byte for byte (the releases publisher trusts that list).
 */
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import {
  ALLOWED_PERMISSIONS,
  chromeManifest,
  codeProblems,
  firefoxManifest,
  manifestProblems,
  manifestVersion,
} from '../../scripts/extension/manifest.mjs';
import { zip } from '../../scripts/extension/zip.mjs';

const root = process.cwd();
const out = join(root, 'dist/companions');
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string };
const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

function filesOf(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesOf(path) : [path];
  });
}

/** The file names inside a zip, from its central directory. */
function zipNames(archive: Buffer): string[] {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const names: string[] = [];
  let offset = archive.readUInt32LE(end + 16);
  for (let index = 0; index < archive.readUInt16LE(end + 10); index++) {
    const length = archive.readUInt16LE(offset + 28);
    names.push(archive.subarray(offset + 46, offset + 46 + length).toString('utf8'));
    offset += 46 + length + archive.readUInt16LE(offset + 30) + archive.readUInt16LE(offset + 32);
  }
  return names;
}

describe('the built browser extension', () => {
  const chrome = readJson(join(out, 'browser/chrome/manifest.json'));
  const firefox = readJson(join(out, 'browser/firefox/manifest.json'));

  it('asks for exactly the allowed permissions, each with its reason, and nothing a policy forbids', () => {
    expect(chrome.permissions).toEqual(['webRequest', 'webNavigation', 'storage', 'sidePanel']);
    for (const permission of chrome.permissions) expect(ALLOWED_PERMISSIONS[permission]).toBeTruthy();
    expect(chrome.host_permissions).toEqual(['<all_urls>']);
    expect(chrome.optional_permissions).toBeUndefined();
    expect(manifestProblems(chrome)).toEqual([]);
    expect(manifestProblems(firefox)).toEqual([]);
    // The policy itself: what it must refuse.
    expect(manifestProblems({ ...chrome, permissions: [...chrome.permissions, 'tabs', 'debugger', 'alarms'] })).toEqual([
      'the permission "tabs" is never needed',
      'the permission "debugger" is never needed',
      'the permission "alarms" is not in the allow-list (add it there with its reason)',
    ]);
    expect(
      manifestProblems({ ...chrome, content_security_policy: { extension_pages: "script-src 'self' https://cdn.example" } }),
    ).toHaveLength(1);
    expect(manifestProblems({ ...chrome, externally_connectable: { matches: ['https://*/*'] } })).toHaveLength(1);
  });

  it('is version-stamped from package.json and named for the product; Firefox gets its own background, sidebar and id', () => {
    expect(chrome.version).toBe(manifestVersion(version).version);
    expect(chrome.name).toBe(COMPANION_PRODUCTS.browsers.name);
    expect(chrome.background).toEqual({ service_worker: 'service-worker.js', type: 'module' });
    expect(firefox.background).toEqual({ scripts: ['service-worker.js'], type: 'module' });
    expect(firefox.permissions).not.toContain('sidePanel');
    expect(firefox.side_panel).toBeUndefined();
    expect(firefox.sidebar_action.default_panel).toBe('sidepanel.html');
    expect(firefox.browser_specific_settings.gecko.id).toBe(`${COMPANION_PRODUCTS.browsers.slug}@hitscope`);
    expect(firefox.browser_specific_settings.gecko.data_collection_permissions).toEqual({ required: ['none'] });
    expect(manifestVersion('1.2.3-beta.4')).toEqual({ version: '1.2.3.4', versionName: '1.2.3-beta.4' });
    expect(chromeManifest({ version: '0.0.0' }, '2.0.0-rc.1')).toEqual({ version: '2.0.0.1', version_name: '2.0.0-rc.1' });
    expect(() => manifestVersion('1.70000.0')).toThrow(/above 65535/);
    expect(firefoxManifest(chrome, 'x@y').background).toEqual({ scripts: ['service-worker.js'], type: 'module' });
  });

  it('runs only code from its own package: no eval, no remote scripts, the content scripts classic', () => {
    const scripts = filesOf(join(out, 'browser/chrome')).filter((path) => /\.(js|html)$/.test(path));
    expect(scripts.length).toBeGreaterThan(5);
    for (const path of scripts) expect(codeProblems(relative(out, path), readFileSync(path, 'utf8'))).toEqual([]);
    expect(codeProblems('x.js', 'const f = new Function("return 1")')).toEqual(['x.js uses new Function']);
    expect(codeProblems('x.js', 'import("https://cdn.example/x.js")')).toEqual(['x.js loads remote code']);
    for (const name of ['relay', 'main-world']) {
      const text = readFileSync(join(out, `browser/chrome/content/${name}.js`), 'utf8');
      expect(text).not.toMatch(/^\s*import\s|\bexport\s*\{/m);
    }
  });

  it('packs exactly the built files, as packages.json records them, deterministically', () => {
    const { packages } = readJson(join(out, 'packages.json')) as {
      packages: Array<{ product: string; platform: string; file: string; size: number; sha256: string; version: string; arch: string }>;
    };
    const rows = packages.filter((row) => row.product === COMPANION_PRODUCTS.browsers.slug);
    expect(rows.map((row) => [row.platform, row.arch, row.version, row.file])).toEqual([
      ['chrome', 'universal', version, `${COMPANION_PRODUCTS.browsers.slug}-${version}-chrome.zip`],
      ['firefox', 'universal', version, `${COMPANION_PRODUCTS.browsers.slug}-${version}-firefox.xpi`],
    ]);
    for (const row of rows) {
      const archive = readFileSync(join(out, row.file));
      expect(archive.length).toBe(row.size);
      expect(createHash('sha256').update(archive).digest('hex')).toBe(row.sha256);
      const dir = join(out, 'browser', row.platform);
      expect(zipNames(archive)).toEqual(
        filesOf(dir)
          .map((path) => relative(dir, path))
          .sort(),
      );
    }
    const files = [
      { path: 'b.txt', data: Buffer.from('second'.repeat(50)) },
      { path: 'a/one.json', data: Buffer.from('{}') },
    ];
    const archive = zip(files);
    expect(zip([...files].reverse()).equals(archive)).toBe(true);
    expect(zipNames(archive)).toEqual(['a/one.json', 'b.txt']);
    const bLocal = archive.indexOf(Buffer.from('b.txt')) + 5;
    expect(inflateRawSync(archive.subarray(bLocal, archive.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02])))).toString()).toBe(
      'second'.repeat(50),
    );
    expect(() => zip([{ path: '../x', data: Buffer.alloc(1) }])).toThrow(/Bad path/);
  });
});
