import { randomBytes } from 'node:crypto';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import type { SessionUser } from '../../lib/api/auth.js';

export type Agent = ReturnType<typeof request.agent>;

/** The app process started by global setup (production build, real database). */
export function e2eUrl(): string {
  const url = process.env.HITSCOPE_E2E_URL;
  if (!url) throw new Error('HITSCOPE_E2E_URL is not set: run the suites through jest (global setup starts the app)');
  return url;
}

export const ADMIN_EMAIL = () => process.env.HITSCOPE_E2E_ADMIN_EMAIL ?? 'admin@hitscope.test';

export function newAgent(baseUrl = e2eUrl()): Agent {
  return request.agent(baseUrl);
}

export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${randomBytes(3).toString('hex')}@example.test`;

export const PASSWORD = 'a long enough passphrase';

export async function csrfToken(agent: Agent): Promise<string> {
  const response = await agent.get('/api/auth/csrf').expect(200);
  return (response.body as { token: string }).token;
}

export interface SignedUp {
  agent: Agent;
  user: SessionUser;
  email: string;
  token: string;
  /** The value of the `hs_session` cookie. */
  session: string;
}

const SESSION_COOKIE = 'hs_session';

/** The database of the app started by global setup; suites that start their own app pass theirs. */
const e2eDatabase = () => process.env.HITSCOPE_E2E_MONGODB_URI!;

/**
 * The newest link to `/api/auth/verify-email` sent to `email`, as a path. The app stores every
 * message in its outbox collection before the request that sent it answers, so it is there.
 */
export async function confirmationLinkFor(email: string, database = e2eDatabase()): Promise<string> {
  const client = await MongoClient.connect(database, { maxPoolSize: 1 });
  try {
    const message = await client
      .db()
      .collection<{ to: string; text: string; createdAt: Date }>('mail_outbox')
      .find({ to: email.toLowerCase(), text: /\/api\/auth\/verify-email\?token=/ })
      .sort({ createdAt: -1 })
      .limit(1)
      .next();
    const link = message && /https?:\/\/[^\s]+(\/api\/auth\/verify-email\?token=[\w-]+)/.exec(message.text);
    if (!link) throw new Error(`No confirmation link was sent to ${email}`);
    return link[1];
  } finally {
    await client.close();
  }
}

async function signIn(agent: Agent, email: string): Promise<{ user: SessionUser; setCookie: string[] }> {
  const token = await csrfToken(agent);
  const login = await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email, password: PASSWORD });
  if (login.status !== 200) throw new Error(`sign-in of ${email} failed: ${login.status} ${login.text}`);
  return { user: login.body as SessionUser, setCookie: login.headers['set-cookie'] as unknown as string[] };
}

/**
 * Registers as a person does: the form, then the link from the e-mail, followed in the same
 * browser (which signs in). Answers the signed-in agent, a CSRF token issued after sign-in
 * (signing in replaces the CSRF cookie) and the session cookie's value.
 */
export async function signUp(options: { email?: string; name?: string; agent?: Agent; database?: string } = {}): Promise<SignedUp> {
  const agent = options.agent ?? newAgent();
  const email = options.email ?? uniqueEmail();
  // The token first: the agent attaches its cookies when the request is created.
  const token = await csrfToken(agent);
  await agent
    .post('/api/auth/register')
    .set('x-csrf-token', token)
    .send({ name: options.name ?? 'Test User', email, password: PASSWORD })
    .expect((response) => {
      if (response.status !== 202) throw new Error(`registration of ${email} answered ${response.status}: ${response.text}`);
    });
  const confirmed = await agent.get(await confirmationLinkFor(email, options.database)).expect(302);
  let setCookie = confirmed.headers['set-cookie'] as unknown as string[] | undefined;
  let user: SessionUser;
  if (cookieNamed(setCookie, SESSION_COOKIE)) {
    user = (await agent.get('/api/auth/me').expect(200)).body as SessionUser;
  } else {
    // Another registration of the same address meanwhile (two workers and one admin address) makes
    // the link only confirm: then sign in with the password, as a person would.
    ({ user, setCookie } = await signIn(agent, email));
  }
  const session = cookieNamed(setCookie, SESSION_COOKIE)!.split(';')[0].split('=')[1];
  return { agent, user, email, token: await csrfToken(agent), session };
}

/** The shared admin (ADMIN_EMAILS in global setup): registers once, then signs in. */
export async function signInAdmin(): Promise<SignedUp> {
  const agent = newAgent();
  const token = await csrfToken(agent);
  const login = await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email: ADMIN_EMAIL(), password: PASSWORD });
  if (login.status === 200) {
    const session = cookieNamed(login.headers['set-cookie'] as unknown as string[], SESSION_COOKIE)!
      .split(';')[0]
      .split('=')[1];
    return { agent, user: login.body as SessionUser, email: ADMIN_EMAIL(), token: await csrfToken(agent), session };
  }
  return signUp({ agent, email: ADMIN_EMAIL(), name: 'Admin' });
}

export function cookieNamed(setCookie: string[] | string | undefined, name: string): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.find((cookie) => cookie.startsWith(`${name}=`));
}

/**
 * Asks `read` every 100 ms until it answers `expected`; fails when that has not happened within
 * `withinMs`. For changes the product promises within a bound (another instance's cache), not at once.
 */
export async function settlesTo<T>(read: () => Promise<T>, expected: T, withinMs: number): Promise<number> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (value === expected) return Date.now() - started;
    if (Date.now() - started > withinMs) throw new Error(`Still ${String(value)}, not ${String(expected)}, after ${withinMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
