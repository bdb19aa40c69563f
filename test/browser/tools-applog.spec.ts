import { readFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp } from './fixtures.js';

const FIXTURES = join(process.cwd(), 'test/fixtures/applog');
const SHOTS = join(process.cwd(), 'test-results', 'screenshots');
const PATH = '/dashboard/tools/hitscope-for-apps';
const fixture = (name: string) => readFileSync(join(FIXTURES, name), 'utf8');

const stream = (page: Page) => page.getByRole('table', { name: 'Event stream' });
const rows = (page: Page) => stream(page).locator('tbody tr');
const details = (page: Page) => page.getByRole('complementary', { name: 'Entry details' });

async function open(page: Page) {
  await signUp(page.request, 'applog');
  await gotoHydrated(page, PATH);
  await expect(page.getByRole('heading', { name: 'App-log analyser' })).toBeVisible();
}

async function pasteAndAnalyse(page: Page, text: string) {
  await page.getByLabel('Paste logcat or iOS console output').fill(text);
  await page.getByRole('button', { name: 'Analyse', exact: true }).click();
}

test.describe('app-log analyser', () => {
  test('decodes a pasted Android logcat: params, items, an issue, one usage report', async ({ page }) => {
    const problems = collectPageProblems(page);
    await open(page);
    const usage = page.waitForRequest((request) => request.url().endsWith('/api/tools/usage') && request.method() === 'POST');
    await pasteAndAnalyse(page, fixture('android-logcat-threadtime.txt'));

    await expect(page.getByTestId('applog-platform')).toHaveText('Android (logcat)');
    await expect(page.getByText('detected automatically', { exact: false })).toBeVisible();
    expect((await usage).postDataJSON()).toEqual({ tool: 'applog' });
    await expect(page.getByText('Decoded 4 events, 4 issues.')).toBeVisible();
    await expect(rows(page)).toHaveCount(13);

    const purchase = rows(page).filter({ has: page.getByRole('button', { name: 'purchase', exact: true }) });
    await expect(purchase).toContainText('Checkout');
    await expect(purchase).toContainText('currency=EUR, value=59.98, transaction_id=T-1001, +1 more, 2 items');
    await purchase.getByRole('button', { name: 'purchase', exact: true }).click();
    const panel = details(page);
    await expect(panel.getByRole('heading', { name: 'purchase' })).toBeVisible();
    await expect(panel).toContainText('logged (FE) → logged (service) → recorded');
    const params = panel.getByRole('table', { name: 'Parameters' });
    await expect(params.getByRole('row', { name: /ga_screen_class _sc CheckoutFragment/ })).toBeVisible();
    await expect(params.getByRole('row', { name: /coupon .*SUMMER, SALE \{2024\}/ })).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Items (2)' })).toBeVisible();
    await expect(panel.getByRole('table', { name: 'Item 1' }).getByRole('row', { name: /item_name .*T-shirt, blue/ })).toBeVisible();
    await expect(panel.getByRole('table', { name: 'Item 2' }).getByRole('row', { name: /item_name .*Mug \{large\}/ })).toBeVisible();

    const promotion = rows(page).filter({ has: page.getByRole('button', { name: 'select_promotion' }) });
    await expect(promotion).toContainText('1 issue');
    const issues = page.getByRole('region', { name: /Issues \(4\)/ });
    await expect(issues).toContainText('param_value_too_long');
    await expect(issues).toContainText('Value of "promotion_name" is 130 characters long; the limit is 100');
    await expect(issues).toContainText('Firebase error 13: Event name is reserved');
    await issues.getByRole('button', { name: 'select_promotion' }).click();
    await expect(details(page).getByRole('heading', { name: 'select_promotion' })).toBeVisible();

    const userProperties = page.getByRole('region', { name: /User properties \(2\)/ });
    await expect(userProperties).toContainText('favorite_food');
    await expect(userProperties).toContainText('pizza');

    await mkdir(SHOTS, { recursive: true });
    await purchase.getByRole('button', { name: 'purchase', exact: true }).click();
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.screenshot({ path: join(SHOTS, `tools-applog-android-${scheme}.png`), fullPage: true, animations: 'disabled' });
    }
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(details(page).getByRole('heading', { name: 'purchase' })).toBeVisible();
    await page.screenshot({ path: join(SHOTS, 'tools-applog-android-phone-dark.png'), fullPage: true, animations: 'disabled' });
    await page
      .locator('.applog-main')
      .screenshot({ path: join(SHOTS, 'tools-applog-android-phone-stream-dark.png'), animations: 'disabled' });
    await page
      .locator('.applog-panels')
      .screenshot({ path: join(SHOTS, 'tools-applog-android-phone-panels-dark.png'), animations: 'disabled' });
    expect(problems.problems).toEqual([]);
  });

  test('drops an iOS console file, filters the stream and exports JSON', async ({ page }) => {
    const problems = collectPageProblems(page);
    await open(page);
    const text = fixture('ios-console-xcode.txt');
    const dataTransfer = await page.evaluateHandle((content) => {
      const transfer = new DataTransfer();
      transfer.items.add(new File([content], 'ios-console-xcode.txt', { type: 'text/plain' }));
      return transfer;
    }, text);
    await page.getByTestId('applog-drop-zone').dispatchEvent('drop', { dataTransfer });

    await expect(page.getByTestId('applog-platform')).toHaveText('iOS (console)');
    await expect(page.getByText('ios-console-xcode.txt', { exact: false }).first()).toBeVisible();
    await expect(rows(page)).toHaveCount(11);

    await page.getByLabel('Kind').selectOption('user_property');
    await expect(rows(page)).toHaveCount(2);
    await expect(rows(page).nth(0)).toContainText('ga_session_id');
    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Event name').selectOption('purchase');
    await expect(rows(page)).toHaveCount(1);
    await rows(page).getByRole('button', { name: 'purchase' }).click();
    await expect(
      details(page)
        .getByRole('table', { name: 'Item 2' })
        .getByRole('row', { name: /item_name .*Mug \(large\) "classic"/ }),
    ).toBeVisible();
    await page.getByLabel('Event name').selectOption('');
    await page.getByLabel('Only entries with issues').check();
    await expect(rows(page)).toHaveCount(2);
    await expect(stream(page)).toContainText('share_recipe_with_friends_via_messages_app');
    await page.getByLabel('Only entries with issues').uncheck();
    await page.getByLabel('Search').fill('R-42');
    await expect(rows(page)).toHaveCount(1);
    await page.getByLabel('Search').fill('nothing-matches-this');
    await expect(page.getByText('No entries match')).toBeVisible();
    await page.getByLabel('Search').fill('');

    const downloading = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export JSON' }).click();
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/^applog-ios-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d\.json$/);
    const exported = JSON.parse(await readFile(await download.path(), 'utf8'));
    expect(exported).toMatchObject({
      format: 'hitscope.applog',
      version: 1,
      platform: 'ios',
      source: 'ios-console-xcode.txt',
      lines: { total: 82 },
    });
    expect(exported.entries).toHaveLength(11);
    const purchase = exported.entries.find((entry: { name: string }) => entry.name === 'purchase');
    expect(purchase.items[0]).toContainEqual({ name: 'item_name', shortName: null, value: 'Blue T-shirt; size M' });
    expect(purchase.params).toContainEqual({ name: 'ga_screen_class', shortName: '_sc', value: 'CartViewController' });
    expect(exported.userProperties.map((property: { name: string }) => property.name)).toEqual(['ga_session_id', 'favorite_food']);
    await expect(page.getByText(/^Exported applog-ios-/)).toBeVisible();

    // The override: the same file read as Android finds no Firebase line.
    await page.getByRole('button', { name: 'Analyse as Android (logcat)' }).click();
    await expect(page.getByRole('heading', { name: 'No Firebase Analytics lines found' })).toBeVisible();
    await expect(page.getByLabel('Platform')).toHaveValue('android');
    expect(problems.problems).toEqual([]);
  });

  test('real logs: consent-state changes on the timeline, the short-exposure note, one event for iOS 10.x', async ({ page }) => {
    const problems = collectPageProblems(page);
    await open(page);
    await pasteAndAnalyse(page, `${fixture('real-android-consent.txt')}${fixture('real-android-screen-exposure.txt')}`);
    await expect(rows(page)).toHaveCount(4);
    const storage = rows(page).filter({ has: page.getByRole('button', { name: 'Storage consent' }) });
    await expect(storage).toContainText('Consent');
    await expect(storage).toContainText('ad_storage denied, analytics_storage denied');
    await storage.getByRole('button', { name: 'Storage consent' }).click();
    await expect(details(page).getByRole('table', { name: 'Consent state' }).getByRole('row', { name: 'source MANIFEST' })).toBeVisible();
    await page.getByLabel('Kind').selectOption('consent');
    await expect(rows(page)).toHaveCount(2);
    await page.getByLabel('Kind').selectOption('');
    await rows(page).getByRole('button', { name: 'Engagement not sent (screen shown < 1 s)' }).click();
    await expect(details(page).getByRole('note')).toContainText('Not an error: the SDK sends user_engagement (_e) only once a screen');

    await pasteAndAnalyse(page, fixture('real-ios-10x-marking-after-logged.txt'));
    await expect(page.getByTestId('applog-platform')).toHaveText('iOS (console)');
    await expect(rows(page)).toHaveCount(3);
    await rows(page).getByRole('button', { name: 'LoadStart' }).click();
    await expect(details(page)).toContainText('marked debug → logged → marked real-time');
    await expect(details(page)).toContainText("origin: app (the app's own code)");
    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('labels are separated and counts agree with their nouns', async ({ page }) => {
    await open(page);
    await pasteAndAnalyse(page, fixture('android-logcat-threadtime.txt'));
    const promotion = rows(page).filter({ has: page.getByRole('button', { name: 'select_promotion' }) });
    // The entry cell reads "Event select_promotion 1 issue", not "select_promotion1 issue".
    await expect(promotion.getByRole('cell').nth(2)).toHaveText('Event select_promotion 1 issue');

    // One Firebase line: one line, one event, no issue.
    await page.getByRole('button', { name: 'Analyse', exact: true }).isEnabled();
    await pasteAndAnalyse(
      page,
      '05-01 10:00:01.210  1234  1260 V FA      : Logging event (FE): login(_l), Bundle[{ga_event_origin(_o)=app, method=email}]',
    );
    await expect(page.getByText('Decoded 1 event, 0 issues.')).toBeVisible();
    await expect(page.getByText(/· Pasted text · 1 line \(1 from Firebase\) in [\d.]+ s$/)).toBeVisible();
    await expect(details(page).getByRole('heading', { name: 'login' })).toBeVisible();
    await expect(details(page).locator('.applog-details__kind')).toHaveText("Event origin: app (the app's own code)");
  });

  test('says so when a log has no Firebase lines, with copyable commands (file picked with the keyboard)', async ({ page }) => {
    await open(page);
    await expect(page.locator('h1')).toHaveCount(1);
    const choosing = page.waitForEvent('filechooser');
    await page.getByRole('button', { name: 'Choose a file…' }).focus();
    await page.keyboard.press('Enter');
    await (
      await choosing
    ).setFiles({
      name: 'noise.log',
      mimeType: 'text/plain',
      buffer: Buffer.from(
        '05-01 10:00:00.100  1234  1234 I ActivityManager: Start proc\n05-01 10:00:01.002  1234  1234 D OpenGLRenderer: Swap behavior 1\n',
      ),
    });
    const empty = page.getByRole('status').filter({ has: page.getByRole('heading', { name: 'No Firebase Analytics lines found' }) });
    await expect(empty).toBeVisible();
    await expect(empty).toContainText('noise.log has 2 lines');
    await expect(empty).toContainText('adb shell setprop log.tag.FA VERBOSE');
    await expect(empty.getByRole('button', { name: 'Copy: enable FA-SVC verbose logging' })).toBeVisible();
    await expect(empty.getByRole('button', { name: 'Copy: Xcode launch argument -FIRAnalyticsDebugEnabled' })).toBeVisible();
    await expect(page.getByText('No Firebase Analytics lines found in this log.')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Hitscope for Apps — downloads & licence' })).toBeVisible();
    await mkdir(SHOTS, { recursive: true });
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await page.screenshot({ path: join(SHOTS, `tools-applog-empty-${scheme}.png`), fullPage: true, animations: 'disabled' });
    }
  });
});

