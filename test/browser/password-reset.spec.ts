import { expect, type Page, test } from '@playwright/test';
import { MongoClient, ObjectId } from 'mongodb';
import { csrfToken, gotoHydrated, newCredentials, registerViaApi, waitForHydration, browserServerDatabaseUri } from './fixtures.js';

let mongo: MongoClient;
test.beforeAll(async () => {
  mongo = await MongoClient.connect(browserServerDatabaseUri());
});
test.afterAll(async () => {
  await mongo?.close();
});

/** The path of the newest reset link sent to `email` after `since` (the mail is queued just after the answer). */
async function resetLink(email: string, since: Date): Promise<string> {
  return mailedLink(email, since, /https?:\/\/[^\s"<>]+\/login\?reset=[\w-]+/);
}

/** The path and query of the first link matching `pattern` in the newest message to `email` after `since`. */
async function mailedLink(email: string, since: Date, pattern: RegExp): Promise<string> {
  let link: string | null = null;
  await expect
    .poll(
      async () => {
        const [mail] = await mongo
          .db()
          .collection('mail_outbox')
          .find({ to: email, createdAt: { $gte: since } })
          .sort({ createdAt: -1 })
          .limit(1)
          .toArray();
        const match = pattern.exec(String(mail?.text ?? ''));
        link = match ? new URL(match[0]).pathname + new URL(match[0]).search : null;
        return link;
      },
      { message: `an e-mail to ${email} with a link matching ${pattern}`, timeout: 15_000 },
    )
    .not.toBeNull();
  return link!;
}

async function submitNewPassword(page: Page, password: string) {
  await page.getByLabel('New password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Set new password' }).click();
}

test.describe('forgot and reset password', () => {
  test('requests a link from the sign-in screen, sets a new password through it and signs in with it', async ({ page, request }) => {
    const account = newCredentials('reset');
    await registerViaApi(request, account);

    await gotoHydrated(page, '/login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page).toHaveURL(/\/login\?forgot=1$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
    const since = new Date(Date.now() - 1000);
    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'If an account exists for that address, a reset link is on its way.' }),
    ).toBeVisible();

    const link = await resetLink(account.email, since);
    await gotoHydrated(page, link);
    await expect(page.getByRole('heading', { level: 1, name: 'Choose a new password' })).toBeVisible();

    const field = page.getByLabel('New password', { exact: true });
    await submitNewPassword(page, 'too short');
    await expect(page.getByText('Password must be 12 to 128 characters')).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    await submitNewPassword(page, 'password1234');
    await expect(page.getByText(/This password is too common/)).toBeVisible();
    await expect(field).toHaveAttribute('aria-invalid', 'true');

    const newPassword = `${account.password} renewed`;
    await submitNewPassword(page, newPassword);
    await expect(page.getByRole('status').filter({ hasText: 'Password changed. Sign in with your new password.' })).toBeVisible();
    await expect(page).toHaveURL(/\/login$/);

    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'E-mail or password is incorrect' })).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/lounge$/);

    // The link is single-use: opening it again says so and offers a new one.
    await page.context().clearCookies();
    await gotoHydrated(page, link);
    await submitNewPassword(page, `${newPassword} again`);
    const used = page.getByRole('alert').filter({ hasText: 'This reset link has expired or was already used: request a new one' });
    await expect(used).toBeVisible();
    await used.getByRole('link', { name: 'Request a new link' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Reset your password' })).toBeVisible();
  });

  test('an expired link shows a clear message and changes nothing', async ({ page, request }) => {
    const account = newCredentials('expired');
    const user = await registerViaApi(request, account);
    const since = new Date(Date.now() - 1000);
    const token = await csrfToken(request);
    expect(
      (await request.post('/api/auth/forgot-password', { data: { email: account.email }, headers: { 'x-csrf-token': token } })).status(),
    ).toBe(202);
    const link = await resetLink(account.email, since);
    // Reset links live 30 minutes; move this one's expiry into the past instead of waiting.
    const expired = await mongo
      .db()
      .collection('account_tokens')
      .updateMany(
        { userId: new ObjectId(user.id), purpose: 'reset-password', usedAt: null },
        { $set: { expiresAt: new Date(Date.now() - 60_000) } },
      );
    expect(expired.modifiedCount).toBe(1);

    await gotoHydrated(page, link);
    await submitNewPassword(page, `${account.password} renewed`);
    await expect(
      page.getByRole('alert').filter({ hasText: 'This reset link has expired or was already used: request a new one' }),
    ).toBeVisible();
    await expect(page).toHaveURL(link);

    const login = await request.post('/api/auth/login', {
      data: { email: account.email, password: account.password },
      headers: { 'x-csrf-token': token },
    });
    expect(login.status(), 'the old password still works').toBe(200);
  });
});

test.describe('the e-mail verification link', () => {
  test('followed while signed out, it lands on the sign-in screen, which says the address is confirmed', async ({ page, request }) => {
    const account = newCredentials('verify');
    const since = new Date(Date.now() - 1000);
    // Registered in another cookie jar, the link not followed there: the page stays signed out.
    const token = await csrfToken(request);
    expect((await request.post('/api/auth/register', { data: account, headers: { 'x-csrf-token': token } })).status()).toBe(202);
    const link = await mailedLink(account.email, since, /https?:\/\/[^\s"<>]+\/api\/auth\/verify-email\?token=[\w-]+/);

    await page.goto(link);
    await waitForHydration(page);
    await expect(page).toHaveURL('/login?verified=1');
    await expect(page.getByRole('status').filter({ hasText: 'Your e-mail address is confirmed. Sign in to continue.' })).toBeVisible();

    await page.getByLabel('E-mail', { exact: true }).fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard\/lounge$/);

    // Used once: followed again, signed in this time, it lands on the profile, which says the address is confirmed anyway.
    await page.goto(link);
    await waitForHydration(page);
    await expect(page).toHaveURL('/dashboard/user/profile?verified=0');
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: `That confirmation link has expired or was already used. ${account.email} is confirmed.` }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Send a new link' })).toHaveCount(0);
  });
});
