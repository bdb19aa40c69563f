import { createHash, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import type { OwnedLicenceList } from '../../lib/api/licences.js';
import type { AdminRelease, UploadReleaseFields } from '../../lib/api/releases.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { collectPageProblems, csrfToken, gotoHydrated, signInAsAdmin, signUp } from './fixtures.js';

const BROWSERS = COMPANION_PRODUCTS.browsers;
const TOOL_PATH = `/dashboard/tools/${BROWSERS.slug}`;
/** Newer than any earlier run's build on a reused server, so it is the latest. */
const VERSION = `1.${Date.now()}.0`;
const BUILD = randomBytes(4096 + 17);
const SHA256 = createHash('sha256').update(BUILD).digest('hex');
const NOTES = [
  '## What is new',
  '',
  '- **Faster** HAR decoding of batched `/g/collect` hits',
  '- Fixes <b>consent</b> state on batched hits',
  '',
  'Read [the changelog](https://example.com/changelog).',
].join('\n');

test.describe.configure({ mode: 'serial' });

async function asAdmin<T>(baseURL: string, run: (admin: APIRequestContext, token: string) => Promise<T>): Promise<T> {
  const admin = await playwrightRequest.newContext({ baseURL });
  try {
    await signInAsAdmin(admin);
    return await run(admin, await csrfToken(admin));
  } finally {
    await admin.dispose();
  }
}

const card = (page: Page) => page.getByRole('region', { name: `${BROWSERS.name} — download & licence` });
const release = (page: Page) =>
  card(page)
    .getByTestId('release')
    .filter({ hasText: `v${VERSION}` });

test.describe('latest releases', () => {
  test.beforeAll(async ({ baseURL }) => {
    await asAdmin(baseURL!, async (admin, token) => {
      // The text fields first, then the file: the server streams the build as it arrives.
      const fields: UploadReleaseFields = {
        product: BROWSERS.slug,
        platform: 'chrome',
        arch: 'universal',
        channel: 'stable',
        version: VERSION,
        size: String(BUILD.length),
        notes: NOTES,
      };
      const response = await admin.post('/api/admin/releases', {
        headers: { 'x-csrf-token': token },
        multipart: { ...fields, file: { name: `hitscope-for-browsers-${VERSION}.zip`, mimeType: 'application/zip', buffer: BUILD } },
      });
      expect(response.status(), `upload: ${await response.text()}`).toBe(201);
      expect(((await response.json()) as AdminRelease).file.sha256).toBe(SHA256);
    });
  });

  test('a licence holder sees the release with its checksum and key, and downloads it', async ({ page, baseURL }) => {
    const { user } = await signUp(page.request, 'releases-holder');
    await asAdmin(baseURL!, async (admin, token) => {
      const granted = await admin.post(`/api/admin/users/${user.id}/licences`, {
        data: { planId: 'team', products: [BROWSERS.slug], seats: 1, note: 'browser suite: releases' },
        headers: { 'x-csrf-token': token },
      });
      expect(granted.status(), 'grant a licence').toBe(201);
    });
    const { licences } = (await (await page.request.get('/api/licences')).json()) as OwnedLicenceList;
    const key = licences.find((licence) => licence.product === BROWSERS.slug)?.key;
    expect(key).toBeTruthy();

    const problems = collectPageProblems(page);
    await gotoHydrated(page, TOOL_PATH);
    await expect(release(page)).toBeVisible();
    await expect(release(page).getByRole('heading', { name: 'Chrome' })).toBeVisible();
    await expect(release(page).getByLabel(/^SHA-256 of Chrome/)).toHaveValue(SHA256);
    await expect(release(page)).toContainText('4.0 KB');
    // The notes' Markdown is rendered (a heading under the platform's, a list, bold, code, a link that
    // opens no referrer); the raw HTML in them is shown as text, never rendered.
    const notes = release(page).getByTestId('release-notes');
    await expect(notes.getByRole('heading', { level: 4, name: 'What is new' })).toBeVisible();
    await expect(notes.getByRole('listitem')).toHaveText([
      'Faster HAR decoding of batched /g/collect hits',
      'Fixes <b>consent</b> state on batched hits',
    ]);
    await expect(notes.locator('strong')).toHaveText('Faster');
    await expect(notes.locator('code')).toHaveText('/g/collect');
    await expect(notes.getByRole('link', { name: 'the changelog' })).toHaveAttribute('rel', 'noopener noreferrer nofollow');
    await expect(release(page).locator('b')).toHaveCount(0);
    await expect(release(page)).not.toContainText('**');
    await expect(card(page).getByLabel(`${BROWSERS.name} licence key`)).toHaveValue(key!);
    await expect(card(page).getByTestId('licence-needed')).toHaveCount(0);

    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await release(page)
      .getByRole('button', { name: /^Copy SHA-256/ })
      .click();
    await expect(page.getByText('Checksum copied')).toBeVisible();

    const download = page.waitForEvent('download');
    await release(page)
      .getByRole('link', { name: /^Download/ })
      .click();
    const file = await download;
    expect(Buffer.compare(await readFile((await file.path())!), BUILD)).toBe(0);
    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('without a licence: the release shows, "A licence is needed", and no download link', async ({ page }) => {
    await signUp(page.request, 'releases-nolicence');
    await gotoHydrated(page, TOOL_PATH);
    await expect(release(page)).toBeVisible();
    await expect(release(page).getByLabel(/^SHA-256 of Chrome/)).toHaveValue(SHA256);
    const needed = card(page).getByTestId('licence-needed');
    await expect(needed).toContainText('A licence is needed to download.');
    await expect(needed.getByRole('link', { name: 'See plans and subscription' })).toHaveAttribute('href', '/dashboard/user/subscription');
    await expect(card(page).getByRole('link', { name: /^Download/ })).toHaveCount(0);
    await expect(card(page).getByLabel(`${BROWSERS.name} licence key`)).toHaveCount(0);
  });

  test('free downloads: the switch in /admin/settings (asked, then a toast) gives the card "Free download" buttons without a licence', async ({
    page,
    browser,
    baseURL,
  }) => {
    const adminContext = await browser.newContext();
    const admin = await adminContext.newPage();
    const switchFor = () => admin.getByRole('switch', { name: `Free downloads of ${BROWSERS.name}` });
    try {
      await signInAsAdmin(admin.request);
      await gotoHydrated(admin, '/admin/settings');
      await expect(switchFor()).toHaveAttribute('aria-checked', 'false');
      await switchFor().click();
      const dialog = admin.getByRole('dialog', { name: `Make ${BROWSERS.name} downloads free?` });
      // Cancel changes nothing.
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await expect(dialog).toHaveCount(0);
      await expect(switchFor()).toHaveAttribute('aria-checked', 'false');
      await switchFor().click();
      await dialog.getByRole('button', { name: 'Make downloads free' }).click();
      await expect(admin.getByRole('region', { name: 'Notifications' }).getByText(`Downloads of ${BROWSERS.name} are free`)).toBeVisible();
      await expect(switchFor()).toHaveAttribute('aria-checked', 'true');

      // A person without a licence: the notice says free, and every build has its download button.
      await signUp(page.request, 'releases-free');
      await gotoHydrated(page, TOOL_PATH);
      await expect(release(page)).toBeVisible();
      await expect(card(page).getByTestId('licence-needed')).toHaveCount(0);
      await expect(card(page).getByTestId('downloads-free')).toContainText('Free download.');
      const link = release(page).getByRole('link', {
        name: new RegExp(`^Free download ${BROWSERS.name} ${VERSION.replaceAll('.', '\\.')} for Chrome`),
      });
      await expect(link).toBeVisible();
      const download = page.waitForEvent('download');
      await link.click();
      const file = await download;
      expect(Buffer.compare(await readFile((await file.path())!), BUILD)).toBe(0);
      // Nobody signed in downloads it too.
      const anonymous = await playwrightRequest.newContext({ baseURL });
      const href = (await link.getAttribute('href'))!;
      const response = await anonymous.get(href);
      expect(response.status()).toBe(200);
      expect(Buffer.compare(await response.body(), BUILD)).toBe(0);
      await anonymous.dispose();

      // Off again, through the same question.
      await switchFor().click();
      await admin
        .getByRole('dialog', { name: `Require a licence for ${BROWSERS.name} downloads?` })
        .getByRole('button', { name: 'Require a licence' })
        .click();
      await expect(
        admin.getByRole('region', { name: 'Notifications' }).getByText(`Downloads of ${BROWSERS.name} need a licence again`),
      ).toBeVisible();
      await expect(switchFor()).toHaveAttribute('aria-checked', 'false');
      await gotoHydrated(page, TOOL_PATH);
      await expect(card(page).getByTestId('licence-needed')).toContainText('A licence is needed to download.');
      await expect(card(page).getByRole('link', { name: /download/i })).toHaveCount(0);
    } finally {
      // Whatever happened above, the product needs a licence again for the other tests.
      await asAdmin(baseURL!, (api, token) =>
        api.put(`/api/admin/catalogue/products/${BROWSERS.slug}`, { data: { downloadsFree: false }, headers: { 'x-csrf-token': token } }),
      );
      await adminContext.close();
    }
  });

  test('the lounge lists the release', async ({ page }) => {
    await signUp(page.request, 'releases-lounge');
    await gotoHydrated(page, '/dashboard/lounge');
    const latest = page.getByRole('region', { name: 'Latest releases' });
    const item = latest.getByRole('listitem').filter({ hasText: `v${VERSION}` });
    await expect(item).toBeVisible();
    await expect(item).toContainText(BROWSERS.name);
    await expect(item).toContainText('Chrome');
    await expect(page.getByText(/is published yet/)).toHaveCount(0);
  });
});
