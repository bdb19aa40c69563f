import { expect, type Page, test } from '@playwright/test';
import { gotoHydrated, signInAsAdmin } from './fixtures.js';

const notifications = (page: Page) => page.getByRole('region', { name: 'Notifications' });
const editor = (page: Page) => page.getByRole('form', { name: 'Redirect rules' });

/** Saving replaces every rule of the (shared) database: a test leaves the list empty again. */
async function clearRules(page: Page) {
  const csrf = (await (await page.request.get('/api/auth/csrf')).json()) as { token: string };
  const response = await page.request.put('/api/admin/route-rules', { data: { rules: [] }, headers: { 'x-csrf-token': csrf.token } });
  expect(response.status()).toBe(200);
}

test.describe('/admin/settings: redirect rules', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeEach(async ({ page }) => {
    await signInAsAdmin(page.request);
    await clearRules(page);
  });

  test.afterEach(async ({ page }) => {
    await clearRules(page);
  });

  test('shows what is wrong beside the rule it concerns, and a success replaces the failure toast', async ({ page }) => {
    const tag = Date.now().toString(36);
    await gotoHydrated(page, '/admin/settings');
    await editor(page).getByRole('button', { name: 'Add rule' }).click();
    await expect(page.getByLabel('Source of rule 1')).toBeFocused();
    await page.getByLabel('Source of rule 1').fill('no-slash');
    await page.getByLabel('Target of rule 1').fill('/sponsor');
    await editor(page).getByRole('button', { name: 'Save rules' }).click();

    const source = page.getByLabel('Source of rule 1');
    await expect(source).toHaveAttribute('aria-invalid', 'true');
    await expect(source).toHaveAccessibleDescription('Source must be a path such as /old-page or a prefix such as /docs/*');
    await expect(source).toBeFocused();
    await expect(page.getByLabel('Target of rule 1')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(notifications(page).getByText('Redirect rules not saved', { exact: true })).toBeVisible();
    await expect(notifications(page).getByText('Validation failed')).toHaveCount(0);

    await source.fill(`/old-${tag}`);
    await editor(page).getByRole('button', { name: 'Save rules' }).click();
    await expect(notifications(page).getByText('Redirect rules saved', { exact: true })).toBeVisible();
    await expect(notifications(page).getByRole('alert')).toHaveCount(0);
    await expect(notifications(page).getByText('Redirect rules not saved')).toHaveCount(0);
    await expect(source).not.toHaveAttribute('aria-invalid', 'true');

    const saved = (await (await page.request.get('/api/admin/route-rules')).json()) as unknown;
    expect(saved).toEqual({ rules: [{ source: `/old-${tag}`, target: '/sponsor', status: 302 }] });
  });

  test('keeps a message on the rule it was about when a rule above it is removed', async ({ page }) => {
    await gotoHydrated(page, '/admin/settings');
    const add = editor(page).getByRole('button', { name: 'Add rule' });
    await add.click();
    await page.getByLabel('Source of rule 1').fill('/fine');
    await page.getByLabel('Target of rule 1').fill('/sponsor');
    await add.click();
    await page.getByLabel('Source of rule 2').fill('/also-fine');
    await page.getByLabel('Target of rule 2').fill('javascript:alert(1)');
    await editor(page).getByRole('button', { name: 'Save rules' }).click();
    await expect(page.getByLabel('Target of rule 2')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Target of rule 2')).toBeFocused();

    await page.getByRole('button', { name: 'Remove rule 1' }).click();
    await expect(page.getByLabel('Source of rule 1')).toHaveValue('/also-fine');
    await expect(page.getByLabel('Target of rule 1')).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByLabel('Target of rule 1')).toHaveAccessibleDescription(
      'Target must be a path such as /new-page or an http(s) URL',
    );
    // The focus moves on to the Remove button of the rule that took the removed one's place.
    await expect(page.getByRole('button', { name: 'Remove rule 1' })).toBeFocused();
  });
});

test.describe('/admin/settings: licence signing keys', () => {
  test('lists the keys and rotates after a question: a toast, the new key current, the old one still published', async ({ page }) => {
    await signInAsAdmin(page.request);
    await gotoHydrated(page, '/admin/settings');
    const section = page.getByRole('region', { name: 'Licence signing keys' });
    const rows = section.getByRole('table', { name: 'Licence signing keys, the current one first' }).locator('tbody tr');
    await expect(rows.first().getByText('Current', { exact: true })).toBeVisible();
    const jwks = async () =>
      ((await (await page.request.get('/.well-known/hitscope-licensing-keys.json')).json()) as { keys: Array<{ kid: string }> }).keys;
    const before = (await jwks())[0].kid;
    await expect(rows.first()).toContainText(before.slice(0, 12));

    await section.getByRole('button', { name: 'Rotate signing key' }).click();
    const dialog = page.getByRole('dialog', { name: 'Rotate the licence signing key?' });
    await expect(dialog).toContainText(before.slice(0, 12));
    await dialog.getByRole('button', { name: 'Rotate signing key' }).click();
    await expect(notifications(page).getByText(/^Signing key rotated: new leases are signed with .+…$/)).toBeVisible();
    await expect(dialog).toHaveCount(0);

    const after = await jwks();
    expect(after[0].kid).not.toBe(before);
    expect(after.map((key) => key.kid)).toContain(before);
    await expect(rows.first()).toContainText(after[0].kid.slice(0, 12));
    const retired = rows.filter({ hasText: before.slice(0, 12) });
    await expect(retired.getByText('Retired, published', { exact: true })).toBeVisible();
  });
});
