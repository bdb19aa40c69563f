import { type Browser, type BrowserContextOptions, expect, type Page, test } from '@playwright/test';
import { BACKGROUND, cookieValue, csrfToken, gotoHydrated, signUp, waitForHydration } from './fixtures.js';

const COOKIE = 'hs_color_mode';

/**
 * Opens `path` with none of the app's JavaScript: every /assets/*.js request is aborted, so what
 * is on screen is the server's HTML and CSS alone, i.e. the first paint before any script could fix
 * it up. (A context with javaScriptEnabled: false would also do, but then nothing could read the
 * computed style; aborting the scripts keeps Playwright's own evaluation available.)
 */
async function openWithoutAppScripts(
  browser: Browser,
  path: string,
  options: BrowserContextOptions & { colorMode?: string },
): Promise<{ page: Page; html: string; close: () => Promise<void> }> {
  const { colorMode, ...contextOptions } = options;
  const context = await browser.newContext({ ...contextOptions, baseURL: test.info().project.use.baseURL });
  if (colorMode) {
    await context.addCookies([{ name: COOKIE, value: colorMode, url: test.info().project.use.baseURL! }]);
  }
  const blocked: string[] = [];
  await context.route('**/assets/*.js', (route) => {
    blocked.push(route.request().url());
    return route.abort('blockedbyclient');
  });
  const page = await context.newPage();
  const response = await page.goto(path);
  expect(response?.status()).toBe(200);
  const html = await response!.text();
  await page.waitForLoadState('load');
  // The app's entry script was requested and refused, and nothing hydrated.
  expect(blocked.some((url) => /\/assets\/index-[\w-]+\.js$/.test(url))).toBe(true);
  await expect(page.locator('html')).not.toHaveAttribute('data-hydrated', /.*/);
  return { page, html, close: () => context.close() };
}

const bodyBackground = (page: Page) => page.locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);

test.describe('colour mode without a flash', () => {
  test('cookie "dark" in a light browser: the server HTML and the first paint are already dark', async ({ browser }) => {
    const { page, html, close } = await openWithoutAppScripts(browser, '/', { colorScheme: 'light', colorMode: 'dark' });
    try {
      expect(html).toMatch(/<html[^>]*\sdata-theme="dark"/);
      expect(html).toMatch(/<html[^>]*\sdata-color-mode="dark"/);
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      expect(await bodyBackground(page)).toBe(BACKGROUND.dark);
    } finally {
      await close();
    }
  });

  test('cookie "light" in a dark browser: light from the first paint', async ({ browser }) => {
    const { page, html, close } = await openWithoutAppScripts(browser, '/login', { colorScheme: 'dark', colorMode: 'light' });
    try {
      expect(html).toMatch(/<html[^>]*\sdata-theme="light"/);
      expect(await bodyBackground(page)).toBe(BACKGROUND.light);
    } finally {
      await close();
    }
  });

  for (const colorMode of ['system', undefined]) {
    test(`${colorMode ? 'cookie "system"' : 'no cookie'}: the browser's colour scheme decides, without JavaScript`, async ({ browser }) => {
      for (const colorScheme of ['dark', 'light'] as const) {
        const { page, html, close } = await openWithoutAppScripts(browser, '/', { colorScheme, colorMode });
        try {
          expect(html).toMatch(/<html[^>]*\sdata-color-mode="system"/);
          expect(html).not.toMatch(/<html[^>]*\sdata-theme=/);
          expect(await bodyBackground(page), `colorScheme ${colorScheme}`).toBe(BACKGROUND[colorScheme]);
        } finally {
          await close();
        }
      }
    });
  }

  test('choosing "Dark" sets the cookie and the theme at once, and a reload keeps it', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await gotoHydrated(page, '/');
    expect(await bodyBackground(page)).toBe(BACKGROUND.light);
    const dark = page.getByRole('radio', { name: 'Dark' });
    await expect(dark).not.toBeChecked();

    await dark.click();

    await expect(dark).toBeChecked();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect.poll(() => cookieValue(page, COOKIE)).toBe('dark');
    await expect.poll(() => bodyBackground(page)).toBe(BACKGROUND.dark);

    const response = await page.reload();
    expect(await response!.text()).toMatch(/<html[^>]*\sdata-theme="dark"/);
    await waitForHydration(page);
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
    expect(await bodyBackground(page)).toBe(BACKGROUND.dark);

    // Back to "System": no data-theme, the (light) browser scheme applies again.
    await page.getByRole('radio', { name: 'System' }).click();
    await expect(page.locator('html')).not.toHaveAttribute('data-theme', /.*/);
    await expect.poll(() => cookieValue(page, COOKIE)).toBe('system');
    await expect.poll(() => bodyBackground(page)).toBe(BACKGROUND.light);
  });

  test('the switch is one keyboard stop whose arrow keys change the mode', async ({ page }) => {
    await page.emulateMedia({ colorScheme: 'light' });
    await gotoHydrated(page, '/login');
    const group = page.getByRole('group', { name: 'Colour mode' });
    await group.getByRole('radio', { name: 'System' }).focus();
    await page.keyboard.press('ArrowRight');
    await expect(group.getByRole('radio', { name: 'Light' })).toBeChecked();
    await expect(group.getByRole('radio', { name: 'Light' })).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(group.getByRole('radio', { name: 'Dark' })).toBeChecked();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect.poll(() => cookieValue(page, COOKIE)).toBe('dark');
  });

  test('the mode saved on the account comes along when signing in on another browser, server render included', async ({ browser }) => {
    const baseURL = test.info().project.use.baseURL!;
    // First browser: an account set to dark.
    const first = await browser.newContext({ baseURL, colorScheme: 'light' });
    const person = await signUp(first.request, 'colour');
    const token = await csrfToken(first.request);
    const saved = await first.request.patch('/api/profile', { data: { colorMode: 'dark' }, headers: { 'x-csrf-token': token } });
    expect(saved.status()).toBe(200);
    await first.close();

    // Another browser, light, never set: sign in through the form.
    const second = await browser.newContext({ baseURL, colorScheme: 'light' });
    try {
      const page = await second.newPage();
      await gotoHydrated(page, '/login');
      expect(await bodyBackground(page)).toBe(BACKGROUND.light);
      await page.getByLabel('E-mail').fill(person.email);
      await page.getByLabel('Password', { exact: true }).fill(person.password);
      await page.getByRole('button', { name: 'Sign in', exact: true }).click();
      await expect(page).toHaveURL(/\/dashboard\/lounge$/);
      await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
      await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
      expect(await cookieValue(page, COOKIE)).toBe('dark');
      // The next page the server renders is dark in its HTML: no light flash first.
      const response = await page.reload();
      expect(await response!.text()).toMatch(/<html[^>]*\sdata-theme="dark"/);
    } finally {
      await second.close();
    }
  });
});
