import { expect, test } from '@playwright/test';
import { confirmationLinkFor, gotoHydrated, newCredentials, registerViaApi, signUp, waitForHydration } from './fixtures.js';

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

  test('registering a taken address looks exactly like registering a new one: check your inbox', async ({ page, request }) => {
    const existing = newCredentials('taken');
    await registerViaApi(request, existing);
    const register = async (email: string) => {
      await gotoHydrated(page, '/register');
      await page.getByLabel('Name').fill('Someone Else');
      await page.getByLabel('E-mail').fill(email);
      await page.getByLabel('Password').fill('another long passphrase');
      await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
      const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/api/auth/register');
      await page.getByRole('button', { name: 'Create account' }).click();
      expect((await answer).status()).toBe(202);
      await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeFocused();
      return (await page.locator('main').innerText()).replaceAll(email, '<address>');
    };
    const taken = await register(existing.email);
    const fresh = await register(newCredentials('fresh').email);
    expect(taken).toBe(fresh);
    await expect(page.getByRole('status')).toContainText('Follow it to confirm your address');
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

  test('an empty form with the terms unchecked shows every problem at once, and sends nothing', async ({ page }) => {
    await gotoHydrated(page, '/register');
    let sent = false;
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/api/auth/register') sent = true;
    });
    await page.getByRole('button', { name: 'Create account' }).click();

    const expected = [
      [page.getByLabel('Name'), 'Enter your name'],
      [page.getByLabel('E-mail'), 'Enter your e-mail address'],
      [page.getByLabel('Password'), /^At least 12 characters\. .* Enter a password$/],
      [page.getByRole('checkbox', { name: /I accept the terms/ }), 'Accept the terms to create an account.'],
    ] as const;
    for (const [field, description] of expected) {
      await expect(field).toHaveAttribute('aria-invalid', 'true');
      await expect(field).toHaveAccessibleDescription(description);
    }
    await expect(page.getByRole('alert')).toHaveCount(expected.length);
    expect(sent).toBe(false);
  });

  test('an empty password gets one clear message, without the common-password verdict glued to it', async ({ page }) => {
    await gotoHydrated(page, '/register');
    const credentials = newCredentials('nopassword');
    await page.getByLabel('Name').fill(credentials.name);
    await page.getByLabel('E-mail').fill(credentials.email);
    await page.getByRole('checkbox', { name: /I accept the terms/ }).check();
    await page.getByRole('button', { name: 'Create account' }).click();

    const password = page.getByLabel('Password');
    await expect(password).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByRole('alert')).toHaveText('Enter a password');
    await expect(password).not.toHaveAccessibleDescription(/too common|12 to 128/);
  });

  test('the terms of service are a page of their own, linked from the terms checkbox', async ({ page }) => {
    await gotoHydrated(page, '/register');
    const link = page.getByRole('link', { name: 'terms of service' });
    await expect(link).toHaveAttribute('href', '/terms');
    await link.click();
    await expect(page).toHaveURL('/terms');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of service');
    await expect(page).toHaveTitle('Terms of service — Hitscope');
    const contents = page.getByRole('navigation', { name: 'On this page' });
    await contents.getByRole('link', { name: 'Licences for the companion products' }).click();
    await expect(page.getByRole('heading', { level: 2, name: 'Licences for the companion products' })).toBeInViewport();
  });

  test('registration makes the same promise about the free tools as the home page', async ({ page }) => {
    await gotoHydrated(page, '/register');
    await expect(page.getByText('Four analytics debugging tools, free with your account.')).toBeVisible();
    await expect(page.locator('main')).not.toContainText(/evaluat/);
    await gotoHydrated(page, '/');
    await expect(page.getByText('The four web tools are free with an account')).toBeVisible();
    await expect(page.locator('main')).not.toContainText(/stay free|evaluat/);
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
    await expect(page.getByRole('heading', { name: 'Check your inbox' })).toBeVisible();
    // The link from the e-mail, opened in this browser: signed in, where the visitor was going.
    await page.goto(await confirmationLinkFor(credentials.email));
    await waitForHydration(page);
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

  test('an anonymous visit to /logout says there was no session to end', async ({ page }) => {
    await gotoHydrated(page, '/logout');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('You were not signed in');
    await expect(page.locator('main')).toContainText('There was no session to end on this device.');
    await expect(page.locator('main')).not.toContainText('Your session has ended');
    await expect(page.getByRole('link', { name: 'Sign in', exact: true })).toHaveAttribute('href', '/login');
  });
});