/** A logcat of about `megabytes` MB: the Android fixture, then nine lines of noise per Firebase event. */
async function writeBigLogcat(path: string, megabytes: number): Promise<string> {
  const head = fixture('android-logcat-threadtime.txt');
  const noise =
    '05-01 10:00:02.500  1234  1234 I Choreographer: Skipped 31 frames!  The application may be doing too much work on its main thread.\n';
  const event =
    '05-01 10:00:06.000  1234  1260 V FA      : Logging event (FE): add_to_cart, Bundle[{ga_event_origin(_o)=app, currency=EUR, value=9.99, items=[Bundle[{item_id=SKU_1, price=9.99}]]}]\n';
  const block = noise.repeat(9) + event;
  // From a file on disk: a Buffer would be decoded inside the page, itself a long task.
  await writeFile(path, head + block.repeat(Math.ceil((megabytes * 1024 * 1024) / block.length)));
  return path;
}

interface Measure {
  longest: number;
  longTasks: number;
  started: number;
  totalMs: number;
  progressValues: number[];
  linesShown: boolean;
  finished: boolean;
}

test.describe('app-log analyser with a large file', () => {
  test('analyses a 20 MB logcat in a worker: progress, no long main-thread task, then the stream', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    const bigFile = await writeBigLogcat(testInfo.outputPath('big-logcat.txt'), 20);
    await open(page);
    const usage: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/tools/usage') && request.method() === 'POST') usage.push(request.postDataJSON());
    });
    // Recorded inside the page, from the file input's change event until the results are rendered
    // and laid out. Waiting with waitForFunction rather than polling expects: their retries (and the
    // trace's DOM snapshots) run on the page's main thread too and would be measured as the page's.
    await page.evaluate(() => {
      const measure: Measure = { longest: 0, longTasks: 0, started: 0, totalMs: 0, progressValues: [], linesShown: false, finished: false };
      (window as unknown as { __applog: Measure }).__applog = measure;
      const record = (entries: PerformanceEntryList) => {
        for (const entry of entries) {
          measure.longTasks++;
          measure.longest = Math.max(measure.longest, entry.duration);
        }
      };
      const tasks = new PerformanceObserver((list) => record(list.getEntries()));
      tasks.observe({ type: 'longtask', buffered: false });
      document.addEventListener('change', () => (measure.started = performance.now()), { capture: true, once: true });
      const dom = new MutationObserver(() => {
        const bar = document.querySelector<HTMLProgressElement>('progress.applog-progress__bar');
        if (bar && !measure.progressValues.includes(bar.value)) measure.progressValues.push(bar.value);
        if (/[\d,]+ lines read/.test(document.querySelector('.applog-progress')?.textContent ?? '')) measure.linesShown = true;
        if (!document.querySelector('[data-testid="applog-platform"]')) return;
        dom.disconnect();
        // Two frames and a pause: rendering the results and their layout count too.
        requestAnimationFrame(() =>
          requestAnimationFrame(() => {
            measure.totalMs = performance.now() - measure.started;
            setTimeout(() => {
              record(tasks.takeRecords());
              tasks.disconnect();
              measure.finished = true;
            }, 300);
          }),
        );
      });
      dom.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true });
    });
    await page.getByLabel('Log file').setInputFiles(bigFile);
    await page.waitForFunction(() => (window as unknown as { __applog: Measure }).__applog.finished, null, {
      timeout: 90_000,
      polling: 250,
    });
    const measure = await page.evaluate(() => (window as unknown as { __applog: Measure }).__applog);
    console.log(
      `20 MB logcat: longest main-thread task ${Math.round(measure.longest)} ms (${measure.longTasks} over 50 ms), results shown after ${Math.round(measure.totalMs)} ms`,
    );
    expect(measure.progressValues.length, 'the progress bar was shown').toBeGreaterThan(0);
    expect(measure.linesShown, 'the worker reported lines read').toBe(true);
    // The analysis runs in a worker; what is left here (batches of entries, rendering 200 rows) is
    // far shorter. Generous for a loaded CI machine: the main-thread analysis took 0.1 to 1 s.
    expect(measure.longest).toBeLessThan(600);

    await expect(page.getByTestId('applog-platform')).toHaveText('Android (logcat)');
    await expect(page.getByText('Showing 200 of', { exact: false })).toBeVisible();
    await expect(page.getByText('154,241 lines (15,448 from Firebase)', { exact: false })).toBeVisible();
    expect(usage).toEqual([{ tool: 'applog' }]);
  });

  test('Cancel stops a running analysis: the worker is terminated, no result, no usage report', async ({ page }, testInfo) => {
    test.setTimeout(120_000);
    // Big enough to still be running when Cancel is clicked, even on a fast machine.
    const bigFile = await writeBigLogcat(testInfo.outputPath('bigger-logcat.txt'), 60);
    await open(page);
    const usage: unknown[] = [];
    page.on('request', (request) => {
      if (request.url().endsWith('/api/tools/usage') && request.method() === 'POST') usage.push(request.postDataJSON());
    });
    const starting = page.waitForEvent('worker');
    await page.getByLabel('Log file').setInputFiles(bigFile);
    const worker = await starting;
    const closed = new Promise<void>((resolve) => worker.once('close', () => resolve()));
    await expect(page.getByRole('progressbar', { name: 'Analysis progress' })).toBeVisible();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await closed;
    expect(page.workers()).toHaveLength(0);
    await expect(page.getByRole('progressbar', { name: 'Analysis progress' })).toHaveCount(0);
    await expect(page.getByText('Paste output or drop a file to see the event stream')).toBeVisible();
    // Long enough for a stray result or usage report to have arrived.
    await page.waitForTimeout(1_000);
    await expect(page.getByTestId('applog-platform')).toHaveCount(0);
    expect(usage).toEqual([]);
  });
});

test('at 1280 px the details panel shows ids and screen classes on one line', async ({ page }) => {
  await open(page);
  await pasteAndAnalyse(page, fixture('android-logcat-threadtime.txt'));
  await rows(page)
    .filter({ has: page.getByRole('button', { name: 'purchase', exact: true }) })
    .getByRole('button', { name: 'purchase', exact: true })
    .click();
  const params = details(page).getByRole('table', { name: 'Parameters' });
  // The short name sits with the name, not in a column of its own.
  await expect(params.getByRole('columnheader')).toHaveText(['Parameter', 'Value']);
  for (const [name, value] of [
    ['ga_screen_id', '-4524658624580936392'],
    ['ga_screen_class', 'CheckoutFragment'],
  ]) {
    const cell = params.getByRole('row', { name: new RegExp(`^${name} `) }).locator('.applog-params__value code');
    await expect(cell).toHaveText(value);
    // One line box: a value broken every few characters has one per fragment.
    expect(await cell.evaluate((code) => code.getClientRects().length), `${name} on one line`).toBe(1);
  }
});
