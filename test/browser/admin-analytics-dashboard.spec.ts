import { readFileSync } from 'node:fs';
import { expect, type APIRequestContext, type Page, test } from '@playwright/test';
import { gotoHydrated, signInAsAdmin } from './fixtures.js';

/**
 * First-party analytics in the browser. Playwright's Chromium reports `navigator.webdriver`, so its
 * own page views are (rightly) dropped as automated: the tracker is checked by observing its
 * beacons, and the dashboard by page views posted over HTTP with real browsers' user agents.
 */

const UAS = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
  'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Safari/605.1.15',
];

async function postBeacon(request: APIRequestContext, baseURL: string, ua: string, body: Record<string, unknown>) {
  const response = await request.post('/api/e', {
    headers: { 'content-type': 'text/plain', origin: baseURL, 'sec-fetch-site': 'same-origin', 'user-agent': ua },
    data: JSON.stringify(body),
  });
  expect(response.status()).toBe(202);
}

async function seed(request: APIRequestContext, baseURL: string) {
  for (const [index, ua] of UAS.entries()) {
    await postBeacon(request, baseURL, `${ua} seed-${test.info().workerIndex}-${index}`, {
      p: '/browser-seeded',
      r: index % 2 ? 'https://news.ycombinator.com/item' : undefined,
      us: index === 0 ? 'newsletter' : undefined,
    });
    await postBeacon(request, baseURL, `${ua} seed-${test.info().workerIndex}-${index}`, { p: '/sponsor' });
  }
  await postBeacon(request, baseURL, 'curl/8.5.0', { p: '/from-a-script' });
}

const dashboard = (page: Page) => page.locator('.analytics');
const kpi = (page: Page, name: string) => page.locator(`[data-kpi="${name}"] .analytics-kpi__value`);

