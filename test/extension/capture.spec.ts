import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { VENDOR_KIND_LABELS, VENDOR_LABELS, type Vendor, type VendorKind } from '../../lib/tools/har/types.js';
import { VENDOR_KINDS } from '../../lib/tools/har/vendors.js';
import {
  expect,
  expectHits,
  type Extension,
  HOME_HIT_COUNT,
  HOME_CONTAINERS,
  HOME_ROWS,
  HOME_SECONDARY,
  inWorker,
  launchWithExtension,
  openPanel,
  openShop,
  SHOP,
  tabIdOf,
  test,
} from './fixtures.js';
import { HOME_HITS, MEASUREMENT_ID, SAMPLES } from './support/test-site.js';

/** Vendor → hits the home page sends (its own GA4 and Meta hits, and the real-world samples). */
function expectedVendors(): Map<string, number> {
  const counts = new Map<string, number>([
    ['ga4', 5],
    ['meta', 1],
    ['ua', 1],
  ]);
  for (const sample of SAMPLES) if (sample.expect.vendor) counts.set(sample.expect.vendor, (counts.get(sample.expect.vendor) ?? 0) + 1);
  return counts;
}

const filterEvent = (panel: Page, event: string) => panel.getByLabel('Event').selectOption(event);
const hitButton = (panel: Page, name: RegExp) =>
  panel.getByRole('list', { name: 'Hits and dataLayer pushes' }).getByRole('button', { name });
const detail = (panel: Page) => panel.locator('.panel__detail');

/** Stops the extension's service worker as Chrome does when it is idle (CDP, from an extension page). */
async function stopServiceWorker(extension: Extension, from: Page) {
  const cdp = await extension.context.newCDPSession(from);
  const versions = new Map<string, { runningStatus: string; scriptURL: string }>();
  cdp.on('ServiceWorker.workerVersionUpdated', (event) => {
    for (const version of event.versions) versions.set(version.versionId, version);
  });
  await cdp.send('ServiceWorker.enable');
  await expect.poll(() => [...versions.values()].some((version) => version.scriptURL.endsWith('/service-worker.js'))).toBe(true);
  const [versionId] = [...versions].find(
    ([, version]) => version.scriptURL.endsWith('/service-worker.js') && version.runningStatus === 'running',
  )!;
  await cdp.send('ServiceWorker.stopWorker', { versionId });
  await expect.poll(() => versions.get(versionId)?.runningStatus).toBe('stopped');
  await cdp.detach();
}

/**
 * Chrome's "Site access" for the extension, set as a person does on its details page (chrome://extensions,
 * whose private API Playwright can call): `ON_CLICK` withholds every site, `ON_ALL_SITES` grants them back.
 */
async function setSiteAccess(extension: Extension, hostAccess: 'ON_CLICK' | 'ON_ALL_SITES') {
  const settings = await extension.context.newPage();
  try {
    await settings.goto('chrome://extensions');
    await settings.evaluate(
      ([extensionId, access]) =>
        (
          chrome as unknown as {
            developerPrivate: { updateExtensionConfiguration(update: { extensionId: string; hostAccess: string }): Promise<void> };
          }
        ).developerPrivate.updateExtensionConfiguration({ extensionId, hostAccess: access }),
      [extension.id, hostAccess] as const,
    );
  } finally {
    await settings.close();
  }
}

