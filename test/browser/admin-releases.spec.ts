import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { LatestReleasesResponse } from '../../lib/api/releases.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { csrfToken, gotoHydrated, signInAsAdmin } from './fixtures.js';

const APPS = COMPANION_PRODUCTS.apps;
/** Unique to this run, and on a platform and arch no other browser test uploads (linux · arm64). */
const VERSION = `7.${Date.now()}.0`;
const BUILD = randomBytes(64 * 1024 + 5);
const SHA256 = createHash('sha256').update(BUILD).digest('hex');
const FILE_NAME = `hitscope-for-apps-${VERSION}-linux-arm64.tar.gz`;

test.describe.configure({ mode: 'serial' });

test('/admin/settings: upload a release, refuse a duplicate, yank it', async ({ page }) => {
  test.setTimeout(120_000);
  await signInAsAdmin(page.request);
  await gotoHydrated(page, '/admin/settings');
  const section = page.getByRole('region', { name: 'Releases' });
  const form = section.getByRole('form', { name: 'Upload a release' });

  const fill = async () => {
    await form.getByLabel('Product').selectOption(APPS.slug);
    await form.getByLabel('Platform').selectOption('linux');
    await form.getByLabel('Architecture').selectOption('arm64');
    await form.getByLabel('Channel').selectOption('stable');
    await form.getByLabel('Version').fill(VERSION);
    await form.getByLabel('Release notes').fill('Uploaded by the browser test.');
    await form.getByLabel('Choose a file').setInputFiles({ name: FILE_NAME, mimeType: 'application/gzip', buffer: BUILD });
  };

  // The version is checked before a byte is sent.
  await form.getByLabel('Version').fill('1.2');
  await form.getByRole('button', { name: 'Upload' }).click();
  await expect(form.getByText('Enter a semantic version')).toBeVisible();

  await fill();
  await expect(form.getByText(`${FILE_NAME} ·`)).toBeVisible();
  await form.getByRole('button', { name: 'Upload' }).click();
  await expect(page.getByText(`${APPS.name} ${VERSION} is published`)).toBeVisible();

  const row = section.locator(`[data-testid="admin-release"][data-version="${VERSION}"]`);
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId('release-sha256')).toHaveAttribute('title', SHA256);
  await expect(row.getByTestId('release-sha256')).toHaveText(`${SHA256.slice(0, 12)}…`);
  await expect(row.getByText('published', { exact: true })).toBeVisible();

  const latest = async () => {
    const response = await page.request.get(`/api/releases/latest?product=${APPS.slug}`, { headers: { 'cache-control': 'no-cache' } });
    expect(response.ok()).toBe(true);
    return ((await response.json()) as LatestReleasesResponse).releases.filter((release) => release.version === VERSION);
  };
  const listed = await latest();
  expect(listed).toHaveLength(1);
  expect(listed[0].file.sha256).toBe(SHA256);

  // The same version again: the server's 409, said at the top of the form.
  await fill();
  await form.getByRole('button', { name: 'Upload' }).click();
  await expect(form.getByRole('alert').filter({ hasText: 'exists already' })).toBeVisible();

  // Yank, after a confirmation that names the build: product, version, platform and arch, channel, file.
  await row.getByRole('button', { name: /^Yank / }).click();
  const dialog = page.getByRole('dialog', { name: `Yank ${APPS.name} ${VERSION}?` });
  await expect(dialog.getByRole('term')).toHaveText(['Product', 'Version', 'Platform', 'Channel', 'File', 'SHA-256', 'Downloads']);
  await expect(dialog.getByRole('definition')).toHaveText([
    APPS.name,
    VERSION,
    'Linux · ARM64',
    'stable',
    /^hitscope-for-apps-.*-linux-arm64\.tar\.gz \(64\.0 KB\)$/,
    `${SHA256.slice(0, 12)}…`,
    '0',
  ]);
  await expect(dialog.getByRole('definition').nth(4)).toContainText(FILE_NAME);
  // The long version and file name wrap inside the dialog: nothing is cut off at its edge.
  expect(await dialog.evaluate((element) => element.scrollWidth - element.clientWidth)).toBeLessThanOrEqual(0);
  await dialog.getByRole('button', { name: 'Yank this build' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(row.getByText('yanked', { exact: true })).toBeVisible();
  await expect.poll(async () => (await latest()).length, { timeout: 70_000, intervals: [1000, 5000] }).toBe(0);
});

test('/admin/settings: the upload form offers only what each product ships on', async ({ page }) => {
  await signInAsAdmin(page.request);
  await gotoHydrated(page, '/admin/settings');
  const form = page.getByRole('region', { name: 'Releases' }).getByRole('form', { name: 'Upload a release' });
  const options = (label: string) => form.getByLabel(label).locator('option');

  await form.getByLabel('Product').selectOption(COMPANION_PRODUCTS.browsers.slug);
  await expect(options('Platform')).toHaveText(['Chrome', 'Firefox', 'Edge']);
  await expect(options('Architecture')).toHaveText(['Universal']);
  await expect(form.getByLabel('Platform')).toHaveValue('chrome');

  await form.getByLabel('Product').selectOption(APPS.slug);
  await expect(options('Platform')).toHaveText(['Windows', 'macOS', 'Linux']);
  await expect(options('Architecture')).toHaveText(['x64', 'ARM64']);
  await form.getByLabel('Platform').selectOption('macos');
  await expect(options('Architecture')).toHaveText(['x64', 'ARM64', 'Universal']);
  await form.getByLabel('Architecture').selectOption('universal');
  // Back to Windows, which has no universal build: the first valid choice, never an impossible one.
  await form.getByLabel('Platform').selectOption('windows');
  await expect(form.getByLabel('Architecture')).toHaveValue('x64');
});

for (const width of [1280, 390]) {
  test(`/admin/settings at ${width} px: the releases table stays inside its card, actions in view`, async ({ page }) => {
    await page.setViewportSize({ width, height: 900 });
    await signInAsAdmin(page.request);
    // A long version and file name: what pushed the Downloads and Yank columns out of the card.
    const version = `8.${Date.now()}.0-beta.12`;
    const build = randomBytes(2048);
    const uploaded = await page.request.post('/api/admin/releases', {
      headers: { 'x-csrf-token': await csrfToken(page.request) },
      multipart: {
        product: COMPANION_PRODUCTS.browsers.slug,
        platform: 'firefox',
        arch: 'universal',
        channel: 'beta',
        version,
        size: String(build.length),
        file: { name: `hitscope-for-browsers-${version}-firefox-signed.xpi`, mimeType: 'application/x-xpinstall', buffer: build },
      },
    });
    expect(uploaded.status(), await uploaded.text()).toBe(201);
    await gotoHydrated(page, '/admin/settings');
    const section = page.getByRole('region', { name: 'Releases' });
    const row = section.locator(`[data-testid="admin-release"][data-version="${version}"]`);
    await row.scrollIntoViewIfNeeded();
    const wrap = section.locator('.table-wrap');
    const { scrollWidth, clientWidth } = await wrap.evaluate((element) => ({
      scrollWidth: element.scrollWidth,
      clientWidth: element.clientWidth,
    }));
    expect(scrollWidth, 'the table needs no sideways scrolling').toBeLessThanOrEqual(clientWidth);
    const card = (await section.boundingBox())!;
    for (const cell of [row.getByRole('button', { name: /^Yank / }), row.locator('td[data-label="Downloads"]')]) {
      const box = (await cell.boundingBox())!;
      expect(box.x + box.width, 'inside the card').toBeLessThanOrEqual(card.x + card.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
  });
}
