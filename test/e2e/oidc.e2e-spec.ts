import { MongoClient, ObjectId } from 'mongodb';
import type { RunningApp } from '../../src/app.factory.js';
import { SESSION_CACHE_MS } from '../../src/auth/sessions.service.js';
import { confirmationLinkFor, e2eUrl, PASSWORD } from '../support/e2e.js';
import { freePort, OidcTestProvider, TEST_CLIENT, TestBrowser } from '../support/oidc-test-provider.js';
import { testDatabaseUri } from '../support/test-database.js';
import { startInstance, type TestInstance } from '../support/test-instance.js';

const CALLBACK = '/api/auth/oidc/callback';

describe('sign-in with an OpenID Connect provider (real oidc-provider on loopback)', () => {
  let provider: OidcTestProvider;
  let hitscope: RunningApp;
  let app: string;
  let mongo: MongoClient;
  let mongodbUri: string;
  const users = () => mongo.db().collection('users');
  const identities = () => mongo.db().collection('oidc_identities');

  beforeAll(async () => {
    const port = await freePort();
    app = `http://127.0.0.1:${port}`;
    provider = new OidcTestProvider();
    const issuer = await provider.start(`${app}${CALLBACK}`);
    mongodbUri = testDatabaseUri('oidc');
    // A real loopback port, known before the app starts: the provider redirects browsers to it.
    ({ running: hitscope } = await startInstance(
      mongodbUri,
      {
        ADMIN_EMAILS: 'boss@idp.test',
        OIDC_ISSUER: issuer,
        OIDC_CLIENT_ID: TEST_CLIENT.id,
        OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
        OIDC_DISPLAY_NAME: 'Test IdP',
      },
      port,
    ));
    mongo = await MongoClient.connect(mongodbUri);
  }, 60_000);
  afterAll(async () => {
    await hitscope?.close();
    await provider?.stop();
    await mongo?.close();
  });

  /** One provider sign-in in a fresh browser, as `subject`; returns the browser and where it landed. */
  async function signInAs(subject: string | null, startPath = '/api/auth/oidc/start') {
    provider.nextLogin = subject;
    const browser = new TestBrowser();
    const landing = await browser.follow(`${app}${startPath}`, app);
    return { browser, landing: landing.pathname + landing.search };
  }

  async function me(browser: TestBrowser) {
    const response = await browser.request(`${app}/api/auth/me`);
    return { status: response.status, body: (await response.json()) as { id: string; email: string; name: string; role: string } };
  }

  /** A local account made through the form and confirmed by its link, signed in in `browser`. */
  async function register(email: string) {
    const { browser, user } = await registerUnconfirmed(email);
    const confirmed = await browser.request(`${app}${await confirmationLinkFor(email, mongodbUri)}`);
    expect(confirmed.status).toBe(302);
    expect((await me(browser)).status).toBe(200);
    const { token } = (await (await browser.request(`${app}/api/auth/csrf`)).json()) as { token: string };
    return { browser, token, user };
  }

  /** A local account made through the form whose link was never followed. */
  async function registerUnconfirmed(email: string) {
    const browser = new TestBrowser();
    const { token } = (await (await browser.request(`${app}/api/auth/csrf`)).json()) as { token: string };
    const response = await browser.request(`${app}/api/auth/register`, {
      method: 'POST',
      headers: { 'x-csrf-token': token },
      body: { name: 'Local Person', email, password: PASSWORD },
    });
    expect(response.status).toBe(202);
    const stored = await users().findOne({ email });
    return { browser, user: { id: stored!._id.toString() } };
  }

  async function passwordLogin(email: string, password = PASSWORD): Promise<number> {
    const browser = new TestBrowser();
    const { token } = (await (await browser.request(`${app}/api/auth/csrf`)).json()) as { token: string };
    const response = await browser.request(`${app}/api/auth/login`, {
      method: 'POST',
      headers: { 'x-csrf-token': token },
      body: { email, password },
    });
    return response.status;
  }

  it('redirects to the provider with PKCE S256, state and nonce, kept in a sealed httpOnly SameSite=Lax cookie', async () => {
    const browser = new TestBrowser();
    const response = await browser.request(`${app}/api/auth/oidc/start`);
    expect(response.status).toBe(302);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const authorization = new URL(response.headers.get('location')!);
    expect(authorization.origin).toBe(provider.issuer);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      client_id: TEST_CLIENT.id,
      response_type: 'code',
      redirect_uri: `${app}${CALLBACK}`,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      code_challenge: expect.stringMatching(/^[\w-]{43}$/),
      state: expect.stringMatching(/^[\w-]{20,}$/),
      nonce: expect.stringMatching(/^[\w-]{20,}$/),
    });
    const cookie = browser.setCookies.find((header) => header.startsWith('hs_oidc='))!;
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\/api\/auth\/oidc/);
    // Sealed: neither the state nor the verifier can be read from the cookie.
    expect(decodeURIComponent(cookie)).not.toContain(authorization.searchParams.get('state')!);
  });

  it('creates a new account for a verified e-mail, signs it in and links the subject', async () => {
    provider.accounts.set('new-person', { email: 'Nina.New@IdP.test', email_verified: true, name: 'Nina New' });
    const { browser, landing } = await signInAs('new-person');
    expect(landing).toBe('/dashboard/lounge');
    const session = await me(browser);
    expect(session).toEqual({
      status: 200,
      body: { id: expect.any(String), email: 'nina.new@idp.test', name: 'Nina New', role: 'user', avatarUrl: null, colorMode: 'system' },
    });

    const stored = await users().findOne({ email: 'nina.new@idp.test' });
    expect(stored?.emailVerifiedAt).toBeInstanceOf(Date);
    expect(stored?.passwordHash).toMatch(/^\$argon2id\$/); // unusable: a hash of random bytes nobody knows
    const link = await identities().findOne({ subject: 'new-person' });
    expect(link).toMatchObject({ issuer: provider.issuer, userId: new ObjectId(session.body.id) });
    expect(browser.cookie(app, 'hs_oidc')).toBeUndefined(); // single use
  });

  it('gives the ADMIN_EMAILS role to a new account, like registration', async () => {
    provider.accounts.set('boss', { email: 'boss@idp.test', email_verified: true, name: 'Boss' });
    const { browser } = await signInAs('boss');
    expect((await me(browser)).body.role).toBe('admin');
  });

  it('links an existing account with the same verified e-mail; its password keeps working', async () => {
    const { user } = await register('linda.local@example.test');
    await users().updateOne({ _id: new ObjectId(user.id) }, { $set: { emailVerifiedAt: new Date() } });
    provider.accounts.set('linda', { email: 'LINDA.local@example.test', email_verified: true, name: 'Linda at the IdP' });

    const { browser, landing } = await signInAs('linda');
    expect(landing).toBe('/dashboard/lounge');
    expect((await me(browser)).body).toMatchObject({ id: user.id, email: 'linda.local@example.test', name: 'Local Person' });
    expect(await users().countDocuments({ email: 'linda.local@example.test' })).toBe(1);
    expect(await identities().countDocuments({ userId: new ObjectId(user.id) })).toBe(1);
    expect(await passwordLogin('linda.local@example.test')).toBe(200);
  });

  it('lists linked identities in the data export (issuer, subject, dates; no tokens) and removes them with the account', async () => {
    const { browser: local, token, user } = await register('erin.export@example.test');
    await users().updateOne({ _id: new ObjectId(user.id) }, { $set: { emailVerifiedAt: new Date() } });
    provider.accounts.set('erin', { email: 'erin.export@example.test', email_verified: true, name: 'Erin' });
    const { browser } = await signInAs('erin');
    expect((await me(browser)).body.id).toBe(user.id);

    const exported = (await (await local.request(`${app}/api/profile/export`)).json()) as { linkedIdentities: unknown[] };
    expect(exported.linkedIdentities).toEqual([
      {
        issuer: provider.issuer,
        subject: 'erin',
        linkedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        lastSignInAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      },
    ]);
    expect(JSON.stringify(exported)).not.toMatch(/id_token|access_token|refresh|secret|passwordHash|argon2/i);

    const deleted = await local.request(`${app}/api/profile`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': token },
      body: { currentPassword: PASSWORD, confirm: 'DELETE' },
    });
    expect(deleted.status).toBe(204);
    expect(await users().countDocuments({ _id: new ObjectId(user.id) })).toBe(0);
    expect(await identities().countDocuments({ userId: new ObjectId(user.id) })).toBe(0);
    expect(await identities().countDocuments({ subject: 'erin' })).toBe(0);
  });

  it('claims an account whose e-mail was never verified: the old password and its sessions stop working', async () => {
    // Somebody registered this address first and never confirmed it (account pre-hijacking).
    const { browser: squatter, user } = await registerUnconfirmed('victim@example.test');
    provider.accounts.set('victim', { email: 'victim@example.test', email_verified: true, name: 'Real Owner' });

    const { browser, landing } = await signInAs('victim');
    expect(landing).toBe('/dashboard/lounge');
    expect((await me(browser)).body.id).toBe(user.id);
    expect((await me(squatter)).status).toBe(401);
    expect(await passwordLogin('victim@example.test')).toBe(401);
    expect((await users().findOne({ _id: new ObjectId(user.id) }))?.emailVerifiedAt).toBeInstanceOf(Date);
  });

  it('lets an account without a password delete itself within 10 minutes of a provider sign-in, not later', async () => {
    provider.accounts.set('pat', { email: 'pat.passwordless@idp.test', email_verified: true, name: 'Pat' });
    const { browser } = await signInAs('pat');
    const profile = (await (await browser.request(`${app}/api/profile`)).json()) as { id: string; hasPassword: boolean };
    expect(profile.hasPassword).toBe(false);
    const token = ((await (await browser.request(`${app}/api/auth/csrf`)).json()) as { token: string }).token;
    const remove = (body: object) => browser.request(`${app}/api/profile`, { method: 'DELETE', headers: { 'x-csrf-token': token }, body });

    // A sign-in 11 minutes old is not proof enough: sign in again.
    const sessions = mongo.db().collection('sessions');
    const owner = { userId: new ObjectId(profile.id) };
    const [{ createdAt }] = await sessions.find(owner).toArray();
    await sessions.updateMany(owner, { $set: { createdAt: new Date(Date.now() - 11 * 60 * 1000) } });
    // The sign-in time comes with the session, which an instance remembers for SESSION_CACHE_MS (it
    // never changes in the product; the test ages it by hand).
    await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS));
    const stale = await remove({ confirm: 'DELETE' });
    expect(stale.status).toBe(403);
    expect(((await stale.json()) as { message: string }).message).toMatch(/^Sign in again to delete your account/);
    expect(await users().countDocuments({ _id: owner.userId })).toBe(1);

    await sessions.updateMany(owner, { $set: { createdAt } });
    await new Promise((resolve) => setTimeout(resolve, SESSION_CACHE_MS));
    expect((await remove({ confirm: 'DELETE' })).status).toBe(204);
    expect(await users().countDocuments({ _id: owner.userId })).toBe(0);
    expect(await identities().countDocuments({ subject: 'pat' })).toBe(0);
  });

  it('still asks an account with a password for it: 400 with a field message without it, nothing deleted', async () => {
    const { browser, token, user } = await register('rita.remove@example.test');
    const missing = await browser.request(`${app}/api/profile`, {
      method: 'DELETE',
      headers: { 'x-csrf-token': token },
      body: { confirm: 'DELETE' },
    });
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { fields: Record<string, string[]> }).fields.currentPassword).toEqual([
      'Enter your current password',
    ]);
    expect(await users().countDocuments({ _id: new ObjectId(user.id) })).toBe(1);
    expect((await users().findOne({ _id: new ObjectId(user.id) }))?.passwordSet).toBe(true);
  });

  it('refuses an unverified e-mail: no account is created and none is linked', async () => {
    provider.accounts.set('unverified', { email: 'unverified@idp.test', email_verified: false, name: 'Not Sure' });
    provider.accounts.set('no-claim', { email: 'no-claim@idp.test', name: 'No Claim' });
    for (const subject of ['unverified', 'no-claim']) {
      const { browser, landing } = await signInAs(subject);
      expect(landing).toBe('/login?oidc_error=unverified_email');
      expect((await me(browser)).status).toBe(401);
    }
    expect(await users().countDocuments({ email: { $in: ['unverified@idp.test', 'no-claim@idp.test'] } })).toBe(0);

    // Nor is an existing account linked by an address the provider did not verify.
    const { user } = await register('target@example.test');
    await users().updateOne({ _id: new ObjectId(user.id) }, { $set: { emailVerifiedAt: new Date() } });
    provider.accounts.set('claims-target', { email: 'target@example.test', email_verified: false });
    const { browser, landing } = await signInAs('claims-target');
    expect(landing).toBe('/login?oidc_error=unverified_email');
    expect((await me(browser)).status).toBe(401);
    expect(await identities().countDocuments({ subject: { $in: ['unverified', 'no-claim', 'claims-target'] } })).toBe(0);
    expect(await passwordLogin('target@example.test')).toBe(200);
  });

  /** Runs a sign-in up to the provider's redirect back to Hitscope, without following it. */
  async function reachCallback(subject: string) {
    provider.nextLogin = subject;
    const browser = new TestBrowser();
    const callback = await browser.follow(`${app}/api/auth/oidc/start`, app, (url) => url.pathname === CALLBACK);
    expect(callback.searchParams.get('code')).toBeTruthy();
    return { browser, callback };
  }

  it('refuses a tampered or missing state, a callback in another browser, and a replayed callback', async () => {
    provider.accounts.set('careful', { email: 'careful@idp.test', email_verified: true });

    const forged = await reachCallback('careful');
    // Another browser (no transaction cookie) presenting the genuine response: login CSRF.
    expect((await new TestBrowser().follow(forged.callback, app)).href).toBe(`${app}/login?oidc_error=failed`);
    const tampered = new URL(forged.callback);
    tampered.searchParams.set('state', 'forged-state-value-of-reasonable-length');
    expect((await forged.browser.follow(tampered, app)).href).toBe(`${app}/login?oidc_error=failed`);
    expect((await me(forged.browser)).status).toBe(401);
    // The refused attempt used the transaction up: the genuine response no longer works either.
    expect((await forged.browser.follow(forged.callback, app)).href).toBe(`${app}/login?oidc_error=failed`);
    expect((await me(forged.browser)).status).toBe(401);

    const missing = await reachCallback('careful');
    const withoutState = new URL(missing.callback);
    withoutState.searchParams.delete('state');
    expect((await missing.browser.follow(withoutState, app)).href).toBe(`${app}/login?oidc_error=failed`);
    expect((await me(missing.browser)).status).toBe(401);
    expect(await users().countDocuments({ email: 'careful@idp.test' })).toBe(0);
  });

  it('refuses a transaction cookie that was tampered with', async () => {
    const { browser, callback } = await reachCallback('careful');
    const sealed = browser.cookie(app, 'hs_oidc')!;
    const flipped = `${sealed.slice(0, 10)}${sealed[10] === 'A' ? 'B' : 'A'}${sealed.slice(11)}`;
    browser.dropCookie(app, 'hs_oidc');
    const response = await browser.request(callback, { headers: { cookie: `hs_oidc=${flipped}` } });
    expect(response.headers.get('location')).toBe('/login?oidc_error=failed');
    expect(await users().countDocuments({ email: 'careful@idp.test' })).toBe(0);
  });

  it('ends on /login with a reason when the person cancels at the provider', async () => {
    const { landing } = await signInAs(null, '/api/auth/oidc/start?redirect=%2Fadmin');
    expect(landing).toBe('/login?oidc_error=failed&redirect=%2Fadmin');
  });

  it('lands on the requested same-site target and ignores an off-site one', async () => {
    provider.accounts.set('traveller', { email: 'traveller@idp.test', email_verified: true });
    const target = '/dashboard/tools/ga4mp?tab=history';
    expect((await signInAs('traveller', `/api/auth/oidc/start?redirect=${encodeURIComponent(target)}`)).landing).toBe(target);
    for (const offSite of ['https://evil.example/steal', '//evil.example/steal', '/\\evil.example']) {
      const { landing } = await signInAs('traveller', `/api/auth/oidc/start?redirect=${encodeURIComponent(offSite)}`);
      expect(landing).toBe('/dashboard/lounge');
    }
  });

  it('signs the same subject into the same account after the provider changed the e-mail', async () => {
    provider.accounts.set('mover', { email: 'mover@idp.test', email_verified: true, name: 'Mo Ver' });
    const first = await signInAs('mover');
    const firstUser = await me(first.browser);

    // Even unverified: the link is the subject, not the address.
    provider.accounts.set('mover', { email: 'mover.renamed@idp.test', email_verified: false, name: 'Mo Ver' });
    const second = await signInAs('mover');
    expect(second.landing).toBe('/dashboard/lounge');
    expect((await me(second.browser)).body).toEqual(firstUser.body);
    expect(await users().countDocuments({ email: 'mover.renamed@idp.test' })).toBe(0);
  });

  it('refuses a disabled account, linked or not', async () => {
    provider.accounts.set('disabled', { email: 'disabled@idp.test', email_verified: true });
    const first = await signInAs('disabled');
    const { id } = (await me(first.browser)).body;
    await users().updateOne({ _id: new ObjectId(id) }, { $set: { status: 'disabled' } });
    const { browser, landing } = await signInAs('disabled');
    expect(landing).toBe('/login?oidc_error=disabled');
    expect((await me(browser)).status).toBe(401);

    const { user } = await register('disabled-local@example.test');
    await users().updateOne({ _id: new ObjectId(user.id) }, { $set: { status: 'disabled', emailVerifiedAt: new Date() } });
    provider.accounts.set('disabled-local', { email: 'disabled-local@example.test', email_verified: true });
    expect((await signInAs('disabled-local')).landing).toBe('/login?oidc_error=disabled');
    expect(await identities().countDocuments({ subject: 'disabled-local' })).toBe(0);
  });

  it('shows "Continue with {name}" on the server-rendered sign-in screens, keeping the redirect', async () => {
    const login = await (await fetch(`${app}/login?redirect=%2Fadmin%2Fusers`)).text();
    expect(login).toContain('Continue with Test IdP');
    expect(login).toContain('href="/api/auth/oidc/start?redirect=%2Fadmin%2Fusers"');
    const register = await (await fetch(`${app}/register`)).text();
    expect(register).toContain('Continue with Test IdP');
    expect(register).toContain('href="/api/auth/oidc/start"');
    const unverified = await (await fetch(`${app}/login?oidc_error=unverified_email`)).text();
    expect(unverified).toContain('Test IdP has not confirmed your e-mail address');
    expect(await (await fetch(`${app}/api/auth/providers`)).json()).toEqual({ oidc: { name: 'Test IdP' } });
  });

  it('shows no provider button when none is configured', async () => {
    const login = await (await fetch(`${e2eUrl()}/login`)).text();
    expect(login).toContain('id="login-title"');
    expect(login).not.toContain('Continue with');
    expect(await (await fetch(`${e2eUrl()}/register`)).text()).not.toContain('Continue with');
    expect(await (await fetch(`${e2eUrl()}/api/auth/providers`)).json()).toEqual({ oidc: null });
    const start = await fetch(`${e2eUrl()}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(start.headers.get('location')).toBe('/login?oidc_error=unavailable');
  });
});

describe('sign-in with a provider that is down', () => {
  let down: TestInstance;
  let providerPort: number;
  let revived: OidcTestProvider | null = null;

  beforeAll(async () => {
    providerPort = await freePort(); // nothing listens there
    down = await startInstance(testDatabaseUri('oidc'), {
      OIDC_ISSUER: `http://127.0.0.1:${providerPort}`,
      OIDC_CLIENT_ID: TEST_CLIENT.id,
      OIDC_CLIENT_SECRET: TEST_CLIENT.secret,
    });
  }, 60_000);
  afterAll(async () => {
    await down?.running.close();
    await revived?.stop();
  });

  it('starts anyway, answers the sign-in with a clear error and keeps serving pages', async () => {
    const start = await fetch(`${down.origin}/api/auth/oidc/start?redirect=%2Fdashboard%2Fuser%2Forders`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(start.headers.get('location')).toBe('/login?oidc_error=unavailable&redirect=%2Fdashboard%2Fuser%2Forders');

    const login = await fetch(`${down.origin}/login?oidc_error=unavailable`);
    expect(login.status).toBe(200);
    const html = await login.text();
    expect(html).toContain(`Continue with 127.0.0.1`); // OIDC_DISPLAY_NAME defaults to the issuer's host
    expect(html).toContain('127.0.0.1 cannot be reached right now');
    expect((await fetch(`${down.origin}/`)).status).toBe(200);
    expect((await fetch(`${down.origin}/health/ready`)).status).toBe(200);
  });

  it('does not remember the failure: once the provider is up, sign-in works', async () => {
    revived = new OidcTestProvider();
    await revived.start(`${down.origin}${CALLBACK}`, providerPort);
    const start = await fetch(`${down.origin}/api/auth/oidc/start`, { redirect: 'manual' });
    expect(start.status).toBe(302);
    expect(new URL(start.headers.get('location')!).origin).toBe(revived.issuer);
  });
});

afterAll(async () => {
  await new Promise((resolve) => setTimeout(resolve, 1500));
  // eslint-disable-next-line
  const handles = (process as any)._getActiveHandles() as any[];
  console.log('HANDLES', handles.length, process.getActiveResourcesInfo());
});
