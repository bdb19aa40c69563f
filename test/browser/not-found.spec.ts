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
});
