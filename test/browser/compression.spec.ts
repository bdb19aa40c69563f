import { expect, test } from '@playwright/test';
import { collectPageProblems, waitForHydration } from './fixtures.js';

// A real browser decodes what the server sends: the page gzip-compressed per request, the build's
// scripts and stylesheets as the Brotli files written at build time, and the app hydrates.
test('the home page arrives gzip-compressed, its scripts and styles as precompressed Brotli, and hydrates', async ({ page }) => {
  const watch = collectPageProblems(page);
  const assets: { url: string; encoding: string | undefined }[] = [];
  page.on('response', (response) => {
    if (new URL(response.url()).pathname.startsWith('/assets/'))
      assets.push({ url: response.url(), encoding: response.headers()['content-encoding'] });
  });
  const response = await page.goto('/');
  expect(response?.status()).toBe(200);
  expect(response?.headers()['content-encoding']).toBe('gzip');
  await waitForHydration(page);
  await expect(page.locator('h1')).toBeVisible();
  await page.waitForLoadState('networkidle');
  const entry = assets.find(({ url }) => /\/assets\/index-[\w-]+\.js$/.test(url));
  expect(entry?.encoding).toBe('br');
  const stylesheet = assets.find(({ url }) => /\/assets\/index-[\w-]+\.css$/.test(url));
  expect(stylesheet?.encoding).toBe('br');
  expect(watch.problems).toEqual([]);
});
