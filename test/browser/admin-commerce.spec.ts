import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import type { CatalogueResponse } from '../../lib/api/catalogue.js';
import type { OwnedLicenceList } from '../../lib/api/licences.js';
import { gotoHydrated, signInAsAdmin, signUp } from './fixtures.js';

const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');
const toast = (page: Page, text: string | RegExp) => page.getByRole('region', { name: 'Notifications' }).getByText(text);

/** Opens the user panel of `email` in /admin/users, signed in as the admin. */
async function openPanel(page: Page, email: string, name: string) {
  await signInAsAdmin(page.request);
  await gotoHydrated(page, '/admin/users');
  await page.getByRole('searchbox', { name: 'Search' }).fill(email);
  await expect(page.locator('.admin-users__table tbody tr')).toHaveCount(1);
  await page.getByRole('button', { name: `Manage ${name}` }).click();
  const dialog = page.getByRole('dialog', { name });
  await expect(dialog.getByRole('heading', { name: 'Commerce', exact: true })).toBeVisible();
  return dialog;
}

test.describe('/admin/users: commerce in the user panel', () => {
  test('grants a licence, records a manual order and revokes the licence, each with its toast', async ({ page, baseURL }) => {
    const userContext = await playwrightRequest.newContext({ baseURL });
    const person = await signUp(userContext, 'commerce');
    const catalogue = (await (await page.request.get('/api/catalogue')).json()) as CatalogueResponse;
    const plan = catalogue.plans[0];
    expect(plan, 'the browser server seeds the catalogue').toBeTruthy();

    const dialog = await openPanel(page, person.email, person.name);
    await expect(dialog.getByText('No subscription.')).toBeVisible();
    await expect(dialog.getByText('No orders yet.')).toBeVisible();
    await expect(dialog.getByText('No licences yet.')).toBeVisible();

    // Grant
    await dialog.getByRole('button', { name: 'Grant licence' }).click();
    const grantForm = dialog.getByRole('form', { name: 'Grant licence' });
    await expect(grantForm.getByLabel('Plan')).toHaveValue(plan.id);
    for (const slug of plan.products) await expect(grantForm.locator(`input[value="${slug}"]`)).toBeChecked();
    await grantForm.getByLabel('Seats').fill('3');
    await grantForm.getByLabel('Note (optional)').fill('Partner licence');
    await grantForm.getByRole('button', { name: 'Grant licence' }).click();
    await expect(toast(page, `${plan.name} licence granted to ${person.name}`)).toBeVisible();
    await expect(grantForm).toBeHidden();
    const licences = dialog.getByRole('list', { name: 'Licences' }).getByRole('listitem');
    const granted = licences.filter({ hasText: '0 of 3 seats used' });
    await expect(granted).toHaveCount(plan.products.length);
    await expect(granted.first().getByText('Active', { exact: true })).toBeVisible();
    await expect(granted.first().getByText(/^Key …/)).toBeVisible();

    // The person sees it in their own list.
    const own = (await (await userContext.get('/api/licences')).json()) as OwnedLicenceList;
    expect(own.licences.filter((licence) => licence.seats === 3)).toHaveLength(plan.products.length);

    // Manual order
    await dialog.getByRole('button', { name: 'Record manual order' }).click();
    const orderForm = dialog.getByRole('form', { name: 'Record manual order' });
    await orderForm.getByLabel('Note (optional)').fill('Bank transfer 42');
    await orderForm.getByRole('button', { name: 'Record order' }).click();
    await expect(toast(page, new RegExp(`^${plan.name} order of .+ recorded for ${person.name}$`))).toBeVisible();
    const orders = dialog.getByRole('list', { name: 'Orders' }).getByRole('listitem');
    await expect(orders).toHaveCount(1);
    await expect(orders.first()).toContainText(plan.name);
    await expect(orders.first().getByText('Paid', { exact: true })).toBeVisible();
    await expect(orders.first().getByRole('link', { name: /^Receipt/ })).toBeVisible();
    await expect(dialog.getByText('No orders yet.')).toBeHidden();

    // Revoke, behind a question
    const target = granted.first();
    await target.getByRole('button', { name: 'Revoke' }).click();
    await target.getByRole('group').getByRole('button', { name: 'Revoke licence' }).click();
    await expect(toast(page, /licence \(….+\) revoked$/)).toBeVisible();
    await expect(licences.filter({ hasText: '0 of 3 seats used' }).getByText('Revoked', { exact: true })).toHaveCount(1);
    const after = (await (await userContext.get('/api/licences')).json()) as OwnedLicenceList;
    expect(after.licences.filter((licence) => licence.status === 'revoked')).toHaveLength(1);

    // For review: the panel at 1280 px light and 390 px dark.
    mkdirSync(SCREENSHOTS, { recursive: true });
    await page.emulateMedia({ reducedMotion: 'reduce' });
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-commerce-light.png'), animations: 'disabled' });
    await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
    await page.setViewportSize({ width: 390, height: 844 });
    await dialog.getByRole('heading', { name: 'Commerce', exact: true }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(SCREENSHOTS, 'admin-commerce-phone-dark.png'), animations: 'disabled' });
    await userContext.dispose();
  });
});
