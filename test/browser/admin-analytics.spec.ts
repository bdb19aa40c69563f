import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { csrfToken, gotoHydrated, signInAsAdmin, signUp } from './fixtures.js';

test.describe('/admin/analytics — tool usage', () => {
  test('shows the day’s tool runs in the chart and the table, and switches the range', async ({ page, browser }) => {
    // A user finishes two HAR analyses in their own browser context.
    const userContext = await browser.newContext();
    await signUp(userContext.request, 'usage');
    const token = await csrfToken(userContext.request);
    for (let run = 0; run < 2; run += 1) {
      const response = await userContext.request.post('/api/tools/usage', { data: { tool: 'har' }, headers: { 'x-csrf-token': token } });
      expect(response.status()).toBe(204);
    }
    await userContext.close();

    await signInAsAdmin(page.request);
    const expected = await page.request.get('/api/admin/tool-usage?').then((response) => response.json());
    const harRuns = (expected.rows as Array<{ tool: string; runs: number }>)
      .filter((row) => row.tool === 'har')
      .reduce((sum, row) => sum + row.runs, 0);
    expect(harRuns).toBeGreaterThanOrEqual(2);

    await gotoHydrated(page, '/admin/analytics');
    const panel = page.getByRole('region', { name: 'Tool usage' });
    await expect(panel.getByRole('figure')).toBeVisible();
    await expect(
      panel
        .getByRole('row', { name: /HAR analyser analyse/ })
        .getByRole('cell')
        .last(),
    ).toHaveText(String(harRuns));
    await expect(panel.getByRole('radio', { name: '30 days' })).toBeChecked();

    const sevenDays = page.waitForResponse(
      (response) => response.url().includes('/api/admin/tool-usage?from=') && response.status() === 200,
    );
    await panel.getByRole('radio', { name: '7 days' }).click();
    const answer = await (await sevenDays).json();
    expect((Date.parse(answer.to) - Date.parse(answer.from)) / 86_400_000).toBe(6);
    await expect(panel.getByRole('radio', { name: '7 days' })).toBeChecked();
    await expect(
      panel
        .getByRole('row', { name: /HAR analyser analyse/ })
        .getByRole('cell')
        .last(),
    ).toHaveText(String(harRuns));

    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      const out = join(process.cwd(), 'test-results', 'screenshots');
      mkdirSync(out, { recursive: true });
      await panel.screenshot({ path: join(out, `admin-tool-usage-${scheme}.png`), animations: 'disabled' });
    }
  });

  test('tells the admin when the usage cannot be loaded', async ({ page }) => {
    await signInAsAdmin(page.request);
    await page.route('**/api/admin/tool-usage?*', (route) =>
      route.fulfill({
        status: 503,
        contentType: 'application/json',
        body: JSON.stringify({ statusCode: 503, error: 'Service Unavailable', message: 'The database is unavailable.' }),
      }),
    );
    await gotoHydrated(page, '/admin/analytics');
    const panel = page.getByRole('region', { name: 'Tool usage' });
    await expect(panel.getByRole('alert')).toContainText('Tool usage could not be loaded');
    await expect(panel.getByRole('button', { name: 'Try again' })).toBeVisible();
  });
});
