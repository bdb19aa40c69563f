import { expect, test } from '@playwright/test';
import { MAX_PRELOADS_IN_FLIGHT } from '../../lib/client-constants.js';
import { ROUTE_TABLE } from '../../lib/routes/route-table.js';
import { gotoHydrated } from './fixtures.js';

// docs/client-behaviour.md: link hover/visibility preloads route code and data, at most 5 preloads in flight.

test.describe('preloading', () => {
  // Short enough that the footer (whose links preload when visible) stays below the fold.
  test.use({ viewport: { width: 1280, height: 360 } });

  test("hovering a header link fetches that page's chunk before any click", async ({ page }) => {
    const chunkRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/assets/SponsorPage-')) chunkRequests.push(request.url());
    });
    await gotoHydrated(page, '/');
    await page.waitForLoadState('networkidle');
    expect(chunkRequests, 'nothing preloads /sponsor before the hover').toEqual([]);

    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sponsor' });
    await link.hover();
    await expect.poll(() => chunkRequests.length).toBe(1);
    await expect(page).toHaveURL('/'); // still no navigation

    // The click then uses the preloaded chunk: no second fetch.
    await link.click();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sponsor Hitscope');
    expect(chunkRequests).toHaveLength(1);
  });

  test(`never more than ${MAX_PRELOADS_IN_FLIGHT} preloads in flight, and every queued one runs`, async ({ page }) => {
    const chunkRequests = new Set<string>();
    page.on('request', (request) => {
      const match = /\/assets\/(\w+Page)-[\w-]+\.js$/.exec(new URL(request.url()).pathname);
      if (match) chunkRequests.add(match[1]);
    });
    await gotoHydrated(page, '/login');

    // Twelve different pages, none of them already preloaded or rendered here.
    const targets = ROUTE_TABLE.filter(
      (route) => route.page && !route.path.endsWith('/*') && !['/', '/login', '/sponsor', '/privacy-policy'].includes(route.path),
    ).slice(0, 12);
    expect(targets).toHaveLength(12);
    const peakBefore = await page.evaluate(() => window.__hitscope!.preloader.peakInFlight);
    expect(peakBefore).toBe(0);

    await page.evaluate(
      (paths) => {
        for (const path of paths) window.__hitscope!.preloader.preload(path);
      },
      targets.map((route) => route.path),
    );

    // Every page chunk is eventually requested: the queue keeps draining after the limit.
    const expected = targets.map((route) => route.page!.split('/').pop()!);
    await expect.poll(() => expected.filter((name) => !chunkRequests.has(name))).toEqual([]);
    await page.waitForLoadState('networkidle');
    const peak = await page.evaluate(() => window.__hitscope!.preloader.peakInFlight);
    expect(peak).toBeLessThanOrEqual(MAX_PRELOADS_IN_FLIGHT);
    // Twelve tasks queued at once fill the queue up to the limit.
    expect(peak).toBe(MAX_PRELOADS_IN_FLIGHT);
  });
});