test.describe('first-party analytics', () => {
  test('the tracker sends one beacon on load and one per client navigation, without cookies', async ({ page }) => {
    const beacons: Array<{ body: Record<string, unknown>; cookie: string | undefined }> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/e') {
        beacons.push({ body: JSON.parse(request.postData() ?? '{}') as Record<string, unknown>, cookie: request.headers().cookie });
      }
    });
    await gotoHydrated(page, '/?utm_source=newsletter&utm_medium=email&utm_campaign=launch&other=x');
    await expect.poll(() => beacons.length).toBe(1);
    expect(beacons[0].body).toMatchObject({ p: '/', us: 'newsletter', um: 'email', uc: 'launch', wd: true });
    expect(JSON.stringify(beacons[0].body)).not.toContain('other');

    await page.getByRole('link', { name: 'Sponsor', exact: true }).first().click();
    await expect(page).toHaveURL(/\/sponsor$/);
    await expect.poll(() => beacons.length).toBe(2);
    expect(beacons[1].body).toMatchObject({ p: '/sponsor' });
    expect(beacons[1].body).not.toHaveProperty('r');
    expect(await page.evaluate(() => [localStorage.length, sessionStorage.length])).toEqual([0, 0]);
    await page.waitForTimeout(300);
    expect(beacons).toHaveLength(2);
  });

  test('the dashboard shows seeded page views with charts, tables, drops, realtime, and switches ranges through the URL', async ({
    page,
    baseURL,
  }) => {
    await seed(page.request, baseURL!);
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/admin/analytics?preset=7d');
    await expect(dashboard(page).getByRole('radio', { name: '7 days' })).toBeChecked();
    await expect(kpi(page, 'pageviews')).toHaveText(/^[1-9][\d,]*$/);
    expect(Number((await kpi(page, 'pageviews').textContent())!.replace(/,/g, ''))).toBeGreaterThanOrEqual(8);
    await expect(page.getByRole('figure', { name: /Page views per day \(UTC\)/ })).toBeVisible();
    await expect(page.locator('[data-dimension="page"]')).toContainText('/browser-seeded');
    await expect(page.locator('[data-dimension="referrer"]')).toContainText('news.ycombinator.com');
    await expect(page.locator('[data-dimension="channel"]')).toContainText('Social');
    await expect(page.locator('[data-dimension="drops"]')).toContainText('Bot or script user agent');
    await expect(page.locator('[data-realtime]')).toContainText(/\d+ visitors? in the last 5 minutes/);
    await expect(page.locator('[data-business]')).toContainText('Sign-ups');

    // The explanation of the summed uniques is one click away.
    await page.getByRole('button', { name: 'About daily unique visitors, summed' }).click();
    await expect(page.getByText(/counts three times/)).toBeVisible();

    // The chart switches metric; the numbers are also a table.
    await page.getByRole('radio', { name: 'Daily unique visitors' }).click();
    await expect(page.getByRole('radio', { name: 'Daily unique visitors' })).toBeChecked();
    await expect(page.getByRole('figure', { name: /Daily unique visitors per day/ })).toBeVisible();
    await page.getByText('Show the numbers as a table').click();
    await expect(page.locator('.analytics__table-alt table tbody tr')).toHaveCount(7);

    await dashboard(page).getByRole('radio', { name: 'Today' }).click();
    await expect(page).toHaveURL(/\?preset=today$/);
    await expect(page.locator('.analytics__table-alt table tbody tr')).toHaveCount(1);

    // Custom: validated in the page, then in the URL.
    await dashboard(page).getByRole('radio', { name: 'Custom' }).click();
    const custom = page.getByRole('form', { name: 'Custom date range' });
    await custom.getByLabel('From').fill('2026-01-10');
    await custom.getByLabel('To').fill('2026-01-05');
    await custom.getByRole('button', { name: 'Apply' }).click();
    await expect(custom.getByRole('alert')).toHaveText('The start date must not be after the end date.');
    await custom.getByLabel('To').fill('2026-01-20');
    await custom.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/\?from=2026-01-10&to=2026-01-20$/);
    await expect(page.getByText(/10 Jan – 20 Jan \(UTC\), compared with 30 Dec – 9 Jan/)).toBeVisible();

    // A link reproduces the view.
    await gotoHydrated(page, '/admin/analytics?from=2026-01-10&to=2026-01-20');
    await expect(page.getByRole('form', { name: 'Custom date range' }).getByLabel('From')).toHaveValue('2026-01-10');
  });

  test('exports the range as CSV', async ({ page, baseURL }) => {
    await seed(page.request, baseURL!);
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/admin/analytics?preset=30d');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
    expect(download.suggestedFilename()).toMatch(/^analytics-\d{4}-\d\d-\d\d-to-\d{4}-\d\d-\d\d\.csv$/);
    const text = readFileSync((await download.path())!, 'utf8');
    expect(text).toContain('"daily"');
    expect(text).toContain('"/browser-seeded"');
  });

  test('shows the empty state of a fresh install and an error state with retry', async ({ page }) => {
    await signInAsAdmin(page.request);
    const empty = await page.request.get('/api/admin/analytics?from=2020-01-01&to=2020-01-07');
    expect(empty.status()).toBe(200);
    await gotoHydrated(page, '/admin/analytics?from=2020-01-01&to=2020-01-07');
    await expect(
      page.getByRole('heading', { name: /No page views yet — the tracker starts counting as soon as someone visits/ }),
    ).toBeVisible();

    let fail = true;
    await page.route('**/api/admin/analytics?*', (route) =>
      fail
        ? route.fulfill({
            status: 503,
            contentType: 'application/json',
            body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable.' }),
          })
        : route.continue(),
    );
    // A first load has its data from the server's render; a range fetched in the browser can fail.
    await dashboard(page).getByRole('radio', { name: '90 days' }).click();
    await expect(page).toHaveURL(/\?preset=90d$/);
    const alert = dashboard(page).getByRole('alert').first();
    await expect(alert).toContainText('Analytics could not be loaded');
    fail = false;
    await alert.getByRole('button', { name: 'Try again' }).click();
    await expect(kpi(page, 'pageviews')).toBeVisible();
  });

  for (const { width, label } of [
    { width: 1280, label: 'desktop' },
    { width: 390, label: 'phone' },
  ]) {
    for (const scheme of ['light', 'dark'] as const) {
      test(`fits a ${label} in ${scheme} mode`, async ({ page, baseURL }) => {
        await seed(page.request, baseURL!);
        await page.setViewportSize({ width, height: 900 });
        await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
        await signInAsAdmin(page.request);
        await gotoHydrated(page, '/admin/analytics?preset=30d');
        await expect(kpi(page, 'pageviews')).toBeVisible();
        await expect(page.locator('[data-dimension="page"]')).toContainText('/browser-seeded');
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
        expect(overflow).toBeLessThanOrEqual(0);
        const colors = await kpi(page, 'pageviews').evaluate((element) => {
          const card = element.closest('.card')!;
          return [getComputedStyle(element).color, getComputedStyle(card).backgroundColor];
        });
        expect(colors[0]).not.toBe(colors[1]);
      });
    }
  }

  test('the overview card shows page views today and links to analytics', async ({ page, baseURL }) => {
    // The server keeps an overview for 30 s (the first one computed 5 s after it started), so
    // figures from before this test's seeding may show first: reloaded until they have it.
    test.setTimeout(90_000);
    await seed(page.request, baseURL!);
    await signInAsAdmin(page.request);
    const card = page.locator('[data-overview-card="page-views"]');
    await expect(async () => {
      await gotoHydrated(page, '/admin');
      await expect(card).toHaveAttribute('data-overview-state', 'ready', { timeout: 1000 });
      await expect(card.locator('.overview-figure__value')).toHaveText(/^[1-9][\d,]*$/, { timeout: 1000 });
    }).toPass({ timeout: 70_000, intervals: [2000, 5000] });
    await expect(card).toContainText(/unique visitors?/);
    await expect(card.getByRole('link', { name: /Open analytics/ })).toHaveAttribute('href', '/admin/analytics');
  });
});

