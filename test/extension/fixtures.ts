import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type BrowserContext, chromium, expect, type Page, test as base, type Worker } from '@playwright/test';
import { HOME_CONTAINERS, HOME_HIT_COUNT, HOME_ROWS, HOME_SECONDARY, SHOP, startTestSite, type TestSite } from './support/test-site.js';

/** The built extension (npm run build writes it; the suite never builds it itself). */
export const EXTENSION_DIR = join(process.cwd(), 'dist/companions/browser/chrome');

export interface Extension {
  context: BrowserContext;
  id: string;
  /** The service worker as Playwright first saw it: after a stop this handle hangs, so use {@link inWorker}. */
  worker: Worker;
  /** The navigation of `startPage`, when the browser was launched with one. */
  starting: Promise<unknown> | null;
}

/**
 * Runs `fn` in the extension's service worker, failing after `ms` instead of hanging (Playwright's
 * handle of a worker that was stopped never answers).
 */
export async function inWorker<T, A>(worker: Worker, fn: (arg: A) => T | Promise<T>, arg: A, ms = 5_000): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      worker.evaluate(fn as (arg: unknown) => T | Promise<T>, arg as unknown),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`The service worker did not answer within ${ms} ms`)), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Waits until the freshly installed extension's service worker listens. Playwright reports the
 * worker when its target appears, before its script has run: a page opened then would load before
 * the worker's listeners exist, and a browser delivers no event to listeners registered after it (a
 * just-installed extension has none on record yet). Under load that lost the first page load and
 * its first hit. The evaluation runs after the worker's top-level script; the extension API call
 * after it is a round trip through the browser, behind the listeners' registration.
 */
async function captureListening(worker: Worker): Promise<void> {
  await expect
    .poll(
      () =>
        inWorker(
          worker,
          async () => {
            const listening =
              chrome.webRequest.onBeforeRequest.hasListeners() &&
              chrome.webRequest.onCompleted.hasListeners() &&
              chrome.webNavigation.onCommitted.hasListeners() &&
              chrome.runtime.onMessage.hasListeners();
            await chrome.runtime.getPlatformInfo();
            return listening;
          },
          undefined,
          10_000,
        ),
      { message: 'the extension’s service worker registers its listeners', timeout: 20_000 },
    )
    .toBe(true);
}

/** The id of the (first) tab showing `url` (a page of the extension can ask; tabs.query with a URL needs host access, which it has). */
export async function tabIdOf(extension: Extension, url: string): Promise<number> {
  const page = await extension.context.newPage();
  try {
    await page.goto(`chrome-extension://${extension.id}/options.html`);
    const id = await page.evaluate(async (pattern) => (await chrome.tabs.query({ url: pattern }))[0]?.id, `${new URL(url).origin}/*`);
    if (typeof id !== 'number') throw new Error(`No tab shows ${url}`);
    return id;
  } finally {
    await page.close();
  }
}

/** The side panel's page for a tab, opened as a tab of its own (Playwright cannot drive the real side panel). */
export async function openPanel(
  extension: Extension,
  tabId: number,
  options: { width?: number; height?: number; colorScheme?: 'light' | 'dark' } = {},
) {
  const page = await extension.context.newPage();
  await page.setViewportSize({ width: options.width ?? 1280, height: options.height ?? 800 });
  if (options.colorScheme) await page.emulateMedia({ colorScheme: options.colorScheme });
  await page.goto(`chrome-extension://${extension.id}/sidepanel.html?tab=${tabId}`);
  await expect(page.getByRole('heading', { name: /Hitscope/ })).toBeVisible();
  return page;
}

/** Opens the shop's home page and waits until its tags have all been sent. */
export async function openShop(extension: Extension): Promise<Page> {
  const shop = await extension.context.newPage();
  await shop.goto(`${SHOP}/`);
  await expect(shop.locator('html[data-tags-sent]')).toBeAttached();
  return shop;
}

/** "N hits · …" in the panel's header. */
export const expectHits = (panel: Page, count: number) =>
  expect(panel.getByTestId('capture-counts')).toContainText(new RegExp(`^${count.toLocaleString('en-GB')} hits? ·`), { timeout: 15_000 });

export { HOME_CONTAINERS, HOME_HIT_COUNT, HOME_ROWS, HOME_SECONDARY, SHOP };

/**
 * Chromium with the built extension on `profile` (a folder kept between launches when a test
 * restarts the browser), once the extension's service worker listens.
 */
export async function launchWithExtension(
  profile: string,
  site: TestSite,
  options: { baseURL?: string; args?: string[]; startPage?: string } = {},
): Promise<Extension> {
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    // The Hitscope site of the suite (licences, the web HAR analyser, releases).
    baseURL: options.baseURL,
    ignoreHTTPSErrors: true,
    locale: 'en-GB',
    timezoneId: 'Europe/London',
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      `--disable-extensions-except=${EXTENSION_DIR}`,
      `--load-extension=${EXTENSION_DIR}`,
      site.resolverRule,
      ...(options.args ?? []),
    ],
  });
  // A page that starts loading with the browser, before the extension's worker is known to run.
  const starting = options.startPage ? (context.pages()[0] ?? (await context.newPage())).goto(options.startPage) : null;
  // Awaited by the caller; a launch that fails below must not leave it rejecting unhandled.
  starting?.catch(() => undefined);
  try {
    const worker = context.serviceWorkers()[0] ?? (await context.waitForEvent('serviceworker', { timeout: 15_000 }));
    await captureListening(worker);
    return { context, id: new URL(worker.url()).host, worker, starting };
  } catch (error) {
    await context.close();
    throw error;
  }
}

export const test = base.extend<{ extension: Extension; devtools: boolean }, { site: TestSite }>({
  /** Open DevTools for every tab (Chromium's --auto-open-devtools-for-tabs): the extension's DevTools page runs. */
  devtools: [false, { option: true }],
  site: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixtures a fixture needs from this pattern: none.
    async ({}, use) => {
      const site = await startTestSite();
      await use(site);
      await site.stop();
    },
    { scope: 'worker' },
  ],
  extension: async ({ site, baseURL, devtools }, use) => {
    // A fresh profile per test: no capture, licence or setting carries over.
    const profile = mkdtempSync(join(tmpdir(), 'hitscope-ext-profile-'));
    const extension = await launchWithExtension(profile, site, { baseURL, args: devtools ? ['--auto-open-devtools-for-tabs'] : [] });
    try {
      await use(extension);
    } finally {
      await extension.context.close();
      rmSync(profile, { recursive: true, force: true });
    }
  },
});
export { expect };
