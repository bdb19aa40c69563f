import { type APIRequestContext, type Browser, expect, type Page, test } from '@playwright/test';
import { csrfToken, gotoHydrated, signInAsAdmin } from './fixtures.js';

/**
 * The tracker honours Global Privacy Control and Do Not Track when the analytics setting says so:
 * it sends nothing at all (the collector's drop by the `Sec-GPC`/`DNT` headers stays as the defence).
 * Chromium sends neither signal by itself; `addInitScript` gives the page's `navigator` one, and no
 * header is added, so only the tracker can be what keeps the beacon back.
 */

type Signal = 'gpc' | 'dnt';

async function openWithSignal(browser: Browser, signal: Signal): Promise<{ page: Page; beacons: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.addInitScript((which: Signal) => {
    if (which === 'gpc') Object.defineProperty(Navigator.prototype, 'globalPrivacyControl', { get: () => true, configurable: true });
    else Object.defineProperty(Navigator.prototype, 'doNotTrack', { get: () => '1', configurable: true });
  }, signal);
  const beacons: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/e') beacons.push(request.postData() ?? '');
  });
  return { page, beacons, close: () => context.close() };
}

async function setRespectPrivacySignals(request: APIRequestContext, respect: boolean) {
  const current = await request.get('/api/admin/analytics/settings');
  expect(current.status()).toBe(200);
  const settings = (await current.json()) as Record<string, unknown>;
  const saved = await request.put('/api/admin/analytics/settings', {
    data: { ...settings, respectPrivacySignals: respect },
    headers: { 'x-csrf-token': await csrfToken(request) },
  });
  expect(saved.status()).toBe(200);
}

/** One page load and one client navigation: a beacon is due for each unless the tracker holds back. */
async function loadAndNavigate(page: Page) {
  await gotoHydrated(page, '/');
  await page.getByRole('link', { name: 'Sponsor', exact: true }).first().click();
  await expect(page).toHaveURL(/\/sponsor$/);
  // Give a beacon that should not come every chance to come.
  await page.waitForTimeout(500);
}

// The setting is site-wide: these run one after the other, and leave it on (the default).
test.describe.serial('the tracker and the privacy-signal setting', () => {
  test.afterAll(async ({ playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL });
    await signInAsAdmin(admin);
    await setRespectPrivacySignals(admin, true);
    await admin.dispose();
  });

  for (const signal of ['gpc', 'dnt'] as const) {
    test(`with the setting on, a browser sending ${signal === 'gpc' ? 'Global Privacy Control' : 'Do Not Track'} sends no beacon`, async ({
      browser,
      playwright,
      baseURL,
    }) => {
      const admin = await playwright.request.newContext({ baseURL });
      await signInAsAdmin(admin);
      await setRespectPrivacySignals(admin, true);
      await admin.dispose();

      const { page, beacons, close } = await openWithSignal(browser, signal);
      await loadAndNavigate(page);
      expect(
        await page.evaluate(() => [(navigator as { globalPrivacyControl?: boolean }).globalPrivacyControl ?? null, navigator.doNotTrack]),
      ).toEqual(signal === 'gpc' ? [true, null] : [null, '1']);
      expect(beacons).toEqual([]);
      await close();
    });
  }

  test('with the setting off, the same browser is counted: a beacon on load and one per navigation', async ({
    browser,
    playwright,
    baseURL,
  }) => {
    const admin = await playwright.request.newContext({ baseURL });
    await signInAsAdmin(admin);
    await setRespectPrivacySignals(admin, false);
    await admin.dispose();

    const { page, beacons, close } = await openWithSignal(browser, 'gpc');
    await loadAndNavigate(page);
    expect(beacons.map((body) => (JSON.parse(body) as { p: string }).p)).toEqual(['/', '/sponsor']);
    await close();
  });

  test('with the setting on, a browser without a signal is counted as before', async ({ page, playwright, baseURL }) => {
    const admin = await playwright.request.newContext({ baseURL });
    await signInAsAdmin(admin);
    await setRespectPrivacySignals(admin, true);
    await admin.dispose();

    const beacons: string[] = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/e') beacons.push(request.postData() ?? '');
    });
    await loadAndNavigate(page);
    expect(beacons).toHaveLength(2);
  });
});
