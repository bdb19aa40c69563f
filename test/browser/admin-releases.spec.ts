import { createHash, randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import type { LatestReleasesResponse } from '../../lib/api/releases.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { gotoHydrated, signInAsAdmin } from './fixtures.js';

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

  // Yank, after a confirmation.
  await row.getByRole('button', { name: /^Yank / }).click();
  await row.getByRole('group').getByRole('button', { name: 'Yank' }).click();
  await expect(row.getByText('yanked', { exact: true })).toBeVisible();
  await expect.poll(async () => (await latest()).length, { timeout: 70_000, intervals: [1000, 5000] }).toBe(0);
});
