import { expect, test } from '@playwright/test';
import { collectPageProblems, signUp, waitForHydration } from './fixtures.js';

// The server render and the browser's first render must agree: no hydration warnings, no errors.
const PUBLIC_PAGES = ['/', '/login', '/register', '/sponsor', '/privacy-policy', '/terms'];

test.describe('hydration', () => {
  for (const path of PUBLIC_PAGES) {
    test(`${path} hydrates without errors or hydration warnings`, async ({ page }) => {
      const watch = collectPageProblems(page);
      const response = await page.goto(path);
      expect(response?.status()).toBe(200);
      await waitForHydration(page);
      await expect(page.locator('h1')).toBeVisible();
      await page.waitForLoadState('networkidle');
      expect(watch.problems).toEqual([]);
    });
  }

  test('/dashboard/lounge (signed in) hydrates without errors or hydration warnings', async ({ page }) => {
    const { name } = await signUp(page.request, 'hydration');
    const watch = collectPageProblems(page);
    const response = await page.goto('/dashboard/lounge');
    expect(response?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe('/dashboard/lounge');
    await waitForHydration(page);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${name}`);
    await page.waitForLoadState('networkidle');
    expect(watch.problems).toEqual([]);
  });

  for (const path of ['/this-does-not-exist', '/dashboard/tools/not-a-tool']) {
    test(`the 404 screen of ${path} hydrates; only its own document load is logged as failed`, async ({ page }) => {
      const watch = collectPageProblems(page);
      const url = new URL(path, test.info().project.use.baseURL).href;
      watch.allowFailedDocument(url);
      const response = await page.goto(url);
      expect(response?.status()).toBe(404);
      await waitForHydration(page);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
      await page.waitForLoadState('networkidle');
      expect(watch.problems).toEqual([]);
    });
  }
});
