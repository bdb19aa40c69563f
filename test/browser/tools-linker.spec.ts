import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp } from './fixtures.js';

interface ReferenceCase {
  browser: { userAgent: string; timezoneOffset: number; language: string };
  time: number;
  pageCookies: Record<string, string>;
  linkerCookies: Record<string, string>;
  linker: string;
}
/** A link made by gtag.js's own code for a known browser and time (see test/fixtures/linker/README.md). */
const [reference] = (
  JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/linker/gtag-reference.json'), 'utf8')) as { cases: ReferenceCase[] }
).cases;
const URL_WITH_LINK = `https://shop.example.com/cart?step=2&_gl=${reference!.linker}#summary`;
const PATH = '/dashboard/tools/google-tag-linker';

/** A datetime-local value for `time` in the page's time zone. */
function localInput(page: Page, time: number): Promise<string> {
  return page.evaluate((at) => {
    const date = new Date(at);
    const pad = (value: number) => String(value).padStart(2, '0');
    return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  }, time);
}

test.describe('Google tag linker', () => {
  test('decodes a decorated URL into its cookies and counts the run', async ({ page }, testInfo) => {
    const problems = collectPageProblems(page);
    await signUp(page.request, 'linker');
    await gotoHydrated(page, PATH);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Google tag linker');
    await expect(page.getByRole('heading', { name: 'Nothing decoded yet' })).toBeVisible();

    await page.getByLabel('Link or _gl value').fill(URL_WITH_LINK);
    const counted = page.waitForResponse(
      (response) => response.url().endsWith('/api/tools/linker/decode') && response.request().method() === 'POST',
    );
    await page.getByRole('button', { name: 'Decode', exact: true }).click();
    expect((await counted).status()).toBe(200);

    await expect(page.getByTestId('linker-fingerprint')).toHaveText(reference!.linker.split('*')[1]!);
    const rows = page.getByTestId('linker-cookie');
    await expect(rows).toHaveCount(Object.keys(reference!.pageCookies).length);
    for (const [name, value] of Object.entries(reference!.pageCookies)) {
      await expect(page.getByRole('row').filter({ hasText: `${name}=${value}` })).toHaveCount(1);
    }
    await expect(page.getByRole('row', { name: /_ga_ABC123XYZ/ })).toContainText('G-ABC123XYZ');
    await expect(page.getByRole('button', { name: 'Copy _ga cookie value' })).toBeVisible();

    await page.screenshot({ path: testInfo.outputPath('linker-decode-light.png'), fullPage: true });
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('linker-decode-dark.png'), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: testInfo.outputPath('linker-decode-mobile-dark.png'), fullPage: true });

    await page.getByLabel('Link or _gl value').fill('https://shop.example.com/?_gl=1*abc*_ga*M!Q');
    await page.getByRole('button', { name: 'Decode', exact: true }).click();
    await expect(page.getByTestId('linker-error')).toContainText('The value of "_ga" is not valid base64');
    expect(problems.problems).toEqual([]);
  });

  test('recognises the server-side Ads cookie FPAU and the _up / _gs flags in real links', async ({ page }) => {
    const problems = collectPageProblems(page);
    await signUp(page.request, 'linker');
    await gotoHydrated(page, PATH);
    // A checkout link copied from a browser (test/fixtures/linker/real-world-links.json).
    await page
      .getByLabel('Link or _gl value')
      .fill(
        'https://pay.hotmart.com/E105156116F?sck=HOTMART_PRODUCT_PAGE&off=yfqvil0i&hotfeature=32&_gl=1*v4zddi*_gcl_au*MjAwNzIzMTY5NC4xNzc0NTcyNzI4*FPAU*MjAwNzIzMTY5NC4xNzc0NTcyNzI4*_ga*MTY2MjY4MjY5NS4xNzc0NTcyNzI4*_ga_GQH2V1F11Q*czE3NzQ5MTgxNDgkbzMkZzEkdDE3NzQ5MTk4NTgkajQwJGwwJGgxNDA1NDAyMzA5&bid=1774919860508',
      );
    await page.getByRole('button', { name: 'Decode', exact: true }).click();
    await expect(page.getByTestId('linker-cookie')).toHaveCount(4);
    await expect(page.getByRole('row').filter({ hasText: 'FPAU=1.1.2007231694.1774572728' })).toHaveCount(1);
    await expect(page.getByRole('row', { name: /FPAU/ })).toContainText('server-side Google Ads');

    await page
      .getByLabel('Link or _gl value')
      .fill(
        'https://www.ledproff.dk/led-paneler-60x30-cm/3116-60x30-led-panel-24w-hvid-kant-8720682000144.html?_gl=1*k4gk14*_up*MQ..*_gs*MQ..&gclid=Cj0KCQiA1czLBhDhARIsAIEc7ujcU2kLfnA',
      );
    await page.getByRole('button', { name: 'Decode', exact: true }).click();
    await expect(page.getByTestId('linker-cookie')).toHaveCount(2);
    await expect(page.getByRole('row', { name: /_up/ })).toContainText('Google tag flag (_up)');
    await expect(page.getByRole('row', { name: /_gs/ })).toContainText('Google tag flag (_gs)');
    expect(problems.problems).toEqual([]);
  });

  test("a cookie's key and label, and a verdict's badge and message, read as separate words", async ({ page }) => {
    await signUp(page.request, 'linker');
    await gotoHydrated(page, PATH);
    await page.getByLabel('Link or _gl value').fill(URL_WITH_LINK);
    await page.getByRole('button', { name: 'Decode', exact: true }).click();
    const ga = page
      .getByTestId('linker-cookie')
      .filter({ has: page.getByRole('rowheader', { name: /^_ga\b/ }) })
      .first();
    await expect(ga.getByRole('rowheader')).toHaveText('_ga GA4 client id');

    await page.getByRole('button', { name: 'Verify this link' }).click();
    const panel = page.getByRole('tabpanel');
    await panel.getByLabel('User agent').fill(reference!.browser.userAgent);
    await panel.getByLabel('Timezone offset (minutes)').fill(String(reference!.browser.timezoneOffset));
    await panel.getByLabel('Language').fill(reference!.browser.language);
    await panel.getByLabel('Time of the click').fill(await localInput(page, reference!.time + 60_000));
    await panel.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('linker-verdict').locator('.linker-verdict__title')).toHaveText(/^Valid Valid: generated 1 minute ago/);
  });

  test('verify tells valid from expired, in minutes, for a given browser and time', async ({ page }, testInfo) => {
    await signUp(page.request, 'linker');
    await gotoHydrated(page, PATH);
    await page.getByRole('tab', { name: 'Verify' }).click();
    const panel = page.getByRole('tabpanel');
    // The browser fields start out as this browser.
    await expect(panel.getByLabel('User agent')).toHaveValue(await page.evaluate(() => navigator.userAgent));

    await panel.getByLabel('Link or _gl value').fill(URL_WITH_LINK);
    await panel.getByLabel('User agent').fill(reference!.browser.userAgent);
    await panel.getByLabel('Timezone offset (minutes)').fill(String(reference!.browser.timezoneOffset));
    await panel.getByLabel('Language').fill(reference!.browser.language);
    await panel.getByLabel('Time of the click').fill(await localInput(page, reference!.time + 60_000));
    await panel.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('linker-verdict')).toContainText('Valid');
    await expect(page.getByTestId('linker-verdict')).toContainText('generated 1 minute ago, expires in');
    await page.screenshot({ path: testInfo.outputPath('linker-verify-light.png'), fullPage: true });

    await panel.getByLabel('Time of the click').fill(await localInput(page, reference!.time + 40 * 60_000));
    await panel.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('linker-verdict')).toContainText('Expired 37 minutes ago');

    await panel.getByLabel('Language').fill('en-US');
    await panel.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('linker-verdict')).toContainText('Does not match this browser');

    await panel.getByLabel('Timezone offset (minutes)').fill('abc');
    await panel.getByRole('button', { name: 'Verify' }).click();
    await expect(panel.getByText('Whole minutes between -840 and 840')).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('linker-verify-dark.png'), fullPage: true });
  });

  test('encodes cookies into a decorated URL that decodes back, with the keyboard', async ({ page }, testInfo) => {
    await signUp(page.request, 'linker');
    await gotoHydrated(page, PATH);
    // Arrow keys move between tabs.
    await page.getByRole('tab', { name: 'Decode' }).focus();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    await expect(page.getByRole('tab', { name: 'Encode' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('tab', { name: 'Encode' })).toBeFocused();

    const panel = page.getByRole('tabpanel');
    await expect(panel.getByTestId('linker-cookie-row')).toHaveCount(2);
    await panel
      .getByRole('button', { name: /^Remove cookie/ })
      .first()
      .click();
    await panel
      .getByRole('button', { name: /^Remove cookie/ })
      .first()
      .click();
    await expect(panel.getByText('No cookies yet')).toBeVisible();

    await panel.getByRole('button', { name: '+ _ga', exact: true }).click();
    await panel.getByLabel('Value 1').fill('GA1.1.1480923751.1763647200');
    await panel.getByRole('button', { name: '+ _gcl_au' }).click();
    await panel.getByRole('button', { name: 'Add cookie' }).click();
    await panel.getByLabel('Name 3').fill('_gcl_aw');
    await panel.getByLabel('Value 3').fill('GCL.1763647300.Cj0KCQiA-test');
    await panel.getByLabel('URL to decorate (optional)').fill('https://checkout.example.net/pay?order=7#review');

    const counted = page.waitForResponse((response) => response.url().endsWith('/api/tools/linker/encode'));
    await panel.getByRole('button', { name: 'Generate' }).click();
    expect((await counted).status()).toBe(200);
    const value = await page.getByTestId('linker-encoded-value').textContent();
    expect(value).toMatch(/^1\*[0-9a-z]+\*_ga\*MTQ4MDkyMzc1MS4xNzYzNjQ3MjAw\*_gcl_au\*/);
    await expect(page.getByTestId('linker-encoded-url')).toHaveText(`https://checkout.example.net/pay?order=7&_gl=${value}#review`);
    await page.screenshot({ path: testInfo.outputPath('linker-encode-light.png'), fullPage: true });

    await page.getByRole('button', { name: 'Decode it' }).click();
    await expect(page.getByRole('tab', { name: 'Decode' })).toHaveAttribute('aria-selected', 'true');
    await expect(page.getByRole('row').filter({ hasText: '_ga=GA1.1.1480923751.1763647200' })).toHaveCount(1);
    await expect(page.getByRole('row').filter({ hasText: '_gcl_aw=GCL.1763647300.Cj0KCQiA-test' })).toHaveCount(1);

    // A link made here, now, verifies as valid for this browser.
    await page.getByRole('button', { name: 'Verify this link' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Now' }).click();
    await page.getByRole('tabpanel').getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByTestId('linker-verdict')).toContainText('Valid');

    await page.getByRole('tab', { name: 'Encode' }).click();
    await page.getByRole('tabpanel').getByLabel('Name 1').fill('bad*name');
    await page.getByRole('tabpanel').getByRole('button', { name: 'Generate' }).click();
    await expect(page.getByRole('tabpanel').getByText('Cookie name "bad*name" must be')).toBeVisible();
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.screenshot({ path: testInfo.outputPath('linker-encode-dark.png'), fullPage: true });
  });
});
