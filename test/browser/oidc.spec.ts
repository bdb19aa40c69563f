import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { freePort, OidcTestProvider, TEST_CLIENT } from '../support/oidc-test-provider.js';
import { waitForHydration, browserServerDatabaseUri } from './fixtures.js';

/**
 * The shared browser server has no OpenID Connect provider, so this suite runs its own: a real
 * oidc-provider on loopback and a second instance of the production build configured for it, on a
 * free port, with a database of its own on the browser server's database server (its URI is in
 * the file test/support/browser-server.mjs writes). Both are stopped, and the database dropped,
 * at the end.
 */
test.describe.configure({ mode: 'serial' });

const DISPLAY_NAME = 'Test IdP';
const root = process.cwd();
let provider: OidcTestProvider;
let app: ChildProcess | null = null;
let origin = '';
let databaseUri = '';

async function waitUntilReady(url: string, child: ChildProcess, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the OIDC app exited with code ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the OIDC app did not become ready at ${url}`);
}

test.beforeAll(async () => {
  test.setTimeout(90_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  provider = new OidcTestProvider();
  const issuer = await provider.start(`${origin}/api/auth/oidc/callback`);

  const database = new URL(browserServerDatabaseUri());
  database.pathname = `/hitscope_browser_oidc_${randomBytes(3).toString('hex')}`;
  databaseUri = database.toString();
  app = spawn(process.execPath, [join(root, 'dist/app/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      MONGODB_URI: databaseUri,
      // 'error': the cancel test makes the app warn about the refused code exchange, as it should.
      LOG_LEVEL: 'error',
      RATE_LIMIT_MULTIPLIER: '1000',
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
      OIDC_DISPLAY_NAME: DISPLAY_NAME,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  await waitUntilReady(`${origin}/health/ready`, app);
});

test.afterAll(async () => {
  if (app && app.exitCode === null && app.signalCode === null) {
    const child = app;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
    });
  }
  await provider?.stop();
  if (databaseUri) {
    const mongo = await MongoClient.connect(databaseUri);
    await mongo
      .db()
      .dropDatabase()
      .catch(() => undefined);
    await mongo.close();
  }
});

test('the sign-in screen offers "Continue with {provider}", which signs in through the provider and lands on the dashboard', async ({
  page,
}) => {
  provider.accounts.set('olivia', { email: 'olivia@idp.test', email_verified: true, name: 'Olivia Provider' });
  provider.nextLogin = 'olivia';
  await page.goto(`${origin}/login`);
  await waitForHydration(page);
  const button = page.getByRole('link', { name: `Continue with ${DISPLAY_NAME}` });
  await expect(button).toBeVisible();
  await expect(page.getByText('or use your e-mail')).toBeVisible();

  const toProvider = page.waitForRequest((request) => request.url().startsWith(`${provider.issuer}/auth`));
  await button.click();
  await toProvider; // a real round trip through the provider, not a shortcut
  await expect(page).toHaveURL(`${origin}/dashboard/lounge`);
  await waitForHydration(page);
  await expect(page.getByText('Olivia Provider').first()).toBeVisible();
  const me = await page.request.get(`${origin}/api/auth/me`);
  expect(await me.json()).toMatchObject({ email: 'olivia@idp.test', name: 'Olivia Provider', role: 'user' });
});

test('the registration screen offers the same button; a new person gets an account and lands on the dashboard', async ({ page }) => {
  provider.accounts.set('ravi', { email: 'ravi@idp.test', email_verified: true, name: 'Ravi Newcomer' });
  provider.nextLogin = 'ravi';
  await page.goto(`${origin}/register`);
  await waitForHydration(page);
  await expect(page.getByRole('heading', { level: 1, name: 'Create your account' })).toBeVisible();
  await page.getByRole('link', { name: `Continue with ${DISPLAY_NAME}` }).click();
  await expect(page).toHaveURL(`${origin}/dashboard/lounge`);
  const me = await page.request.get(`${origin}/api/auth/me`);
  expect(await me.json()).toMatchObject({ email: 'ravi@idp.test', name: 'Ravi Newcomer' });
});

test('an account made through the provider has no password: the profile says so, and deleting it asks only for DELETE', async ({
  page,
}) => {
  provider.accounts.set('petra', { email: 'petra@idp.test', email_verified: true, name: 'Petra Passwordless' });
  provider.nextLogin = 'petra';
  await page.goto(`${origin}/login`);
  await waitForHydration(page);
  await page.getByRole('link', { name: `Continue with ${DISPLAY_NAME}` }).click();
  await expect(page).toHaveURL(`${origin}/dashboard/lounge`);

  await page.goto(`${origin}/dashboard/user/profile`);
  await waitForHydration(page);
  const password = page.getByRole('region', { name: 'Password' });
  await expect(password).toContainText('this account has no password');
  await expect(password.getByRole('button', { name: 'E-mail me a link to set a password' })).toBeVisible();
  await expect(page.getByLabel('Current password')).toHaveCount(0);
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme, reducedMotion: 'reduce' });
    mkdirSync(join(root, 'test-results', 'screenshots'), { recursive: true });
    await password.screenshot({
      path: join(root, 'test-results', 'screenshots', `profile-no-password-${scheme}.png`),
      animations: 'disabled',
    });
  }

  await page.getByRole('button', { name: 'Delete my account…' }).click();
  const form = page.getByRole('form', { name: 'Delete account' });
  await expect(form).toContainText('within 10 minutes of signing in');
  await form.getByLabel('Type DELETE').fill('DELETE');
  await form.getByRole('button', { name: 'Delete account' }).click();
  await expect(page).toHaveURL(`${origin}/`);
  expect((await page.request.get(`${origin}/api/auth/me`)).status()).toBe(401);
});

test('cancelling at the provider comes back to the sign-in screen with the reason', async ({ page }) => {
  provider.nextLogin = null;
  await page.goto(`${origin}/login`);
  await waitForHydration(page);
  await page.getByRole('link', { name: `Continue with ${DISPLAY_NAME}` }).click();
  await expect(page).toHaveURL(/\/login\?oidc_error=/);
  await expect(page.getByRole('alert').filter({ hasText: `Signing in with ${DISPLAY_NAME} did not work. Try again.` })).toBeVisible();
  await expect(page.getByRole('link', { name: `Continue with ${DISPLAY_NAME}` })).toBeVisible();
});
