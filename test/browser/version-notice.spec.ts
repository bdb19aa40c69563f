import { expect, type Page, test } from '@playwright/test';
import { BUILD_MANIFEST_PATH, type BuildManifest } from '../../lib/client-constants.js';
import { gotoHydrated } from './fixtures.js';

// docs/client-behaviour.md: open tabs poll the build manifest (hourly and when the tab becomes visible again)
// and offer a non-blocking reload when a newer build is live.

/** Headless pages are always 'visible': dispatching the event is what a tab switch back does. */
async function becomeVisibleAgain(page: Page): Promise<void> {
  const checked = page.waitForResponse((response) => new URL(response.url()).pathname === BUILD_MANIFEST_PATH);
  await page.evaluate(() => {
    if (document.visibilityState !== 'visible') throw new Error(`visibilityState is ${document.visibilityState}`);
    document.dispatchEvent(new Event('visibilitychange'));
  });
  await checked;
}

test.describe('new-version notice', () => {
  test('shows "A new version is available" with a Reload button when the live build differs', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(page.getByTestId('version-notice')).toHaveCount(0);
    await page.route(`**${BUILD_MANIFEST_PATH}`, (route) =>
      route.fulfill({
        json: { id: 'a-newer-build', timestamp: Date.now() } satisfies BuildManifest,
        headers: { 'cache-control': 'no-store' },
      }),
    );

    await becomeVisibleAgain(page);

    const notice = page.getByTestId('version-notice');
    await expect(notice).toBeVisible();
    await expect(notice).toContainText('A new version is available');
    await expect(notice).toHaveAttribute('role', 'status');
    const reload = notice.getByRole('button', { name: 'Reload' });
    await expect(reload).toBeVisible();

    // Non-blocking: the page underneath stays usable…
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sponsor' })).toBeEnabled();
    // …and "Reload" reloads the document.
    const reloaded = page.waitForRequest((request) => request.isNavigationRequest() && new URL(request.url()).pathname === '/');
    await reload.click();
    await reloaded;
    await page.waitForLoadState('load');
  });

  test('stays hidden while the live build is the one the page was built with', async ({ page }) => {
    await gotoHydrated(page, '/login');
    const manifest = page.waitForResponse((response) => new URL(response.url()).pathname === BUILD_MANIFEST_PATH);
    await becomeVisibleAgain(page);
    const live = (await (await manifest).json()) as BuildManifest;
    expect(live.id).toBeTruthy();
    // Give React a moment to (not) render the notice after the answer arrived.
    await page.waitForTimeout(500);
    await expect(page.getByTestId('version-notice')).toHaveCount(0);
  });

  test('the build manifest is never cached and names the running build', async ({ request }) => {
    const response = await request.get(BUILD_MANIFEST_PATH);
    expect(response.status()).toBe(200);
    expect(response.headers()['cache-control']).toContain('no-store');
    const manifest = (await response.json()) as BuildManifest;
    expect(typeof manifest.id).toBe('string');
    expect(manifest.id.length).toBeGreaterThan(0);
    expect(typeof manifest.timestamp).toBe('number');
  });
});
