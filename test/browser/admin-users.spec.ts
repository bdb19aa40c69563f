import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type APIRequestContext, expect, type Page, request as playwrightRequest, test } from '@playwright/test';
import { gotoHydrated, loginViaApi, registerViaApi, signInAsAdmin, signUp } from './fixtures.js';

const SCREENSHOTS = join(process.cwd(), 'test-results', 'screenshots');

/** A tag unique to one test, in the names and e-mails of the accounts it creates (the database is shared). */
const newTag = () => `t${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;

interface Account {
  name: string;
  email: string;
  password: string;
}

/** Registers accounts one after another (so "Joined" orders them), each in a cookie jar of its own. */
async function createAccounts(baseURL: string, tag: string, count: number, name = (n: string) => `${tag} Person ${n}`): Promise<Account[]> {
  const accounts: Account[] = [];
  for (let index = 1; index <= count; index++) {
    const n = String(index).padStart(2, '0');
    const account = { name: name(n), email: `${tag}-${n}@hitscope.test`, password: `admin users suite ${tag} passphrase` };
    const context = await playwrightRequest.newContext({ baseURL });
    await registerViaApi(context, account);
    await context.dispose();
    accounts.push(account);
  }
  return accounts;
}

const rows = (page: Page) => page.locator('.admin-users__table tbody tr');
const names = (page: Page) => page.locator('.admin-users__table tbody .admin-users__name');
const summary = (page: Page) => page.locator('#admin-users-summary');
const toast = (page: Page, text: string) => page.getByRole('region', { name: 'Notifications' }).getByText(text, { exact: true });

async function openAsAdmin(page: Page, path = '/admin/users') {
  await signInAsAdmin(page.request);
  await gotoHydrated(page, path);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
}

async function search(page: Page, text: string) {
  await page.getByRole('searchbox', { name: 'Search' }).fill(text);
}

test.describe('/admin/users', () => {
  test('searches by e-mail, sorts by name both ways and pages through the results', async ({ page, baseURL }) => {
    const tag = newTag();
    await createAccounts(baseURL!, tag, 21);
    await openAsAdmin(page);

    await search(page, `${tag}-07@hitscope.test`);
    await expect(page).toHaveURL(new RegExp(`q=${tag}-07%40hitscope.test`));
    await expect(rows(page)).toHaveCount(1);
    await expect(names(page)).toHaveText([`${tag} Person 07`]);
    await expect(summary(page)).toHaveText('Showing 1–1 of 1');

    await search(page, `${tag}-`);
    await expect(summary(page)).toHaveText('Showing 1–20 of 21');
    await expect(page.getByText('Page 1 of 2')).toBeVisible();
    // Newest first by default.
    await expect(names(page).first()).toHaveText(`${tag} Person 21`);

    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'ascending');
    await expect(names(page).first()).toHaveText(`${tag} Person 01`);
    await expect(page).toHaveURL(/sort=name/);
    await page.getByRole('button', { name: /^Name/ }).click();
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'descending');
    await expect(names(page).first()).toHaveText(`${tag} Person 21`);

    await page.getByRole('button', { name: 'Next' }).click();
    await expect(summary(page)).toHaveText('Showing 21–21 of 21');
    await expect(page.getByText('Page 2 of 2')).toBeVisible();
    await expect(names(page)).toHaveText([`${tag} Person 01`]);
    await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
    await expect(page).toHaveURL(/page=2/);

    // The list state lives in the URL: Back returns to page 1, a reload keeps it.
    await page.goBack();
    await expect(summary(page)).toHaveText('Showing 1–20 of 21');
    await page.reload();
    await expect(names(page).first()).toHaveText(`${tag} Person 21`);
    await expect(page.getByRole('columnheader', { name: /^Name/ })).toHaveAttribute('aria-sort', 'descending');

    await page.getByLabel('Per page').selectOption('50');
    await expect(summary(page)).toHaveText('Showing 1–21 of 21');
    await expect(rows(page)).toHaveCount(21);

    await search(page, `${tag}-nobody`);
    await expect(page.getByRole('heading', { name: 'No users match' })).toBeVisible();
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
  });

  test('changes a role, disables and enables, signs out everywhere, each with its toast, the table and the audit log following', async ({
    page,
    baseURL,
  }) => {
    const tag = newTag();
    const [target] = await createAccounts(baseURL!, tag, 1, () => `${tag} Target`);
    await openAsAdmin(page);
    await search(page, target.email);
    await expect(rows(page)).toHaveCount(1);
    const row = rows(page).first();
    await expect(row.getByText('User', { exact: true })).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();

    await page.getByRole('button', { name: `Manage ${target.name}` }).click();
    const dialog = page.getByRole('dialog', { name: target.name });
    await expect(dialog).toBeVisible();
    await expect(dialog.getByText('No admin actions on this account yet.')).toBeVisible();

    // Role
    await dialog.getByLabel('Role', { exact: true }).selectOption('admin');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Make admin' }).click();
    await expect(toast(page, `${target.name} is now an admin`)).toBeVisible();
    await expect(row.getByText('Admin', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Role changed from user to admin')).toBeVisible();

    // Disable: the account's one session ends
    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Disable account' }).click();
    await expect(toast(page, `${target.name} is disabled; 1 session ended`)).toBeVisible();
    await expect(row.getByText('Disabled', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Disabled; 1 session ended')).toBeVisible();
    const refused = await playwrightRequest.newContext({ baseURL });
    const token = (await (await refused.get('/api/auth/csrf')).json()) as { token: string };
    expect(
      (
        await refused.post('/api/auth/login', {
          data: { email: target.email, password: target.password },
          headers: { 'x-csrf-token': token.token },
        })
      ).status(),
    ).toBe(403);
    await refused.dispose();

    // Enable
    await dialog.getByRole('button', { name: 'Enable account' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Enable account' }).click();
    await expect(toast(page, `${target.name} is enabled and can sign in again`)).toBeVisible();
    await expect(row.getByText('Active', { exact: true })).toBeVisible();
    await expect(dialog.getByText('Enabled', { exact: true })).toBeVisible();

    // Sign out everywhere: two browsers signed in
    const browsers: APIRequestContext[] = [];
    for (let index = 0; index < 2; index++) {
      const context = await playwrightRequest.newContext({ baseURL });
      await loginViaApi(context, target);
      browsers.push(context);
    }
    await dialog.getByRole('button', { name: 'Close user details' }).click();
    await page.getByRole('button', { name: `Manage ${target.name}` }).click();
    await expect(dialog.getByText('2 active sessions (browsers and devices signed in).')).toBeVisible();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(toast(page, `${target.name} is signed out everywhere (2 sessions ended)`)).toBeVisible();
    await expect(dialog.getByText('No active sessions: signed out everywhere.')).toBeVisible();
    for (const context of browsers) {
      expect((await context.get('/api/auth/me')).status()).toBe(401);
      await context.dispose();
    }

    const activity = dialog.getByRole('region', { name: 'Recent activity' }).locator('.admin-users__audit-what');
    await expect(activity).toHaveText([
      'Signed out everywhere (2 sessions ended)',
      'Enabled',
      'Disabled; 1 session ended',
      'Role changed from user to admin',
    ]);
    await expect(
      dialog
        .getByRole('region', { name: 'Recent activity' })
        .getByText(/^by you ·/)
        .first(),
    ).toBeVisible();

    // Filters by role and status find the account; Escape closes the panel and gives the focus back.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: `Manage ${target.name}` })).toBeFocused();
    await search(page, tag);
    await page.getByLabel('Role', { exact: true }).selectOption('admin');
    await expect(page).toHaveURL(/role=admin/);
    await expect(names(page)).toHaveText([target.name]);
    await page.getByLabel('Role', { exact: true }).selectOption('user');
    await expect(page.getByRole('heading', { name: 'No users match' })).toBeVisible();
    await page.getByLabel('Role', { exact: true }).selectOption('');
    await page.getByLabel('Status', { exact: true }).selectOption('disabled');
    await expect(page.getByRole('heading', { name: 'No users match' })).toBeVisible();
    await page.getByLabel('Status', { exact: true }).selectOption('active');
    await expect(names(page)).toHaveText([target.name]);
  });

  test('keeps a filter picked while the debounced search is still navigating', async ({ page, baseURL }) => {
    const tag = newTag();
    await createAccounts(baseURL!, tag, 2);
    await openAsAdmin(page);
    // Hold the navigation the search starts (its loader asks /api/route-rules first) so the filter
    // is picked while the URL still shows the list before the search.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/route-rules?*', async (route) => {
      await held;
      await route.continue();
    });
    const searching = page.waitForRequest(/\/api\/route-rules\?path=%2Fadmin%2Fusers%3Fq%3D/);
    await search(page, tag);
    await searching;
    await page.getByLabel('Role', { exact: true }).selectOption('user');
    release();
    await expect(page).toHaveURL(new RegExp(`[?&]q=${tag}(&|$)`));
    await expect(page).toHaveURL(/[?&]role=user(&|$)/);
    await expect(rows(page)).toHaveCount(2);
    await expect(page.getByRole('searchbox', { name: 'Search' })).toHaveValue(tag);
  });

  test('names sort buttons and session counts in plain words', async ({ page, baseURL }) => {
    const tag = newTag();
    const [target] = await createAccounts(baseURL!, tag, 1, () => `${tag} Single`);
    await openAsAdmin(page);
    await search(page, target.email);
    await expect(rows(page)).toHaveCount(1);
    await expect(page.getByRole('button', { name: 'Name, sort ascending', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Joined, sort ascending', exact: true })).toBeVisible();

    await page.getByRole('button', { name: `Manage ${target.name}` }).click();
    const dialog = page.getByRole('dialog', { name: target.name });
    // Registering signed the account in once.
    await expect(dialog.getByText('1 active session (a browser or device signed in).', { exact: true })).toBeVisible();
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(dialog.getByRole('group')).toHaveAccessibleName(
      `Sign ${target.name} out everywhere? 1 active session will end; they can sign in again.`,
    );
  });

  test('after a refusal or a success in the user panel the focus stays where the admin was working, never on a destructive button', async ({
    page,
    baseURL,
  }) => {
    const tag = newTag();
    const [target] = await createAccounts(baseURL!, tag, 1, () => `${tag} Focus`);
    await openAsAdmin(page);
    const focused = () => page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');

    // The last-admin refusal, on the admin's own account: answered by a stand-in for the server,
    // since other tests share this database and may have made more admins.
    await page.route('**/api/admin/users/*/role', (route) =>
      route.fulfill({
        status: 409,
        contentType: 'application/json',
        body: JSON.stringify({
          statusCode: 409,
          error: 'Conflict',
          code: 'LAST_ADMIN',
          message: 'Hitscope needs at least one active admin. Make another user an admin first.',
        }),
      }),
    );
    await search(page, 'admin@hitscope.test');
    await page.getByRole('button', { name: 'Manage Browser Admin' }).click();
    const own = page.getByRole('dialog', { name: 'Browser Admin' });
    await own.getByLabel('Role', { exact: true }).selectOption('user');
    await own.getByRole('button', { name: 'Change role' }).click();
    await own.getByRole('group').getByRole('button', { name: 'Remove admin role' }).click();
    const access = own.getByRole('region', { name: 'Access' });
    await expect(access.getByRole('alert')).toHaveText('Hitscope needs at least one active admin. Make another user an admin first.');
    await expect(own.getByLabel('Role', { exact: true })).toBeFocused();
    await expect(own.getByLabel('Role', { exact: true })).toHaveValue('admin');
    await expect(own.getByRole('button', { name: 'Sign out everywhere' })).not.toBeFocused();
    await page.unroute('**/api/admin/users/*/role');
    await page.keyboard.press('Escape');
    await expect(own).toBeHidden();

    // Successes on another account.
    await search(page, target.email);
    await expect(rows(page)).toHaveCount(1);
    await page.getByRole('button', { name: `Manage ${target.name}` }).click();
    const dialog = page.getByRole('dialog', { name: target.name });
    await expect(dialog.getByText('No admin actions on this account yet.')).toBeVisible();

    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(toast(page, `${target.name} is signed out everywhere (1 session ended)`)).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Sessions' })).toBeFocused();

    await dialog.getByRole('button', { name: 'Disable account' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Disable account' }).click();
    await expect(toast(page, `${target.name} is disabled`)).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Access' })).toBeFocused();

    await dialog.getByRole('button', { name: 'Enable account' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Enable account' }).click();
    await expect(toast(page, `${target.name} is enabled and can sign in again`)).toBeVisible();
    await expect(dialog.getByRole('heading', { name: 'Access' })).toBeFocused();
    expect(await focused()).not.toBe('Disable account');

    await dialog.getByLabel('Role', { exact: true }).selectOption('admin');
    await dialog.getByRole('button', { name: 'Change role' }).click();
    await dialog.getByRole('group').getByRole('button', { name: 'Make admin' }).click();
    await expect(toast(page, `${target.name} is now an admin`)).toBeVisible();
    await expect(dialog.getByLabel('Role', { exact: true })).toBeFocused();

    // Escape backs out of a question first (the focus goes back to the button that asked it), then closes the panel.
    await dialog.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(dialog.getByRole('group')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(dialog.getByRole('group')).toBeHidden();
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('button', { name: 'Sign out everywhere' })).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
  });

  test('sends a signed-in user who is not an admin to the lounge', async ({ page }) => {
    await signUp(page.request, 'not-admin');
    await page.goto('/admin/users');
    await expect(page).toHaveURL(/\/dashboard\/lounge$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toHaveCount(0);
  });

  for (const scheme of ['light', 'dark'] as const) {
    test(`screenshots in ${scheme} mode, list and details panel (for review)`, async ({ page, baseURL }) => {
      mkdirSync(SCREENSHOTS, { recursive: true });
      const tag = newTag();
      await createAccounts(baseURL!, tag, 3);
      await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
      await openAsAdmin(page);
      await search(page, tag);
      await expect(rows(page)).toHaveCount(3);
      await page.screenshot({ path: join(SCREENSHOTS, `admin-users-${scheme}.png`), fullPage: true, animations: 'disabled' });
      await page.getByRole('button', { name: `Manage ${tag} Person 01` }).click();
      await expect(page.getByRole('dialog').getByText('No admin actions on this account yet.')).toBeVisible();
      await page.screenshot({ path: join(SCREENSHOTS, `admin-users-panel-${scheme}.png`), animations: 'disabled' });
      await page.setViewportSize({ width: 390, height: 844 });
      await page.keyboard.press('Escape');
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.screenshot({ path: join(SCREENSHOTS, `admin-users-phone-${scheme}.png`), fullPage: true, animations: 'disabled' });
    });
  }
});