test.describe('capture', () => {
  test('decodes every vendor, batched beacons and server-side GTM on the shop’s own domain, with the dataLayer and the consent timeline', async ({
    extension,
  }) => {
    const shop = await openShop(extension);
    await shop.click('#accept');
    const panel = await openPanel(extension, await tabIdOf(extension, SHOP));
    await expectHits(panel, HOME_HIT_COUNT + 1);
    await expect(panel.getByTestId('capture-counts')).toContainText('1 page load');
    // The filters' line counts as the header does: hits, and the other requests apart.
    await expect(panel.getByText(/^\d+ matching hits/)).toHaveText(
      `${HOME_HIT_COUNT + 1} matching hits · ${HOME_SECONDARY + HOME_CONTAINERS} other requests`,
    );

    // Every vendor the HAR analyser recognises, with as many hits as were sent.
    const vendors = [...expectedVendors()].map(
      ([vendor, count]) => `${VENDOR_LABELS[vendor as Vendor]} (${count + (vendor === 'ga4' ? 1 : 0)})`,
    );
    const options = (await panel.getByLabel('Vendor').locator('option').allTextContents()).slice(1);
    const kindChoices = options.filter((option) => option.startsWith('All '));
    expect(options.filter((option) => !kindChoices.includes(option)).sort()).toEqual(vendors.sort());
    expect(options.length - kindChoices.length).toBe(12);
    // Each kind of vendor has its "All …" choice, as in the web analyser, counting its vendors' rows.
    const kinds = new Map<VendorKind, number>();
    for (const [vendor, count] of expectedVendors()) {
      const kind = VENDOR_KINDS[vendor as Vendor];
      kinds.set(kind, (kinds.get(kind) ?? 0) + count + (vendor === 'ga4' ? 1 : 0));
    }
    expect(kindChoices.sort()).toEqual(
      [...kinds].map(([kind, count]) => `All ${VENDOR_KIND_LABELS[kind].toLowerCase()} (${count})`).sort(),
    );

    // One beacon, two events: each its own hit with its own parameters and items.
    await filterEvent(panel, 'view_item');
    await hitButton(panel, /view_item · batch 1\/2/).click();
    await expect(detail(panel).getByRole('heading', { name: 'view_item' })).toBeFocused();
    await expect(detail(panel).getByText('event 1 of 2 in one request')).toBeVisible();
    await expect(
      detail(panel)
        .getByRole('row', { name: /Measurement ID/ })
        .getByRole('cell')
        .nth(2),
    ).toHaveText(MEASUREMENT_ID);
    await expect(
      detail(panel)
        .getByRole('row', { name: /item_name/ })
        .getByRole('cell')
        .last(),
    ).toHaveText('Running shoe');
    await expect(detail(panel).getByText('POST · 204')).toBeVisible();
    await filterEvent(panel, 'scroll');
    await hitButton(panel, /scroll · batch 2\/2/).click();
    await expect(
      detail(panel)
        .getByRole('row', { name: /percent_scrolled/ })
        .getByRole('cell')
        .last(),
    ).toHaveText('90');

    // Server-side GTM on the shop's own domain (fetch keepalive), and a server container on a custom path.
    await filterEvent(panel, 'sgtm_page_view');
    await hitButton(panel, /sgtm_page_view/).click();
    await expect(detail(panel).getByText('Google Analytics 4', { exact: false }).first()).toBeVisible();
    await detail(panel).getByText('Raw request').click();
    await expect(detail(panel).getByText(HOME_HITS.sgtm)).toBeVisible();
    await panel.getByRole('button', { name: 'Clear filters' }).click();
    await panel.getByLabel('Search').fill('x7k2p');
    await expect(panel.getByText('1 matching hit')).toBeVisible();
    await expect(hitButton(panel, /Google Analytics 4/)).toHaveCount(1);

    // A pixel's JSON body decoded into parameters (TikTok, sent as a beacon).
    await panel.getByLabel('Search').fill('');
    await panel.getByLabel('Vendor').selectOption('tiktok');
    await expect(panel.getByText('2 matching hits')).toBeVisible();
    await hitButton(panel, /AddToCart/)
      .first()
      .click();
    await expect(detail(panel).getByRole('row', { name: /context\.pixel\.code/ })).toBeVisible();

    // The dataLayer, in the same list: gtag calls and pushes with the script that made them.
    await panel.getByRole('button', { name: 'Clear filters' }).click();
    await panel.getByLabel('Search').fill('page_ready');
    const push = panel.getByRole('button', { name: /dataLayer page_ready/ });
    await push.click();
    await expect(detail(panel).getByRole('heading', { name: 'page_ready' })).toBeVisible();
    await expect(detail(panel).locator('.push-detail__value')).toContainText('"page_type": "home"');
    await expect(detail(panel).getByText(`${SHOP}/`, { exact: true }).first()).toBeVisible();
    await panel.getByLabel('Search').fill('');
    await filterEvent(panel, 'gtag consent default');
    await expect(panel.getByRole('button', { name: /consent gtag consent default/ })).toBeVisible();

    // The consent timeline: the default, the hits under it, the update, the hit after it.
    await panel.getByRole('radio', { name: 'Consent' }).click();
    const table = panel.getByRole('table');
    const row = (name: RegExp) => table.getByRole('row', { name });
    await expect(row(/consent default wait 500 ms/).getByRole('cell')).toHaveText([/\d\d:\d\d/, 'denied', 'denied', 'denied', 'denied'], {
      useInnerText: true,
    });
    await expect(row(/consent update/).getByRole('cell')).toHaveText([/\d\d:\d\d/, 'granted', 'granted', 'granted', 'granted'], {
      useInnerText: true,
    });
    await expect(row(/early_ping no gcs\/gcd/)).toHaveCount(1);
    await expect(row(/consent_granted_view/).getByRole('cell')).toHaveText([/\d\d:\d\d/, 'granted', 'granted', 'granted', 'granted'], {
      useInnerText: true,
    });
    await row(/consent_granted_view/)
      .getByRole('button')
      .click();
    await expect(detail(panel).getByRole('heading', { name: 'consent_granted_view' })).toBeFocused();

    // Free tier: validation and export say what a licence adds.
    await panel.getByRole('radio', { name: /^Warnings/ }).click();
    await expect(panel.getByText('Validation comes with a Hitscope for Browsers licence.')).toBeVisible();
    await expect(panel.getByRole('button', { name: 'HAR' })).toBeDisabled();
    await expect(panel.getByRole('button', { name: 'CSV' })).toBeDisabled();
  });

  test('keeps the capture across a reload, a navigation and a service-worker stop, grouped by page load; Clear empties it', async ({
    extension,
  }) => {
    const shop = await openShop(extension);
    const panel = await openPanel(extension, await tabIdOf(extension, SHOP));
    await expectHits(panel, HOME_HIT_COUNT);

    await shop.reload();
    await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
    await expectHits(panel, 2 * HOME_HIT_COUNT);
    await shop.click('#checkout');
    await expect(shop.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    await expectHits(panel, 2 * HOME_HIT_COUNT + 1);
    await expect(panel.getByTestId('capture-counts')).toContainText('3 page loads');

    await panel.getByLabel('Search').fill('T-1001');
    await expect(panel.getByText('1 matching hit')).toBeVisible();
    await expect(panel.getByText('Page load 1 · typed')).toBeVisible();
    await expect(panel.getByText('Page load 2 · reload')).toBeVisible();
    await expect(panel.getByText('Page load 3 · link')).toBeVisible();
    await hitButton(panel, /#\d+ purchase/).click();
    await expect(
      detail(panel)
        .getByRole('row', { name: /transaction_id/ })
        .getByRole('cell')
        .last(),
    ).toHaveText('T-1001');

    // Chrome stops an idle worker; the capture is in IndexedDB, and the next request wakes a new one.
    await stopServiceWorker(extension, panel);
    // A new load of the home page, not Back: on a history navigation Chromium may serve the page's
    // pixel images from its memory cache, so they never reach the network (the test site's collector
    // saw no request) and there is nothing to capture; the count would depend on that cache.
    await shop.goto(`${SHOP}/`);
    await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
    await shop.click('#more');
    await expectHits(panel, 3 * HOME_HIT_COUNT + 2);
    await panel.reload();
    await expectHits(panel, 3 * HOME_HIT_COUNT + 2);
    await expect(panel.getByTestId('capture-counts')).toContainText('4 page loads');

    await panel.getByRole('button', { name: 'Clear' }).click();
    await expect(panel.getByRole('status').filter({ hasText: 'Capture cleared' })).toBeVisible();
    await expect(panel.getByTestId('capture-empty')).toBeVisible();
    await shop.click('#more');
    await expectHits(panel, 1);
  });

  test('a site the person withheld: the panel says it is not readable and captures nothing there; allowed again, the next load is captured', async ({
    extension,
  }) => {
    const shop = await openShop(extension);
    const tabId = await tabIdOf(extension, SHOP);
    const panel = await openPanel(extension, tabId);
    await expectHits(panel, HOME_HIT_COUNT);
    await panel.getByRole('button', { name: 'Clear' }).click();
    await expect(panel.getByTestId('capture-empty')).toBeVisible();

    await setSiteAccess(extension, 'ON_CLICK');
    await shop.reload();
    await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
    const notice = panel.getByRole('alert').filter({ hasText: 'Hitscope is not allowed to read https://www.shop.example' });
    await expect(notice).toBeVisible();
    await expect(notice.getByRole('button', { name: 'Allow on this site' })).toBeVisible();
    await expect(panel.getByTestId('capture-counts')).toContainText(/^0 hits · 0 pushes/);
    await expect(panel.getByTestId('capture-empty')).toContainText('Allow Hitscope on this site (above), then reload the page');

    await setSiteAccess(extension, 'ON_ALL_SITES');
    await expect(notice).toHaveCount(0);
    await shop.reload();
    await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
    await expectHits(panel, HOME_HIT_COUNT);
  });

  test('bounds a busy tab’s capture and says how many old hits were dropped', async ({ extension }) => {
    await inWorker(
      extension.worker,
      (limit) => {
        (globalThis as unknown as { hitscope: { limits: { hitsPerTab: number } } }).hitscope.limits.hitsPerTab = limit;
      },
      HOME_ROWS + 5,
    );
    const shop = await openShop(extension);
    const panel = await openPanel(extension, await tabIdOf(extension, SHOP));
    await expectHits(panel, HOME_HIT_COUNT);
    await shop.reload();
    await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
    // Past the limit, the oldest tenth goes: the newest hits stay, the notice counts the others.
    await expect(panel.getByTestId('dropped-notice')).toContainText(/older hits were dropped to keep memory bounded/);
    const number = async (testId: string, pattern: RegExp) =>
      Number(pattern.exec((await panel.getByTestId(testId).textContent()) ?? '')?.[1]?.replace(/,/g, ''));
    // The bound and the notice count every decoded row (hits, secondary requests, container loads).
    const rows = async () =>
      (await number('capture-counts', /^([\d,]+) hits/)) + ((await number('capture-counts', / ([\d,]+) other requests? /)) || 0);
    await expect.poll(async () => (await rows()) + (await number('dropped-notice', /^([\d,]+) older/))).toBe(2 * HOME_ROWS);
    expect(await rows()).toBeLessThanOrEqual(HOME_ROWS + 5);
  });

  test('a browser restart: a tab loading as the browser starts keeps every hit of its load, and the last session’s capture is gone', async ({
    site,
    baseURL,
  }) => {
    const profile = mkdtempSync(join(tmpdir(), 'hitscope-ext-restart-'));
    try {
      const before = await launchWithExtension(profile, site, { baseURL });
      await openShop(before);
      const panel = await openPanel(before, await tabIdOf(before, SHOP));
      await expectHits(panel, HOME_HIT_COUNT);
      await panel.close();
      await before.context.close();

      // The shop starts loading with the browser and sends its hits while the extension's worker
      // starts and decides what of the store to forget. (Chromium restoring the last session does the
      // same, but does not always save one before a test's close.) An installed extension is loaded
      // from the profile before any tab loads; one loaded with --load-extension, as here, is installed
      // again at each start, after the first tab has begun, and could not see its first requests: so
      // the shop's scripts, and their hits, come once the worker runs.
      const release = site.holdPages();
      const restartedAt = Date.now();
      const after = await launchWithExtension(profile, site, { baseURL, startPage: `${SHOP}/` }).finally(release);
      try {
        await after.starting;
        const shop = after.context.pages().find((page) => page.url().startsWith(SHOP))!;
        await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
        const tabId = await tabIdOf(after, SHOP);

        // What the store holds, read in the worker: this session's records only (a record's seq is
        // its time in microseconds), all of the shop’s tab, every decoded request of its load (a
        // record counts secondary requests and container loads among its hits; the panel sets them apart).
        const stored = () =>
          inWorker(
            after.worker,
            () =>
              new Promise<{ tabs: number[]; oldest: number; hits: number }>((resolve, reject) => {
                const open = indexedDB.open('hitscope-capture');
                open.onerror = () => reject(open.error);
                open.onsuccess = () => {
                  const all = open.result.transaction('records').objectStore('records').getAll();
                  all.onerror = () => reject(all.error);
                  all.onsuccess = () => {
                    const records = all.result as Array<{ tabId: number; seq: number; kind: string; hits?: number }>;
                    open.result.close();
                    resolve({
                      tabs: [...new Set(records.map((record) => record.tabId))],
                      oldest: Math.min(...records.map((record) => record.seq)),
                      hits: records.reduce((sum, record) => sum + (record.kind === 'request' ? (record.hits ?? 0) : 0), 0),
                    });
                  };
                };
              }),
            undefined,
          );
        await expect.poll(async () => (await stored()).hits, { timeout: 15_000 }).toBe(HOME_ROWS);
        const store = await stored();
        expect(store.tabs).toEqual([tabId]);
        expect(store.oldest).toBeGreaterThanOrEqual(restartedAt * 1000);

        const restoredPanel = await openPanel(after, tabId);
        await expectHits(restoredPanel, HOME_HIT_COUNT);
      } finally {
        await after.context.close();
      }
    } finally {
      rmSync(profile, { recursive: true, force: true });
    }
  });
});
