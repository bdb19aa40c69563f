/**
 * Helpers for the buyer's journeys on the browser server's billing instance (stripe-mock, Stripe-
 * signed webhooks, and its SMTP mailbox: test/support/smtp-mailbox.mjs).
 */
import { readFileSync } from 'node:fs';
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import { MongoClient } from 'mongodb';
import type { SessionUser } from '../../lib/api/auth.js';
import type { CheckoutResponse } from '../../lib/api/billing.js';
import { smtpMailboxPath } from '../support/smtp-mailbox.mjs';
import { stripeSignature, type StripeTestEvent } from '../support/stripe-events.js';
import { billingServerUrl, billingStripe, browserServerDatabaseUri, type Credentials, signUp, stripeEventStates } from './fixtures.js';

/** Reads the browser server's database (what the app stored). */
export async function readDatabase<T>(read: (db: import('mongodb').Db) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(browserServerDatabaseUri(), { maxPoolSize: 1 });
  try {
    return await read(client.db());
  } finally {
    await client.close();
  }
}

async function billingCsrf(request: APIRequestContext, billing: string): Promise<string> {
  const response = await request.get(`${billing}/api/auth/csrf`);
  expect(response.status()).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

/** Signs `credentials` in on the billing instance too (its sessions are its own: it has another public URL). */
export async function signInOnBilling(
  request: APIRequestContext,
  credentials: Pick<Credentials, 'email' | 'password'>,
): Promise<SessionUser> {
  const billing = await billingServerUrl();
  const response = await request.post(`${billing}/api/auth/login`, {
    data: { email: credentials.email, password: credentials.password },
    headers: { 'x-csrf-token': await billingCsrf(request, billing) },
  });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()) as SessionUser;
}

/** A new person, signed in on the billing instance in `page`'s browser. */
export async function buyer(page: Page, prefix: string): Promise<Credentials & { user: SessionUser }> {
  const credentials = await signUp(page.request, prefix);
  await signInOnBilling(page.request, credentials);
  return credentials;
}

/** A call to the billing instance's API as the person signed in on `request` (with its CSRF token). */
export async function billingPost(request: APIRequestContext, path: string, data: unknown) {
  const billing = await billingServerUrl();
  return request.post(`${billing}${path}`, { data, headers: { 'x-csrf-token': await billingCsrf(request, billing) } });
}

/** Posts `events` to the billing instance's webhook, signed as Stripe signs them, and waits until they are processed. */
export async function sendStripeEvents(request: APIRequestContext, events: StripeTestEvent[]): Promise<void> {
  const billing = await billingServerUrl();
  const { webhookSecret } = billingStripe();
  for (const event of events) {
    const body = JSON.stringify(event);
    const response = await request.post(`${billing}/api/billing/webhook`, {
      data: body,
      headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': stripeSignature(body, webhookSecret) },
    });
    expect(response.status(), `${event.type}: ${await response.text()}`).toBe(200);
  }
  await expect
    .poll(() => stripeEventStates(events.map((event) => event.id)), { timeout: 15_000 })
    .toEqual(events.map((event) => expect.objectContaining({ id: event.id, status: 'done' })));
}

/**
 * Clicks `button` (which starts Stripe Checkout) with checkout.stripe.com answered by a stand-in
 * page; answers the order and the Checkout Session the app made.
 */
export async function startCheckout(page: Page, button: ReturnType<Page['getByRole']>): Promise<{ orderId: string; sessionId: string }> {
  await page.route('https://checkout.stripe.com/**', (route) =>
    route.fulfill({ contentType: 'text/html', body: '<h1>Stripe Checkout</h1>' }),
  );
  // Read on its way to the page, which leaves for Stripe as soon as it has it.
  let answered!: (answer: { status: number; text: string }) => void;
  const answer = new Promise<{ status: number; text: string }>((resolve) => (answered = resolve));
  await page.route('**/api/billing/checkout', async (route) => {
    const response = await route.fetch();
    answered({ status: response.status(), text: await response.text() });
    await route.fulfill({ response });
  });
  await button.click();
  const { status, text } = await answer;
  expect(status, text).toBe(201);
  const { orderId } = JSON.parse(text) as CheckoutResponse;
  await page.waitForURL(/^https:\/\/checkout\.stripe\.com\//);
  await page.unroute('**/api/billing/checkout');
  const sessionId = await readDatabase(
    async (db) =>
      (await db.collection<{ _id: string; stripe: { checkoutSessionId: string } }>('orders').findOne({ _id: orderId }))!.stripe
        .checkoutSessionId,
  );
  return { orderId, sessionId };
}

export interface DeliveredMail {
  to: string[];
  subject: string;
  /** Text and HTML parts, quoted-printable undone, as UTF-8. */
  text: string;
}

function decode(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

/** What the billing instance's SMTP server received for `email`, in order. */
export function mailsTo(email: string): DeliveredMail[] {
  const port = Number(process.env.HITSCOPE_BROWSER_PORT ?? 3987);
  const lines = readFileSync(smtpMailboxPath(port), 'utf8').split('\n').filter(Boolean);
  return lines
    .map((line) => JSON.parse(line) as { to: string[]; raw: string })
    .filter((mail) => mail.to.includes(email.toLowerCase()))
    .map((mail) => ({
      to: mail.to,
      subject: /^Subject: (.*(?:\r?\n[ \t].*)*)/im.exec(mail.raw)?.[1].replace(/\r?\n[ \t]/g, ' ') ?? '',
      text: decode(mail.raw),
    }));
}
