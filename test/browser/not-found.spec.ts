import { expect, test } from '@playwright/test';
import { gotoHydrated, signUp, trackDocumentRequests, waitForHydration } from './fixtures.js';

test.describe('404 screen', () => {
  test('an unmatched path answers 404 with the not-found screen', async ({ page }) => {
    const response = await page.goto('/this-does-not-exist');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByTestId('error-message')).toHaveText('Page not found: /this-does-not-exist');
    await expect(page).toHaveTitle(/^Page Not Found/);
  });

  test('a tool slug the route rejects answers 404 with "Page Not Found: {path}"', async ({ page }) => {
    const response = await page.goto('/dashboard/tools/not-a-tool');
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByTestId('error-message')).toHaveText('Page Not Found: /dashboard/tools/not-a-tool');
  });

  test('client-side navigation to an unknown path shows the same screen', async ({ page }) => {
    await gotoHydrated(page, '/');
    const documents = trackDocumentRequests(page);
    await page.evaluate(() => {
      void window.__hitscope!.router.navigate('/no-such-page?x=1');
    });
    await expect(page).toHaveURL('/no-such-page?x=1');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByTestId('error-message')).toHaveText('Page not found: /no-such-page');

    await page.evaluate(() => {
      void window.__hitscope!.router.navigate('/dashboard/tools/not-a-tool');
    });
    await expect(page).toHaveURL('/dashboard/tools/not-a-tool');
    await expect(page.getByTestId('error-message')).toHaveText('Page Not Found: /dashboard/tools/not-a-tool');
    expect(documents.paths()).toEqual([]);
  });

  test('offers a visitor the home page and sign-in, not a dashboard they do not have', async ({ page }) => {
    await page.goto('/this-does-not-exist');
    await waitForHydration(page);
    await expect(page.getByRole('link', { name: 'Back to Hitscope' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
    await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveCount(0);
  });

  test('offers a signed-in user their dashboard', async ({ page }) => {
    await signUp(page.request, 'notfound');
    await page.goto('/this-does-not-exist');
    await waitForHydration(page);
    await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard/lounge');
    await expect(page.getByRole('link', { name: 'Back to Hitscope' })).toHaveAttribute('href', '/');
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  });

  test('an unknown API path is a JSON 404, not the HTML app', async ({ request }) => {
    const response = await request.get('/api/no-such-endpoint');
    expect(response.status()).toBe(404);
    expect(response.headers()['content-type']).toMatch(/application\/json/);
    expect(await response.json()).toMatchObject({ statusCode: 404 });
  });

  test('has the bare screens’ header: the logo home and the colour switch, in both modes', async ({ page }) => {
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      const response = await page.goto('/this-does-not-exist');
      expect(response?.status()).toBe(404);
      await waitForHydration(page);
      const header = page.locator('.bare__header');
      await expect(header.getByRole('link', { name: 'Hitscope home' })).toHaveAttribute('href', '/');
      await expect(header.getByRole('group', { name: 'Colour mode' })).toBeVisible();
      await expect(page.getByRole('main')).toContainText('There is nothing at this address.');
    }
    // The switch works here as everywhere.
    await page.getByRole('radio', { name: 'Dark' }).click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  });

  test('a signed-in user’s unknown tool stays in the dashboard shell, titled and worded as every 404', async ({ page }) => {
    await signUp(page.request, 'notfound-tool');
    const response = await page.goto('/dashboard/tools/nope');
    expect(response?.status()).toBe(404);
    expect(await response!.text()).toContain('data-layout="authenticated"');
    await waitForHydration(page);
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'GA4 Measurement Protocol' })).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
    await expect(page.getByTestId('error-message')).toHaveText('Page Not Found: /dashboard/tools/nope');
    await expect(page).toHaveTitle(/^Page Not Found — /);
    await expect(page.getByRole('link', { name: 'Go to your dashboard' })).toHaveAttribute('href', '/dashboard/lounge');
    // The same on a client navigation, with the document title kept.
    await gotoHydrated(page, '/dashboard/lounge');
    await page.evaluate(() => void window.__hitscope!.router.navigate('/dashboard/tools/also-nope'));
    await expect(page.getByTestId('error-message')).toHaveText('Page Not Found: /dashboard/tools/also-nope');
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toBeVisible();
    await expect(page).toHaveTitle(/^Page Not Found — /);
  });

  test('a visitor’s unknown tool is the bare 404 screen, with the way to sign in', async ({ page }) => {
    const response = await page.goto('/dashboard/tools/nope');
    expect(response?.status()).toBe(404);
    await waitForHydration(page);
    await expect(page.getByRole('complementary', { name: 'Sidebar' })).toHaveCount(0);
    await expect(page.locator('.bare__header').getByRole('link', { name: 'Hitscope home' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login');
  });
});
