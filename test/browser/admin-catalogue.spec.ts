import { expect, type Page, test } from '@playwright/test';
import type { CatalogueResponse } from '../../lib/api/catalogue.js';
import { csrfToken, gotoHydrated, signInAsAdmin } from './fixtures.js';

const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const catalogue = (page: Page) => page.getByRole('region', { name: 'Catalogue' });
const planRow = (page: Page, id: string) => catalogue(page).locator('tbody tr', { hasText: id });

async function publicPlan(page: Page, id: string) {
  const response = await page.request.get('/api/catalogue');
  expect(response.status()).toBe(200);
  return ((await response.json()) as CatalogueResponse).plans.find((plan) => plan.id === id);
}

/**
 * The test makes its own plan and never touches the seeded ones (other tests read their prices).
 * The home page lists every active plan, so it is taken off sale again as soon as possible.
 */
test.describe('/admin/settings: catalogue', () => {
  test('creates a plan, edits its price with field errors, and takes it off sale', async ({ page }) => {
    const id = `test-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const name = `Plan ${id.slice(5)}`;
    await signInAsAdmin(page.request);
    try {
      await gotoHydrated(page, '/admin/settings');
      await expect(planRow(page, 'team-monthly')).toContainText('€29.00');

      // Create
      await catalogue(page).getByRole('button', { name: 'New plan' }).click();
      const create = page.getByRole('dialog', { name: 'New plan' });
      await create.getByLabel('Plan id').fill(id);
      await create.getByLabel('Name', { exact: true }).fill(name);
      await create.getByLabel('Price', { exact: true }).fill('12.34');
      await create.getByLabel('Billing').selectOption('year');
      await create.getByLabel('Sort order').fill('9000');
      await create.getByRole('button', { name: 'Create plan' }).click();
      await expect(create).toHaveCount(0);
      await expect(notifications(page).getByText(`${name} saved: €12.34`)).toBeVisible();
      await expect(planRow(page, id)).toContainText('€12.34');
      await expect(planRow(page, id)).toContainText('Yearly');
      // This instance has no Stripe: the column says so (the billing instance's is in buyer-journey.spec.ts).
      await expect(planRow(page, id)).toContainText('Stripe not configured');
      await expect(planRow(page, id).getByRole('list', { name: 'Both products' })).toHaveText('Hitscope for AppsHitscope for Browsers');
      expect((await publicPlan(page, id))?.amountMinor).toBe(1234);

      // Edit: a price that is no price, then one over the API's limit, then a good one
      await planRow(page, id).getByRole('button', { name: /^Edit/ }).click();
      const edit = page.getByRole('dialog', { name: `Edit ${name}` });
      const price = edit.getByLabel('Price', { exact: true });
      await expect(price).toHaveValue('12.34');
      await price.fill('12.345');
      await edit.getByRole('button', { name: 'Save plan' }).click();
      await expect(price).toHaveAttribute('aria-invalid', 'true');
      await expect(price).toHaveAccessibleDescription(/Enter a price such as 29\.00, with at most 2 decimals/);
      await expect(price).toBeFocused();

      await price.fill('200000.00');
      await edit.getByRole('button', { name: 'Save plan' }).click();
      await expect(edit.locator('.field__error')).toContainText('amountMinor must not be greater than 10000000');
      await expect(price).toHaveAttribute('aria-invalid', 'true');
      await expect(notifications(page).getByText(`${name} not saved`)).toBeVisible();

      await price.fill('1,045.60');
      await edit.getByRole('button', { name: 'Save plan' }).click();
      await expect(edit).toHaveCount(0);
      await expect(notifications(page).getByText(`${name} saved: €1,045.60`)).toBeVisible();
      await expect(notifications(page).getByText(`${name} not saved`)).toHaveCount(0);
      await expect(planRow(page, id)).toContainText('€1,045.60');
      expect((await publicPlan(page, id))?.amountMinor).toBe(104560);

      // The home page prices it (yearly)
      await gotoHydrated(page, '/');
      const pricing = page.getByRole('region', { name: 'Pricing' });
      await pricing.getByRole('radio', { name: 'Yearly' }).check();
      const card = pricing.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
      await expect(card).toContainText('€1,045.60');

      // Deactivate, with a confirmation
      await gotoHydrated(page, '/admin/settings');
      await planRow(page, id)
        .getByRole('button', { name: /^Deactivate/ })
        .click();
      const confirm = page.getByRole('dialog', { name: `Deactivate ${name}?` });
      await confirm.getByRole('button', { name: 'Deactivate', exact: true }).click();
      await expect(confirm).toHaveCount(0);
      await expect(notifications(page).getByText(`${name} is off sale`)).toBeVisible();
      await expect(planRow(page, id)).toContainText('Inactive');
      await expect(planRow(page, id).getByRole('button', { name: /^Activate/ })).toBeVisible();
      expect(await publicPlan(page, id)).toBeUndefined();
    } finally {
      // Never leave it on sale: other tests list the home page's plans exactly.
      const token = await csrfToken(page.request);
      await page.request.post(`/api/admin/catalogue/plans/${id}/deactivate`, { headers: { 'x-csrf-token': token } });
    }
  });
});
