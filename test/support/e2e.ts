import { randomBytes } from 'node:crypto';
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
}

export async function signUp(options: { email?: string; name?: string; agent?: Agent } = {}): Promise<SignedUp> {
  const agent = options.agent ?? newAgent();
  const token = await csrfToken(agent);
  const email = options.email ?? uniqueEmail();
  const response = await agent
    .post('/api/auth/register')
    .set('x-csrf-token', token)
    .send({ name: options.name ?? 'Test User', email, password: PASSWORD })
    .expect(201);
  return { agent, user: response.body as SessionUser, email, token };
}

/** The shared admin (ADMIN_EMAILS in global setup): registers once per worker, then signs in. */
export async function signInAdmin(): Promise<SignedUp> {
  const agent = newAgent();
  const token = await csrfToken(agent);
  const login = await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email: ADMIN_EMAIL(), password: PASSWORD });
  if (login.status === 200) return { agent, user: login.body as SessionUser, email: ADMIN_EMAIL(), token };
  const registered = await agent
    .post('/api/auth/register')
    .set('x-csrf-token', token)
    .send({ name: 'Admin', email: ADMIN_EMAIL(), password: PASSWORD });
  if (registered.status === 409) return signInAdmin(); // the other worker registered it first
  if (registered.status !== 201) throw new Error(`admin registration failed: ${registered.status} ${registered.text}`);
  return { agent, user: registered.body as SessionUser, email: ADMIN_EMAIL(), token };
}

export function cookieNamed(setCookie: string[] | string | undefined, name: string): string | undefined {
  const list = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return list.find((cookie) => cookie.startsWith(`${name}=`));
}
