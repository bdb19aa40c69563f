import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { expect, request as playwrightRequest, test } from '@playwright/test';
import type { LicensingJwks, OwnedLicenceList } from '../../lib/api/licences.js';
import type { AdminReleaseList } from '../../lib/api/releases.js';
import { verifyDownloadedBuild } from '../../lib/licensing/release-signature.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { csrfToken, gotoHydrated, signInAsAdmin, signUp } from '../browser/fixtures.js';

const BROWSERS = COMPANION_PRODUCTS.browsers;
const { version } = JSON.parse(readFileSync(join(process.cwd(), 'package.json'), 'utf8')) as { version: string };
const built = (
  JSON.parse(readFileSync(join(process.cwd(), 'dist/companions/packages.json'), 'utf8')) as {
    packages: Array<{ product: string; platform: string; file: string; sha256: string }>;
  }
).packages.filter((row) => row.product === BROWSERS.slug);

/** A file of a zip archive, read from its central directory (what a browser reads from an extension package). */
function unzipEntry(archive: Buffer, name: string): Buffer | null {
  const end = archive.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  let offset = archive.readUInt32LE(end + 16);
  const count = archive.readUInt16LE(end + 10);
  for (let index = 0; index < count; index++) {
    const method = archive.readUInt16LE(offset + 10);
    const size = archive.readUInt32LE(offset + 20);
    const nameLength = archive.readUInt16LE(offset + 28);
    const extra = archive.readUInt16LE(offset + 30) + archive.readUInt16LE(offset + 32);
    const local = archive.readUInt32LE(offset + 42);
    if (archive.subarray(offset + 46, offset + 46 + nameLength).toString('utf8') === name) {
      const start = local + 30 + archive.readUInt16LE(local + 26) + archive.readUInt16LE(local + 28);
      const data = archive.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : data;
    }
    offset += 46 + nameLength + extra;
  }
  return null;
}

test.describe('the published extension', () => {
  test('a fresh site published the bundled build on its first start; a licence holder downloads it with the right checksum and signature, and the tool page shows how to install it', async ({
    page,
    baseURL,
  }) => {
    expect(built.map((row) => row.platform).sort()).toEqual(['chrome', 'firefox']);
    const admin = await playwrightRequest.newContext({ baseURL });
    await signInAsAdmin(admin);
    // Published in the background on start-up (by both instances of the suite's server at once).
    let releases: AdminReleaseList['releases'] = [];
    await expect
      .poll(
        async () => {
          releases = ((await (await admin.get(`/api/admin/releases?product=${BROWSERS.slug}`)).json()) as AdminReleaseList).releases.filter(
            (release) => release.version === version,
          );
          return releases.map((release) => `${release.platform}/${release.arch}/${release.channel}`).sort();
        },
        { timeout: 30_000 },
      )
      .toEqual(['chrome/universal/stable', 'firefox/universal/stable']);

    const { user } = await signUp(page.request, 'extension-release');
    const granted = await admin.post(`/api/admin/users/${user.id}/licences`, {
      data: { planId: 'team', products: [BROWSERS.slug], seats: 1, note: 'extension suite: release' },
      headers: { 'x-csrf-token': await csrfToken(admin) },
    });
    expect(granted.status()).toBe(201);
    await admin.dispose();

    const jwks = (await (await page.request.get('/.well-known/hitscope-licensing-keys.json')).json()) as LicensingJwks;
    for (const row of built) {
      const release = releases.find((each) => each.platform === row.platform)!;
      expect(release.file.sha256).toBe(row.sha256);
      expect(release.file.filename).toBe(row.file);
      const response = await page.request.get(`/api/releases/${release.id}/download`);
      expect(response.status()).toBe(200);
      const bytes = await response.body();
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
      expect(bytes.equals(readFileSync(join(process.cwd(), 'dist/companions', row.file)))).toBe(true);
      expect(
        await verifyDownloadedBuild(
          new Uint8Array(bytes),
          { sha256: release.file.sha256, size: release.file.size, signature: release.signature },
          jwks,
        ),
      ).toEqual({ ok: true });
      // What the browser reads: the manifest, version stamped from package.json.
      const manifest = JSON.parse(unzipEntry(bytes, 'manifest.json')!.toString('utf8')) as {
        version: string;
        name: string;
        browser_specific_settings?: unknown;
      };
      expect(manifest.version).toBe(version);
      expect(manifest.name).toBe(BROWSERS.name);
      expect(Boolean(manifest.browser_specific_settings)).toBe(row.platform === 'firefox');
    }

    // The tool page: what it does, a real screenshot of the panel, install steps per browser, and the builds.
    const { licences } = (await (await page.request.get('/api/licences')).json()) as OwnedLicenceList;
    expect(licences.some((licence) => licence.product === BROWSERS.slug && licence.valid)).toBe(true);
    await gotoHydrated(page, `/dashboard/tools/${BROWSERS.slug}`);
    const guide = page.getByRole('region', { name: 'The extension' });
    await expect(guide.getByText('Chrome, Edge, Brave and other Chromium browsers')).toBeVisible();
    await expect(guide.getByText('Load unpacked')).toBeVisible();
    await guide.getByText('Firefox', { exact: true }).click();
    await expect(guide.getByText('Load Temporary Add-on…')).toBeVisible();
    const screenshot = guide.getByRole('img', { name: /Hitscope for Browsers beside a shop's page/ });
    await screenshot.scrollIntoViewIfNeeded();
    await expect.poll(() => screenshot.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth)).toBe(1280);
    const card = page.getByRole('region', { name: `${BROWSERS.name} — download & licence` });
    await expect(card.getByTestId('release').filter({ hasText: 'Firefox' })).toContainText(`v${version}`);
    await expect(card.getByRole('link', { name: new RegExp(`^Download.*${version.replaceAll('.', '\\.')} for Firefox`) })).toBeVisible();
  });
});
