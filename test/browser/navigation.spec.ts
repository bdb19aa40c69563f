import { expect, type Locator, type Page, test } from '@playwright/test';
import { ADMIN_EMAIL, gotoHydrated, registerViaApi, signInAsAdmin, signUp, newCredentials, trackDocumentRequests } from './fixtures.js';

/** Navigates with the app's own data router (exposed by client/entry-client.tsx), as a link would. */
async function routerNavigate(page: Page, to: string): Promise<void> {
  await page.evaluate((target) => {
    void window.__hitscope!.router.navigate(target);
  }, to);
}

test.describe('client-side navigation', () => {
  test('the header link to Sponsor navigates without a document load', async ({ page }) => {
    await gotoHydrated(page, '/');
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText('Sponsor Hitscope');
    const documents = trackDocumentRequests(page);
    await page.evaluate(() => {
      (window as unknown as { __marker: number }).__marker = 1;
    });

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sponsor' }).click();

    await expect(page).toHaveURL(/\/sponsor$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sponsor Hitscope');
    await expect(page).toHaveTitle('Sponsor Hitscope');
    expect(await page.evaluate(() => (window as unknown as { __marker?: number }).__marker)).toBe(1);
    expect(documents.paths()).toEqual([]);
  });

  test('the footer links to the terms of service, which open without a document load', async ({ page }) => {
    await gotoHydrated(page, '/');
    const documents = trackDocumentRequests(page);
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'Terms of service' }).click();
    await expect(page).toHaveURL('/terms');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of service');
    expect(documents.paths()).toEqual([]);
  });
});

test.describe('current page links', () => {
  const current = (scope: Locator) => scope.locator('a[aria-current="page"]');

  test("the server marks the current page's links with aria-current and the active class", async ({ browser }) => {
    // No JavaScript: what is asserted is the server's markup.
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/sponsor');
    await expect(current(page.getByRole('navigation', { name: 'Main' }))).toHaveText(['Sponsor']);
    await expect(current(page.getByRole('navigation', { name: 'Footer' }))).toHaveText(['Sponsor']);
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sponsor' })).toHaveClass('active');
    // The logo links to "/" with `end`: not current below it.
    await expect(page.getByRole('link', { name: /home$/ })).not.toHaveAttribute('aria-current');
    await page.goto('/');
    await expect(page.getByRole('link', { name: /home$/ })).toHaveAttribute('aria-current', 'page');
    await expect(current(page.getByRole('navigation', { name: 'Main' }))).toHaveText(['Home']);
    await context.close();
  });

  test('the marks follow client-side navigation, in the header and in the dashboard sidebar', async ({ page }) => {
    await gotoHydrated(page, '/');
    const main = page.getByRole('navigation', { name: 'Main' });
    await expect(current(main)).toHaveText(['Home']);
    await main.getByRole('link', { name: 'Sponsor' }).click();
    await expect(page).toHaveURL(/\/sponsor$/);
    await expect(current(main)).toHaveText(['Sponsor']);
    await expect(main.getByRole('link', { name: 'Home' })).not.toHaveClass(/active/);

    await signUp(page.request, 'current-link');
    await gotoHydrated(page, '/dashboard/lounge');
    const sidebar = page.getByRole('navigation', { name: 'Sections' });
    await expect(current(sidebar)).toHaveText(['Lounge']);
    await expect(sidebar.getByRole('link', { name: 'Lounge' })).toHaveClass('shell__link active');
    const documents = trackDocumentRequests(page);
    await sidebar.getByRole('link', { name: 'Orders' }).click();
    await expect(page).toHaveURL(/\/dashboard\/user\/orders$/);
    await expect(current(sidebar)).toHaveText(['Orders']);
    await expect(sidebar.getByRole('link', { name: 'Lounge' })).toHaveClass('shell__link');
    expect(documents.paths()).toEqual([]);
  });
});

test.describe('lounge', () => {
  test('offers a shortcut to each of the four tools, which opens it without a document load', async ({ page }) => {
    await signUp(page.request, 'lounge');
    await gotoHydrated(page, '/dashboard/lounge');
    const tools = page.getByRole('region', { name: 'Tools' });
    await expect(tools.getByRole('link')).toHaveCount(4);
    await expect(tools.getByRole('link', { name: /^GA4 Measurement Protocol/ })).toHaveAttribute('href', '/dashboard/tools/ga4mp');
    await expect(tools.getByRole('link', { name: /^Hitscope for Browsers/ })).toHaveAttribute(
      'href',
      '/dashboard/tools/hitscope-for-browsers',
    );
    await expect(tools.getByRole('link', { name: /^Hitscope for Apps/ })).toHaveAttribute('href', '/dashboard/tools/hitscope-for-apps');

    const documents = trackDocumentRequests(page);
    await tools.getByRole('link', { name: /^Google tag linker/ }).click();
    await expect(page).toHaveURL(/\/dashboard\/tools\/google-tag-linker$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Google tag linker');
    expect(documents.paths()).toEqual([]);
  });
});

test.describe('route guards on client-side navigation', () => {
  test('a visitor sent to a protected page signs in and lands on it, without a document load', async ({ page, request }) => {
    // Registered on a separate cookie jar: the browser stays signed out.
    const credentials = newCredentials('guard');
    await registerViaApi(request, credentials);

    await gotoHydrated(page, '/');
    const documents = trackDocumentRequests(page);
    await routerNavigate(page, '/dashboard/user/orders?tab=1');

    await expect(page).toHaveURL('/login?redirect=%2Fdashboard%2Fuser%2Forders%3Ftab%3D1');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Hitscope');
    expect(documents.paths()).toEqual([]);

    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();

    await expect(page).toHaveURL('/dashboard/user/orders?tab=1');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Orders');
    expect(documents.paths()).toEqual([]);
  });

  test('a signed-in non-admin navigating to /admin ends on the lounge', async ({ page }) => {
    const { name } = await signUp(page.request, 'nonadmin');
    await gotoHydrated(page, '/dashboard/user/orders');
    const documents = trackDocumentRequests(page);

    await routerNavigate(page, '/admin');

    await expect(page).toHaveURL('/dashboard/lounge');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(`Welcome, ${name}`);
    expect(documents.paths()).toEqual([]);
    // The API refuses independently of the page guard.
    expect((await page.request.get('/api/admin/route-rules')).status()).toBe(403);
  });

  test(`the admin (${ADMIN_EMAIL}, promoted through ADMIN_EMAILS) reaches /admin/settings`, async ({ page }) => {
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/dashboard/lounge');
    await expect(page.getByRole('link', { name: 'Admin area' })).toBeVisible();
    const documents = trackDocumentRequests(page);

    await routerNavigate(page, '/admin/settings');

    await expect(page).toHaveURL('/admin/settings');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Settings');
    expect(documents.paths()).toEqual([]);
  });

  test('a visitor asking the server for a protected page is redirected before any HTML', async ({ page }) => {
    const response = await page.request.get('/dashboard/user/orders?tab=1', { maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers()['location']).toBe('/login?redirect=%2Fdashboard%2Fuser%2Forders%3Ftab%3D1');
  });
});
