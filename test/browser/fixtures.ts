import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type APIRequestContext, type ConsoleMessage, expect, type Page, type Request } from '@playwright/test';
import { type Db, MongoClient } from 'mongodb';
import type { SessionUser } from '../../lib/api/auth.js';

/** Promoted to admin on registration through ADMIN_EMAILS (test/support/browser-server.mjs). */
export const ADMIN_EMAIL = 'admin@hitscope.test';
export const ADMIN_PASSWORD = 'browser-suite-admin-passphrase';

export interface Credentials {
  name: string;
  email: string;
  password: string;
}

/** A unique, valid e-mail address per call (tests run in two workers against one database). */
export function uniqueEmail(prefix = 'user'): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@hitscope.test`;
}

export function newCredentials(prefix = 'user'): Credentials {
  // Unique per user, so no common-password or breached-password list can ever refuse it.
  const word = Math.random().toString(36).slice(2, 10);
  return { name: `Test ${prefix}`, email: uniqueEmail(prefix), password: `browser suite ${word} passphrase` };
}

/** GET /api/auth/csrf: sets the CSRF cookie in `request`'s cookie jar and returns the header value. */
export async function csrfToken(request: APIRequestContext): Promise<string> {
  const response = await request.get('/api/auth/csrf');
  expect(response.status(), 'GET /api/auth/csrf').toBe(200);
  const { token } = (await response.json()) as { token: string };
  expect(token).toBeTruthy();
  return token;
}

/** What the running browser server wrote beside its port (test/support/browser-server.mjs, `browserServerInfoPath`). */
interface BrowserServerInfo {
  mongodbUri: string;
  billingUrl?: string;
  stripeMockUrl?: string;
  stripeWebhookSecret?: string;
}

function browserServerInfo(): BrowserServerInfo {
  const port = Number(process.env.HITSCOPE_BROWSER_PORT ?? 3987);
  return JSON.parse(readFileSync(join(tmpdir(), `hitscope-browser-server-${port}.json`), 'utf8')) as BrowserServerInfo;
}

/** The browser server has no SMTP: messages stay in its `mail_outbox` collection. */
export function browserServerDatabaseUri(): string {
  return browserServerInfo().mongodbUri;
}

/** Runs `read` against the browser server's database (what the app stored, as the tests cannot see it otherwise). */
async function readDatabase<T>(read: (db: Db) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(browserServerDatabaseUri(), { maxPoolSize: 1 });
  try {
    return await read(client.db());
  } finally {
    await client.close();
  }
}

/**
 * The browser server's second app instance, on the same database, with billing configured against
 * stripe-mock (test/support/browser-server.mjs); resolves once it is ready.
 */
export async function billingServerUrl(): Promise<string> {
  const info = browserServerInfo();
  if (!info.billingUrl) throw new Error('The running browser server has no billing instance: restart it');
  for (const deadline = Date.now() + 30_000; ;) {
    const ready = await fetch(`${info.billingUrl}/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) return info.billingUrl;
    if (Date.now() > deadline) throw new Error(`The billing instance at ${info.billingUrl} did not become ready`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Stripe's side of the billing instance: stripe-mock (whose fixtures shape the events) and the
 * endpoint's signing secret, to send the webhooks Stripe would send.
 */
export function billingStripe(): { mockUrl: string; webhookSecret: string } {
  const { stripeMockUrl, stripeWebhookSecret } = browserServerInfo();
  if (!stripeMockUrl || !stripeWebhookSecret) throw new Error('The running browser server does not name its Stripe set-up: restart it');
  return { mockUrl: stripeMockUrl, webhookSecret: stripeWebhookSecret };
}

/** The Stripe customer the app made for a user at their first checkout (what Stripe puts in its events). */
export function stripeCustomerOf(userId: string): Promise<string> {
  return readDatabase(async (db) => {
    const customer = await db.collection<{ _id: string; stripeCustomerId: string }>('billing_customers').findOne({ _id: userId });
    if (!customer) throw new Error(`User ${userId} has no Stripe customer`);
    return customer.stripeCustomerId;
  });
}

/** What the app's webhook inbox says of Stripe events, by id: `done` once processed (`outcome` says what it did). */
export function stripeEventStates(ids: readonly string[]): Promise<Array<{ id: string; status: string; outcome: string | null }>> {
  return readDatabase(async (db) => {
    const records = await db
      .collection<{ _id: string; status: string; outcome: string | null }>('stripe_events')
      .find({ _id: { $in: [...ids] } })
      .toArray();
    return ids.map((id) => {
      const record = records.find((candidate) => candidate._id === id);
      return { id, status: record?.status ?? 'not received', outcome: record?.outcome ?? null };
    });
  });
}

/** The path of the newest confirmation link mailed to `email` (stored before the registration answers). */
export async function confirmationLinkFor(email: string): Promise<string> {
  const message = await readDatabase((db) =>
    db
      .collection<{ to: string; text: string; createdAt: Date }>('mail_outbox')
      .find({ to: email.toLowerCase(), text: /\/api\/auth\/verify-email\?token=/ })
      .sort({ createdAt: -1 })
      .limit(1)
      .next(),
  );
  const link = message && /https?:\/\/[^\s]+(\/api\/auth\/verify-email\?token=[\w-]+)/.exec(message.text);
  if (!link) throw new Error(`No confirmation link was sent to ${email}`);
  return link[1];
}

/** The path of the newest newsletter confirmation link mailed to `email` (the outbox keeps it). */
export async function newsletterConfirmLinkFor(email: string): Promise<string> {
  const message = await readDatabase((db) =>
    db
      .collection<{ to: string; text: string; createdAt: Date }>('mail_outbox')
      .find({ to: email.toLowerCase(), text: /\/newsletter\/confirm\?token=/ })
      .sort({ createdAt: -1 })
      .limit(1)
      .next(),
  );
  const link = message && /https?:\/\/[^\s]+(\/newsletter\/confirm\?token=[\w.-]+)/.exec(message.text);
  if (!link) throw new Error(`No newsletter confirmation link was sent to ${email}`);
  return link[1];
}

/**
 * Registers through the API and follows the e-mailed link with the same cookies, which signs in.
 * With `page.request` / `context.request` the session cookie lands in the browser context, so the
 * page is signed in; with the `request` fixture the browser stays signed out.
 */
export async function registerViaApi(request: APIRequestContext, credentials: Credentials): Promise<SessionUser> {
  const token = await csrfToken(request);
  const response = await request.post('/api/auth/register', { data: credentials, headers: { 'x-csrf-token': token } });
  expect(response.status(), `register ${credentials.email}: ${await response.text()}`).toBe(202);
  const confirmed = await request.get(await confirmationLinkFor(credentials.email), { maxRedirects: 0 });
  expect(confirmed.status(), `confirmation link of ${credentials.email}`).toBe(302);
  const me = await request.get('/api/auth/me');
  // Registered again by the other worker meanwhile (the shared admin address): the link only
  // confirmed; sign in with the password, as a person would.
  if (me.status() === 401) return loginViaApi(request, credentials);
  expect(me.status()).toBe(200);
  return (await me.json()) as SessionUser;
}

export async function loginViaApi(request: APIRequestContext, credentials: Pick<Credentials, 'email' | 'password'>): Promise<SessionUser> {
  const token = await csrfToken(request);
  const response = await request.post('/api/auth/login', {
    data: { email: credentials.email, password: credentials.password },
    headers: { 'x-csrf-token': token },
  });
  expect(response.status(), `login ${credentials.email}: ${await response.text()}`).toBe(200);
  return (await response.json()) as SessionUser;
}

/** Registers a fresh user (signed in on `request`'s cookie jar) and returns their credentials. */
export async function signUp(request: APIRequestContext, prefix = 'user'): Promise<Credentials & { user: SessionUser }> {
  const credentials = newCredentials(prefix);
  const user = await registerViaApi(request, credentials);
  expect(user.role).toBe('user');
  return { ...credentials, user };
}

/**
 * Signs in as the ADMIN_EMAILS admin: signs in when the account exists (either worker may have made
 * it, and a reused server already has it), registers it through the link otherwise.
 */
export async function signInAsAdmin(request: APIRequestContext): Promise<SessionUser> {
  const credentials = { name: 'Browser Admin', email: ADMIN_EMAIL, password: ADMIN_PASSWORD };
  const token = await csrfToken(request);
  const login = await request.post('/api/auth/login', {
    data: { email: ADMIN_EMAIL, password: ADMIN_PASSWORD },
    headers: { 'x-csrf-token': token },
  });
  const user = login.status() === 200 ? ((await login.json()) as SessionUser) : await registerViaApi(request, credentials);
  expect(user.role).toBe('admin');
  return user;
}

/** Set by client/entry-client.tsx right after hydrateRoot. */
export async function waitForHydration(page: Page): Promise<void> {
  await page.locator('html[data-hydrated="true"]').waitFor({ state: 'attached', timeout: 20_000 });
}

export async function gotoHydrated(page: Page, path: string) {
  const response = await page.goto(path);
  await waitForHydration(page);
  return response;
}

/** Counts top-level document requests (full page loads), optionally by pathname. */
export function trackDocumentRequests(page: Page) {
  const requests: URL[] = [];
  const listener = (request: Request) => {
    if (request.isNavigationRequest() && request.resourceType() === 'document' && request.frame() === page.mainFrame()) {
      requests.push(new URL(request.url()));
    }
  };
  page.on('request', listener);
  return {
    count: (pathname?: string) => requests.filter((url) => pathname === undefined || url.pathname === pathname).length,
    paths: () => requests.map((url) => url.pathname + url.search),
    stop: () => page.off('request', listener),
  };
}

export interface PageProblem {
  kind: 'console' | 'pageerror';
  type?: string;
  text: string;
  url?: string;
}

/**
 * Collects console errors, uncaught page errors and React hydration warnings. A document answered
 * with a 4xx logs "Failed to load resource" for itself; `allowFailedDocument` excludes exactly that.
 */
export function collectPageProblems(page: Page) {
  const problems: PageProblem[] = [];
  let allowedDocumentUrl: string | null = null;
  const onConsole = (message: ConsoleMessage) => {
    const text = message.text();
    // Production React reports hydration mismatches as minified errors #418-#425.
    const hydration = /hydrat|did not match|Minified React error #4(1[89]|2[0-5])\b/i.test(text);
    if (message.type() !== 'error' && !hydration) return;
    const url = message.location().url;
    if (
      allowedDocumentUrl !== null &&
      url === allowedDocumentUrl &&
      /^Failed to load resource: the server responded with a status of 404/.test(text)
    ) {
      return;
    }
    problems.push({ kind: 'console', type: message.type(), text, url });
  };
  // Uncaught errors, including React's recoverable hydration errors (reported through window.onerror).
  const onPageError = (error: Error) => problems.push({ kind: 'pageerror', text: `${error.name}: ${error.message}` });
  page.on('console', onConsole);
  page.on('pageerror', onPageError);
  return {
    problems,
    allowFailedDocument(url: string) {
      allowedDocumentUrl = url;
    },
    stop() {
      page.off('console', onConsole);
      page.off('pageerror', onPageError);
    },
  };
}

/** A cookie of the page's context (the app's origin), or undefined. */
export async function cookieValue(page: Page, name: string): Promise<string | undefined> {
  const cookies = await page.context().cookies();
  return cookies.find((cookie) => cookie.name === name)?.value;
}

/** Design tokens of client/styles/global.css (`--bg`), as getComputedStyle reports them. */
export const BACKGROUND = {
  light: 'rgb(248, 250, 252)', // #f8fafc
  dark: 'rgb(11, 17, 32)', // #0b1120
} as const;