test.describe('first-party analytics on a phone and for missing pages', () => {
  test('the "Page not found" screen marks its beacon, so the dashboard counts it apart from the top pages', async ({ page, baseURL }) => {
    const beacons: Array<Record<string, unknown>> = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/e') beacons.push(JSON.parse(request.postData() ?? '{}') as Record<string, unknown>);
    });
    await gotoHydrated(page, '/no-such-page-here');
    await expect.poll(() => beacons.length).toBe(1);
    expect(beacons[0]).toMatchObject({ p: '/no-such-page-here', nf: true });
    // A client navigation from there to a real page is a real page view again.
    await page.evaluate(() => void window.__hitscope!.router.navigate('/sponsor'));
    await expect.poll(() => beacons.length).toBe(2);
    expect(beacons[1]).toEqual(expect.objectContaining({ p: '/sponsor' }));
    expect(beacons[1]).not.toHaveProperty('nf');

    const ua = `${UAS[0]} notfound-${test.info().workerIndex}`;
    await postBeacon(page.request, baseURL!, ua, { p: '/wp-admin/setup-config.php', nf: true });
    await postBeacon(page.request, baseURL!, ua, { p: '/sponsor' });
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/admin/analytics?preset=today');
    await expect(page.locator('[data-dimension="notfound"]')).toContainText('/wp-admin/setup-config.php');
    await expect(page.locator('[data-dimension="notfound"]').getByRole('heading')).toHaveText('Not found (404)');
    await expect(page.locator('[data-dimension="page"]')).toContainText('/sponsor');
    await expect(page.locator('[data-dimension="page"]')).not.toContainText('/wp-admin/setup-config.php');
  });

  test('at 390 px the chart labels keep their size and the tables show every reason in full', async ({ page, baseURL }) => {
    await seed(page.request, baseURL!);
    await signInAsAdmin(page.request);
    await page.setViewportSize({ width: 390, height: 844 });
    await gotoHydrated(page, '/admin/analytics?preset=30d');
    const chart = page.getByRole('figure', { name: /Page views per day \(UTC\)/ });
    await expect(chart).toBeVisible();
    // 11px text draws about 13px tall; a 720-unit drawing shrunk into a phone card drew it at about 5px.
    const labels = await chart.locator('text.chart__axis').evaluateAll((texts) =>
      texts.map((text) => {
        const box = text.getBoundingClientRect();
        return { left: box.left, right: box.right, top: box.top, height: box.height };
      }),
    );
    expect(labels.length).toBeGreaterThan(2);
    for (const label of labels) expect(label.height).toBeGreaterThanOrEqual(10);
    // The day labels (the bottom row) do not run into each other.
    const bottom = Math.max(...labels.map((label) => label.top));
    const days = labels.filter((label) => label.top === bottom).sort((a, b) => a.left - b.left);
    for (let index = 1; index < days.length; index += 1) expect(days[index].left).toBeGreaterThan(days[index - 1].right);

    const reasons = page.locator('[data-dimension="drops"] .analytics-table__value');
    await expect(reasons.first()).toBeVisible();
    const clipped = await reasons.evaluateAll((cells) =>
      cells
        .filter((cell) => {
          const text = cell.querySelector('span')!;
          return (
            cell.scrollWidth > cell.clientWidth + 1 || text.scrollWidth > text.clientWidth + 1 || text.scrollHeight > text.clientHeight + 1
          );
        })
        .map((cell) => cell.textContent),
    );
    expect(clipped).toEqual([]);
    await expect(page.locator('[data-dimension="drops"]')).toContainText('Bot or script user agent');
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  });
});
