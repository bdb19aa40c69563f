import { expect, type Page, test } from '@playwright/test';
import { collectPageProblems, gotoHydrated, signUp, trackDocumentRequests, waitForHydration } from './fixtures.js';

const notice = (page: Page) => page.getByRole('status').filter({ hasText: 'The admin area is for admins only' });

async function routerNavigate(page: Page, to: string): Promise<void> {
  await page.evaluate((target) => {
    void window.__hitscope!.router.navigate(target);
  }, to);
}

test.describe('/dashboard/lounge', () => {
  test('tells a non-admin sent from the admin area why they are here, once, on the server redirect and on client navigation', async ({
    page,
  }) => {
    await signUp(page.request, 'lounge-notice');

    // First load: the server's redirect carries the reason; the lounge shows it and drops it from the address.
    const problems = collectPageProblems(page);
    const response = await page.goto('/admin/users');
    expect(response?.status()).toBe(200);
    await waitForHydration(page);
    await expect(notice(page)).toBeVisible();
    await expect(notice(page)).toContainText('Your account is not an admin');
    await expect(page).toHaveURL('/dashboard/lounge');
    problems.stop();
    expect(problems.problems).toEqual([]); // rendered on the server with the notice, hydrated without a mismatch
    expect(await (await page.request.get('/dashboard/lounge?notice=admin-only')).text()).toContain('The admin area is for admins only');

    await notice(page).getByRole('button', { name: 'Dismiss this notice' }).click();
    await expect(notice(page)).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Tools' })).toBeFocused();
    await page.reload();
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(/^Welcome, /);
    await expect(notice(page)).toHaveCount(0);

    // Client-side navigation: the same guard, the same notice, no document load.
    await gotoHydrated(page, '/dashboard/user/orders');
    const documents = trackDocumentRequests(page);
    await routerNavigate(page, '/admin/settings');
    await expect(notice(page)).toBeVisible();
    await expect(page).toHaveURL('/dashboard/lounge');
    expect(documents.paths()).toEqual([]);

    // A second refusal after a dismissal says it again.
    await notice(page).getByRole('button', { name: 'Dismiss this notice' }).click();
    await routerNavigate(page, '/admin');
    await expect(notice(page)).toBeVisible();
  });

  test('names each tool link by its tool and describes it with its summary', async ({ page }) => {
    await signUp(page.request, 'lounge-links');
    await gotoHydrated(page, '/dashboard/lounge');
    const link = page.getByRole('region', { name: 'Tools' }).getByRole('link', { name: 'GA4 Measurement Protocol', exact: true });
    await expect(link).toHaveAttribute('href', '/dashboard/tools/ga4mp');
    await expect(link).toHaveAccessibleDescription(/^Compose, validate and send Measurement Protocol payloads/);
  });
});
