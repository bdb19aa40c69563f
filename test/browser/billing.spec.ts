import { expect, type Page, test } from '@playwright/test';
import type { OrderView } from '../../lib/api/billing.js';
import { billingServerUrl, collectPageProblems, csrfToken, gotoHydrated, signInAsAdmin, signUp } from './fixtures.js';

const pricing = (page: Page) => page.getByRole('region', { name: 'Pricing' });

const SEEDED_NAMES = new Set(['Solo', 'Team', 'Agency', 'Solo lifetime']);
test.describe('billing screens', () => {
  test('the home page prices the seeded plans from the catalogue, rendered on the server, by billing period', async ({ page, request }) => {
    // Server-rendered: the prices are in the HTML before any script runs.
    const html = await (await request.get('/')).text();
    expect(html).toContain('€9');
    expect(html).toContain('€29');
    expect(html).toContain('€199');

    const problems = collectPageProblems(page);
    await gotoHydrated(page, '/');
    const section = pricing(page);
    const cards = section.getByRole('listitem').filter({ has: page.getByRole('heading', { level: 3 }) });
    // The seeded plans, in their order (another suite may have a plan of its own on sale meanwhile).
    const seeded = async () => (await cards.getByRole('heading', { level: 3 }).allTextContents()).filter((name) => SEEDED_NAMES.has(name));
    await expect.poll(seeded).toEqual(['Solo', 'Team', 'Agency', 'Solo lifetime']);
    const team = cards.filter({ has: page.getByRole('heading', { name: 'Team', exact: true }) });
    await expect(team).toContainText('€29');
    await expect(team).toContainText('per month');
    await expect(team).toContainText('Recommended');
    await expect(team.getByRole('link', { name: 'Choose Team' })).toHaveAttribute(
      'href',
      `/register?redirect=${encodeURIComponent('/dashboard/user/subscription?plan=team-monthly')}`,
    );

    await section.getByRole('radio', { name: 'Yearly' }).check();
    await expect.poll(seeded).toEqual(['Solo', 'Team', 'Solo lifetime']);
    await expect(team).toContainText('€290');
    await expect(team).toContainText('per year');
    problems.stop();
    expect(problems.problems).toEqual([]);
  });

  test('a signed-in visitor choosing a plan goes to the subscription page with it chosen', async ({ page }) => {
    await signUp(page.request, 'billing-choose');
    await gotoHydrated(page, '/');
    await pricing(page).getByRole('link', { name: 'Choose Agency' }).click();
    await expect(page).toHaveURL('/dashboard/user/subscription?plan=agency-monthly');
    await expect(page.getByRole('heading', { level: 1, name: 'Subscription' })).toBeVisible();
  });

  test('the subscription page says billing is not configured and offers no buttons to buy', async ({ page }) => {
    await signUp(page.request, 'billing-off');
    await gotoHydrated(page, '/dashboard/user/subscription?plan=team-monthly');
    await expect(page.getByRole('status').filter({ hasText: 'Billing is not configured on this site' })).toBeVisible();
    await expect(page.getByText('You are on the free plan.')).toBeVisible();
    await expect(page.getByRole('button', { name: /^Choose |Continue to checkout|Manage billing/ })).toHaveCount(0);
  });

  test('the orders page shows an empty state before any order', async ({ page }) => {
    await signUp(page.request, 'billing-empty');
    await gotoHydrated(page, '/dashboard/user/orders');
    const empty = page.getByRole('region', { name: 'No orders yet' });
    await expect(empty).toBeVisible();
    await expect(empty.getByRole('link', { name: 'See the plans' })).toHaveAttribute('href', '/dashboard/user/subscription');
  });

  test('a manual order recorded by an admin shows in the user’s orders with a receipt that opens ours', async ({ page, request }) => {
    const { user } = await signUp(page.request, 'billing-manual');
    await signInAsAdmin(request);
    const recorded = await request.post('/api/admin/billing/orders', {
      data: { userId: user.id, planId: 'team-yearly', note: 'Paid by bank transfer' },
      headers: { 'x-csrf-token': await csrfToken(request) },
    });
    expect(recorded.status(), await recorded.text()).toBe(201);
    const order = (await recorded.json()) as OrderView;
    expect(order.receiptNumber).toBeTruthy();

    await gotoHydrated(page, '/dashboard/user/orders');
    const row = page.getByRole('row').filter({ hasText: order.receiptNumber! });
    await expect(row).toContainText('Team (yearly)');
    await expect(row).toContainText('€290');
    await expect(row).toContainText('EUR');
    await expect(row).toContainText('Paid');
    const link = row.getByRole('link', { name: new RegExp(`^${order.receiptNumber}`) });
    await expect(link).toHaveAttribute('href', `/api/billing/orders/${order.id}/receipt`);

    const [receipt] = await Promise.all([page.context().waitForEvent('page'), link.click()]);
    await receipt.waitForLoadState();
    await expect(receipt.getByRole('heading', { level: 1 })).toHaveText(`Receipt ${order.receiptNumber}`);
    await expect(receipt.locator('body')).toContainText('Paid by bank transfer');
  });

  test('with Stripe configured, choosing a plan sends the browser to the Checkout session Stripe made', async ({ page }) => {
    const billing = await billingServerUrl();
    // Signed up on the first instance; the session cookie (host-wide) signs in on the second, which shares the database.
    await signUp(page.request, 'billing-checkout');
    // stripe-mock answers with a checkout.stripe.com URL; the page there is a stand-in.
    await page.route('https://checkout.stripe.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<h1>Stripe Checkout</h1>' }),
    );
    // The answer is read on its way to the page, which leaves for Stripe as soon as it has it.
    let checkout: { status: number; url?: string } | null = null;
    await page.route('**/api/billing/checkout', async (route) => {
      const response = await route.fetch();
      checkout = { status: response.status(), ...((await response.json()) as { url?: string }) };
      await route.fulfill({ response });
    });
    await gotoHydrated(page, `${billing}/dashboard/user/subscription?plan=team-monthly`);
    await expect(page.getByRole('status').filter({ hasText: 'Billing is not configured' })).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 2, name: 'Your chosen plan' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue to checkout' }).click();
    await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
    expect(checkout).toMatchObject({ status: 201, url: page.url() });
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Stripe Checkout');
  });
});
