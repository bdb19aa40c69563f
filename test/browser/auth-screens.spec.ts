import { expect, test } from '@playwright/test';
import { gotoHydrated, newCredentials, registerViaApi, signUp } from './fixtures.js';

test.describe('registration and sign-in screens', () => {
  test('a short password is refused with a field error next to the password', async ({ page }) => {
    await gotoHydrated(page, '/register');
    const credentials = newCredentials('short');
    await page.getByLabel('Name').fill(credentials.name);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill('too-short');
    await page.getByRole('checkbox', { name: /I accept the terms/ }).check();

    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    const response = await answer;
    expect(response.status()).toBe(400);
    expect(((await response.json()) as { fields?: Record<string, string[]> }).fields?.password?.length).toBeGreaterThan(0);

    const password = page.getByLabel('Password');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(password).toHaveAccessibleDescription(/Password must be 12 to 128 characters/);
    await expect(page.getByRole('alert')).toHaveText('Password must be 12 to 128 characters');
    await expect(page.getByLabel('E-mail')).not.toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL('/register');
  });

  test('an e-mail address that is already registered is refused next to the e-mail field', async ({ page, request }) => {
    const existing = newCredentials('taken');
    await registerViaApi(request, existing);

    await gotoHydrated(page, '/register');
    await page.getByLabel('Name').fill('Someone Else');
    await page.getByLabel('E-mail').fill(existing.email);
    await page.getByLabel('Password').fill('another long passphrase');
    await page.getByRole('checkbox', { name: /I accept the terms/ }).check();

    const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/register');
    await page.getByRole('button', { name: 'Create account' }).click();
    expect((await answer).status()).toBe(409);

    const email = page.getByLabel('E-mail');
    await expect(email).toHaveAttribute('aria-invalid', 'true');
    await expect(email).toHaveAccessibleDescription('An account with this e-mail address already exists');
    await expect(page).toHaveURL('/register');
  });

  test('the terms must be accepted before anything is sent', async ({ page }) => {
    await gotoHydrated(page, '/register');
    let sent = false;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/register') sent = true;
    });
    const credentials = newCredentials('terms');
    await page.getByLabel('Name').fill(credentials.name);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page.getByRole('alert')).toHaveText('Accept the terms to create an account.');
    expect(sent).toBe(false);
  });

  test('a wrong password shows an error on the sign-in screen', async ({ page, request }) => {
    const credentials = newCredentials('wrongpw');
    await registerViaApi(request, credentials);
    await gotoHydrated(page, '/login');
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill('not the right passphrase');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page).toHaveURL('/login');
  });

  test('the redirect target survives the way from /login to /register and is honoured', async ({ page }) => {
    await gotoHydrated(page, '/login?redirect=%2Fdashboard%2Fuser%2Fprofile');
    const register = page.getByRole('link', { name: 'Create an account' });
    await expect(register).toHaveAttribute('href', '/register?redirect=%2Fdashboard%2Fuser%2Fprofile');
    await register.click();
    await expect(page).toHaveURL('/register?redirect=%2Fdashboard%2Fuser%2Fprofile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
    // …and back again.
    await expect(page.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/login?redirect=%2Fdashboard%2Fuser%2Fprofile');

    const credentials = newCredentials('redirect');
    await page.getByLabel('Name').fill(credentials.name);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect(page).toHaveURL('/dashboard/user/profile');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Profile');
  });

  test('an off-site redirect target is ignored after sign-in', async ({ page, request }) => {
    const credentials = newCredentials('offsite');
    await registerViaApi(request, credentials);
    await gotoHydrated(page, '/login?redirect=%2F%2Fevil.example%2Fphish');
    await expect(page.getByRole('link', { name: 'Create an account' })).toHaveAttribute('href', '/register');
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByLabel('Password').fill(credentials.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page).toHaveURL('/dashboard/lounge');
  });
});

test.describe('sign out', () => {
  test('/logout ends the session on the server', async ({ page }) => {
    await signUp(page.request, 'logout');
    expect((await page.request.get('/api/auth/me')).status()).toBe(200);

    await page.goto('/logout');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Signed out');

    expect((await page.request.get('/api/auth/me')).status()).toBe(401);
    const response = await page.goto('/dashboard/lounge');
    expect(response?.ok()).toBe(true);
    await expect(page).toHaveURL('/login?redirect=%2Fdashboard%2Flounge');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sign in to Hitscope');
  });
});
