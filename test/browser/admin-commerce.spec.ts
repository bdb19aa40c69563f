import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import type { CatalogueResponse } from '../../lib/api/catalogue.js';
import type { LicenceApiResponse, OwnedLicenceList } from '../../lib/api/licences.js';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { csrfToken, gotoHydrated, signInAsAdmin, signUp } from './fixtures.js';

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

  test("shows each licence's activated devices, and Reset activations (asked, then a toast) empties the list", async ({
    page,
    baseURL,
  }) => {
    const APPS = COMPANION_PRODUCTS.apps;
    const userContext = await playwrightRequest.newContext({ baseURL });
    const person = await signUp(userContext, 'devices');
    await signInAsAdmin(page.request);
    const granted = await page.request.post(`/api/admin/users/${person.user.id}/licences`, {
      data: { planId: 'team-monthly', products: [APPS.slug], seats: 2, note: 'browser suite: devices' },
      headers: { 'x-csrf-token': await csrfToken(page.request) },
    });
    expect(granted.status(), 'grant a licence').toBe(201);
    const own = (await (await userContext.get('/api/licences')).json()) as OwnedLicenceList;
    const key = own.licences.find((licence) => licence.product === APPS.slug)!.key!;
    // The desktop app activating: the licensing API takes no cookie and no CSRF token.
    const app = await playwrightRequest.newContext({ baseURL });
    const activated = await app.post('/api/v1/licenses/activate', {
      data: {
        key,
        product: APPS.slug,
        fingerprint: createHash('sha256').update(randomBytes(16)).digest('hex'),
        name: 'Studio iMac',
        platform: 'macOS 15.2',
        appVersion: '2.3.1',
      },
    });
    expect(((await activated.json()) as LicenceApiResponse).code).toBe('VALID');
    await app.dispose();

    const dialog = await openPanel(page, person.email, person.name);
    const licence = dialog.getByRole('list', { name: 'Licences' }).getByRole('listitem').filter({ hasText: '1 of 2 seats used' });
    await expect(licence).toHaveCount(1);
    const devices = licence.getByRole('list', { name: /^Devices of the Hitscope for Apps licence/ });
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    const device = devices.getByRole('listitem').first();
    await expect(device).toContainText('Studio iMac');
    await expect(device).toContainText('macOS 15.2');
    await expect(device).toContainText('v2.3.1');
    await expect(device).toContainText(/Last seen \d/);

    // Reset, behind a question: Cancel first changes nothing.
    await licence.getByRole('button', { name: /^Reset activations of the/ }).click();
    const question = licence.getByRole('group');
    await expect(question).toContainText('1 device loses its seat and must activate again.');
    await question.getByRole('button', { name: 'Cancel' }).click();
    await expect(question).toHaveCount(0);
    await expect(devices.getByRole('listitem')).toHaveCount(1);
    await licence.getByRole('button', { name: /^Reset activations of the/ }).click();
    await licence.getByRole('group').getByRole('button', { name: 'Reset activations' }).click();
    await expect(toast(page, /^Activations of the Hitscope for Apps licence \(….+\) reset$/)).toBeVisible();
    const reset = dialog.getByRole('list', { name: 'Licences' }).getByRole('listitem').filter({ hasText: '0 of 2 seats used' });
    await expect(reset.getByText('No devices activated.')).toBeVisible();
    await expect(reset.getByRole('list', { name: /^Devices of/ })).toHaveCount(0);
    await expect(reset.getByRole('button', { name: /^Reset activations of the/ })).toBeDisabled();
    const after = (await (await userContext.get('/api/licences')).json()) as OwnedLicenceList;
    expect(after.licences.find((item) => item.product === APPS.slug)?.activations).toEqual([]);
    await userContext.dispose();
  });
});
