import { createHash, randomBytes } from 'node:crypto';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import type { LicenceApiResponse, OwnedLicenceList } from '../../lib/api/licences.js';
import { formatDateTime } from '../../lib/format/date.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { collectPageProblems, csrfToken, gotoHydrated, signInAsAdmin, signUp } from './fixtures.js';

const card = (page: Page, name: string) => page.locator(`[data-overview-card="${name}"]`);

test.describe('/admin: the overview', () => {
  test('shows the key figures after a licence is granted and activated and a manual order is recorded', async ({ page, baseURL }) => {
    // The server keeps an overview for 30 s, so figures computed just before this test's seeding may show first.
    test.setTimeout(90_000);
    const APPS = COMPANION_PRODUCTS.apps;
    const userContext = await playwrightRequest.newContext({ baseURL });
    const person = await signUp(userContext, 'overview');
    await signInAsAdmin(page.request);
    const headers = { 'x-csrf-token': await csrfToken(page.request) };
    const granted = await page.request.post(`/api/admin/users/${person.user.id}/licences`, {
      data: { planId: 'team-monthly', products: [APPS.slug], seats: 2, note: 'browser suite: overview' },
      headers,
    });
    expect(granted.status(), 'grant a licence').toBe(201);
    const own = (await (await userContext.get('/api/licences')).json()) as OwnedLicenceList;
    const key = own.licences.find((licence) => licence.product === APPS.slug)!.key!;
    const app = await playwrightRequest.newContext({ baseURL });
    const activated = await app.post('/api/v1/licenses/activate', {
      data: {
        key,
        product: APPS.slug,
        fingerprint: createHash('sha256').update(randomBytes(16)).digest('hex'),
        name: 'Overview Mac',
        platform: 'macOS 15.2',
        appVersion: '2.3.1',
      },
    });
    expect(((await activated.json()) as LicenceApiResponse).code).toBe('VALID');
    await app.dispose();
    const order = await page.request.post('/api/admin/billing/orders', {
      data: { userId: person.user.id, planId: 'solo-lifetime', note: 'browser suite: overview' },
      headers,
    });
    expect(order.status(), 'record a manual order').toBe(201);

    const problems = collectPageProblems(page);
    // Server-rendered with its figures (prefetched), then hydrated; reloaded until the 30 s cache has the seeding.
    await expect(async () => {
      await gotoHydrated(page, '/admin');
      await expect(card(page, 'licences')).toHaveAttribute('data-overview-state', 'ready', { timeout: 1000 });
      await expect(card(page, 'revenue')).toHaveAttribute('data-overview-state', 'ready', { timeout: 1000 });
    }).toPass({ timeout: 70_000, intervals: [2000, 5000] });

    await expect(page.getByRole('heading', { level: 1, name: 'Admin overview' })).toBeVisible();
    const users = card(page, 'users');
    await expect(users).toHaveAttribute('data-overview-state', 'ready');
    await expect(users.locator('.overview-figure__value')).toHaveText(/^[1-9][\d,]*$/);
    await expect(users.getByText(/^\+[1-9]\d* today$/)).toBeVisible();
    await expect(users.getByRole('img', { name: /^Sign-ups per day, .+: \d+ in total, most on .+, [1-9]\d* today$/ })).toBeVisible();
    await expect(users.getByRole('link', { name: /Manage users/ })).toHaveAttribute('href', '/admin/users');

    await expect(card(page, 'licences').locator('.overview-figure__value')).toHaveText(/^[1-9][\d,]*$/);
    await expect(card(page, 'revenue').locator('.overview-figure__value').first()).toHaveText(/^€[\d,]+\.\d\d$/);
    await expect(card(page, 'revenue')).toContainText(/\d+ orders?/);

    // Every card settles into figures or an empty state, never an error.
    for (const name of ['subscriptions', 'mrr', 'webhooks', 'page-views']) {
      await expect(card(page, name)).toHaveAttribute('data-overview-state', /^(ready|empty)$/);
    }
    await expect(card(page, 'newsletter')).toHaveAttribute('data-overview-state', /^(ready|empty)$/);

    // The MRR rules are one disclosure away.
    const rules = card(page, 'mrr').getByText('How MRR is counted');
    await rules.click();
    await expect(card(page, 'mrr').getByText(/Trialing ones are shown, never counted/)).toBeVisible();

    const sections = page.getByRole('navigation', { name: 'Admin sections' });
    for (const name of ['Settings', 'Analytics', 'Newsletter', 'Users'])
      await expect(sections.getByRole('link', { name: new RegExp(`^${name}`) })).toBeVisible();
    // The server's markup (figures, dates formatted in UTC) hydrates without a mismatch.
    expect(problems.problems).toEqual([]);
    await userContext.dispose();
  });

  test('shows an error with a retry in every card when the overview cannot be loaded, and the figures after the retry', async ({
    page,
  }) => {
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/admin/users');
    let fail = true;
    await page.route('**/api/admin/overview', (route) =>
      fail
        ? route.fulfill({ status: 500, json: { statusCode: 500, error: 'Internal Server Error', message: 'Something went wrong.' } })
        : route.fallback(),
    );
    // A client-side navigation: the page asks for its figures in the browser.
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
    const errors = page.locator('[data-overview-state="error"]');
    await expect(errors).toHaveCount(8, { timeout: 20_000 });
    await expect(card(page, 'users').getByRole('alert')).toContainText('Could not load the figures.');

    fail = false;
    await card(page, 'users').getByRole('button', { name: 'Try again' }).click();
    await expect(card(page, 'users')).toHaveAttribute('data-overview-state', 'ready');
    await expect(errors).toHaveCount(0);
    await expect(card(page, 'users').locator('.overview-figure__value')).toHaveText(/^[1-9][\d,]*$/);
  });

  test('figures the server kept from long ago are shown at once, then replaced by fresh ones without a reload', async ({ page }) => {
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/admin/users');
    // The server answers with the overview it kept, however old, while it computes the next one:
    // here the first answer is dated five minutes ago, as after a quiet spell.
    const old = new Date(Date.now() - 5 * 60_000);
    let answers = 0;
    await page.route('**/api/admin/overview', async (route) => {
      answers += 1;
      if (answers > 1) return route.fallback();
      const response = await route.fetch();
      return route.fulfill({ response, json: { ...((await response.json()) as object), asOf: old.toISOString() } });
    });
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await expect(page).toHaveURL(/\/admin$/);
    const asOf = page.getByText(/^Figures as of /);
    await expect(card(page, 'users')).toHaveAttribute('data-overview-state', 'ready');
    await expect(asOf).toContainText(`Figures as of ${formatDateTime(old)}`);
    // Asked again a few seconds later, unprompted: the fresh figures replace the old ones.
    await expect.poll(() => answers, { timeout: 10_000 }).toBeGreaterThan(1);
    await expect(asOf).not.toContainText(formatDateTime(old), { timeout: 10_000 });
    await expect(card(page, 'users')).toHaveAttribute('data-overview-state', 'ready');
  });
});
