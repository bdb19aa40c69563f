import { expect, type Page, test } from '@playwright/test';
import { CHUNK_RELOAD_STORAGE_KEY, CHUNK_RELOAD_WINDOW_MS } from '../../lib/client-constants.js';
import { gotoHydrated, trackDocumentRequests } from './fixtures.js';

// docs/client-behaviour.md: a lazy chunk that fails to load reloads the page, at most once per 10 s per path,
// remembered in sessionStorage under 'hitscope:chunk-reload'.

const SPONSOR_CHUNK = '**/assets/SponsorPage-*.js';

const readLog = (page: Page) =>
  page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '{}') as Record<string, number>, CHUNK_RELOAD_STORAGE_KEY);

/** Moves the remembered reload of `path` back beyond the window instead of waiting 10 s. */
const ageReloadLog = (page: Page, path: string) =>
  page.evaluate(({ key, path, at }) => sessionStorage.setItem(key, JSON.stringify({ [path]: at })), {
    key: CHUNK_RELOAD_STORAGE_KEY,
    path,
    at: Date.now() - CHUNK_RELOAD_WINDOW_MS - 1_000,
  });

async function blockSponsorChunk(page: Page) {
  const blocked = { count: 0 };
  await page.route(SPONSOR_CHUNK, (route) => {
    blocked.count += 1;
    return route.abort('failed');
  });
  return blocked;
}

/**
 * Clicks the header's Sponsor link without moving the mouse: a hover would preload the chunk first
 * (see the last test), and these tests are about the navigation itself.
 */
const clickSponsor = (page: Page) =>
  page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sponsor' }).dispatchEvent('click');

test.describe('chunk-reload guard', () => {
  test('a page whose chunk fails while it loads reloads once, not again within 10 s, and again after', async ({ page }) => {
    const blocked = await blockSponsorChunk(page);
    const documents = trackDocumentRequests(page);

    const before = Date.now();
    await page.goto('/sponsor');
    // The hydration needs the chunk: it fails, and the page reloads itself exactly once…
    await expect.poll(() => documents.count('/sponsor')).toBe(2);
    await page.waitForLoadState('load');
    // …the reloaded page fails the same way and stays put: no loop.
    await page.waitForTimeout(3_000);
    expect(documents.count('/sponsor')).toBe(2);
    expect(blocked.count).toBeGreaterThanOrEqual(2);
    await expect(page).toHaveURL('/sponsor');
    // Its code cannot load: the error screen replaces server HTML that would look alive but never respond.
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
    const log = await readLog(page);
    expect(Object.keys(log)).toEqual(['/sponsor']);
    expect(log['/sponsor']).toBeGreaterThanOrEqual(before - 1_000);

    // After the window, a new failure reloads again (once).
    await ageReloadLog(page, '/sponsor');
    await page.goto('/sponsor');
    await expect.poll(() => documents.count('/sponsor')).toBe(4);
    await page.waitForLoadState('load');
    await page.waitForTimeout(2_000);
    expect(documents.count('/sponsor')).toBe(4);
    expect((await readLog(page))['/sponsor']).toBeGreaterThan(Date.now() - CHUNK_RELOAD_WINDOW_MS);

    // With the chunk back, the page hydrates and nothing reloads.
    await page.unroute(SPONSOR_CHUNK);
    await gotoHydrated(page, '/sponsor');
    await page.waitForTimeout(500);
    expect(documents.count('/sponsor')).toBe(5);
  });

  test('client-side navigation to a page whose chunk fails reloads that page once per 10 s', async ({ page }) => {
    // During a client-side navigation window.location still shows the page being left: the reload
    // must go to the navigation's target.
    test.setTimeout(60_000);
    const blocked = await blockSponsorChunk(page);
    const documents = trackDocumentRequests(page);

    // 1. From a hydrated home page, navigate client-side to /sponsor: its chunk fails → one full
    //    reload of /sponsor, whose own hydration then fails again without reloading a second time.
    await gotoHydrated(page, '/');
    expect(documents.count('/sponsor')).toBe(0);
    const before = Date.now();
    await clickSponsor(page);
    await expect.poll(() => documents.count('/sponsor')).toBe(1);
    await expect(page).toHaveURL('/sponsor');
    await page.waitForLoadState('load');
    await page.waitForTimeout(3_000);
    expect(documents.count('/sponsor')).toBe(1);
    expect(documents.count('/')).toBe(1);
    expect(blocked.count).toBeGreaterThanOrEqual(2);
    const log = await readLog(page);
    expect(Object.keys(log)).toEqual(['/sponsor']);
    expect(log['/sponsor']).toBeGreaterThanOrEqual(before - 1_000);

    // 2. Within the window the same failure does not reload: the error screen shows instead.
    await gotoHydrated(page, '/');
    await clickSponsor(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
    await page.waitForTimeout(1_000);
    expect(documents.count('/sponsor')).toBe(1);

    // 3. Once the window has passed, a new failure reloads again.
    await ageReloadLog(page, '/sponsor');
    await gotoHydrated(page, '/');
    await clickSponsor(page);
    await expect.poll(() => documents.count('/sponsor')).toBe(2);
    await page.waitForLoadState('load');
    await page.waitForTimeout(2_000);
    expect(documents.count('/sponsor')).toBe(2);

    // 4. With the chunk available again, the navigation just works.
    await page.unroute(SPONSOR_CHUNK);
    await gotoHydrated(page, '/');
    await clickSponsor(page);
    await expect(page).toHaveURL('/sponsor');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sponsor Hitscope');
    expect(documents.count('/sponsor')).toBe(2);
  });

  test('a failed preload (link hover) does not navigate away from the current page', async ({ page }) => {
    // A preload is a guess: when its chunk fails, nothing may reload or navigate.
    await blockSponsorChunk(page);
    const documents = trackDocumentRequests(page);
    await gotoHydrated(page, '/');
    const chunkRequested = page.waitForRequest((request) => request.url().includes('/assets/SponsorPage-'));
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sponsor' }).hover();
    await chunkRequested;
    // Give a (wrong) navigation every chance to start before concluding that none happens.
    await page
      .waitForRequest((request) => request.isNavigationRequest() && request.frame() === page.mainFrame(), { timeout: 5_000 })
      .catch(() => null);
    expect(documents.paths()).toEqual(['/']);
    await expect(page).toHaveURL('/');
  });
});
