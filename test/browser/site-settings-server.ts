import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type APIRequestContext, expect } from '@playwright/test';
import { MongoClient } from 'mongodb';
import { freePort } from '../support/oidc-test-provider.js';
import { browserServerDatabaseUri } from './fixtures.js';

/**
 * Site settings are global: closing registration or showing a banner on the shared browser server
 * would change what every other suite sees. So the settings suites run their own instance of the
 * production build, with a database of its own on the browser server's database server, stopped
 * and dropped at the end (as oidc.spec.ts does).
 */
export interface SettingsServer {
  origin: string;
  databaseUri: string;
  stop(): Promise<void>;
}

export const SETTINGS_ADMIN = {
  name: 'Settings Admin',
  email: 'settings-admin@hitscope.test',
  password: 'settings suite admin passphrase',
};

export async function startSettingsServer(): Promise<SettingsServer> {
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const database = new URL(browserServerDatabaseUri());
  database.pathname = `/hitscope_browser_settings_${randomBytes(3).toString('hex')}`;
  const databaseUri = database.toString();
  const root = process.cwd();
  const app: ChildProcess = spawn(process.execPath, [join(root, 'dist/app/src/main.js')], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: origin,
      MONGODB_URI: databaseUri,
      LOG_LEVEL: 'error',
      RATE_LIMIT_MULTIPLIER: '1000',
      ADMIN_EMAILS: SETTINGS_ADMIN.email,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (app.exitCode !== null) throw new Error(`the settings app exited with code ${app.exitCode}`);
    const ready = await fetch(`${origin}/health/ready`).then(
      (response) => response.ok,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`the settings app did not become ready at ${origin}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    origin,
    databaseUri,
    async stop() {
      if (app.exitCode === null && app.signalCode === null) {
        await new Promise<void>((resolve) => {
          app.once('exit', () => resolve());
          app.kill('SIGTERM');
          setTimeout(() => app.kill('SIGKILL'), 10_000).unref();
        });
      }
      const mongo = await MongoClient.connect(databaseUri);
      await mongo
        .db()
        .dropDatabase()
        .catch(() => undefined);
      await mongo.close();
    },
  };
}

async function csrf(request: APIRequestContext, origin: string): Promise<string> {
  return ((await (await request.get(`${origin}/api/auth/csrf`)).json()) as { token: string }).token;
}

/** Signs `request` (a page's, so the page shares the cookies) in as the admin: registers through the e-mailed link the first time. */
export async function signInSettingsAdmin(request: APIRequestContext, server: SettingsServer): Promise<void> {
  const login = await request.post(`${server.origin}/api/auth/login`, {
    data: { email: SETTINGS_ADMIN.email, password: SETTINGS_ADMIN.password },
    headers: { 'x-csrf-token': await csrf(request, server.origin) },
  });
  if (login.status() === 200) return;
  const registered = await request.post(`${server.origin}/api/auth/register`, {
    data: SETTINGS_ADMIN,
    headers: { 'x-csrf-token': await csrf(request, server.origin) },
  });
  expect(registered.status()).toBe(202);
  const mongo = await MongoClient.connect(server.databaseUri, { maxPoolSize: 1 });
  try {
    const message = await mongo
      .db()
      .collection<{ to: string; text: string; createdAt: Date }>('mail_outbox')
      .find({ to: SETTINGS_ADMIN.email })
      .sort({ createdAt: -1 })
      .limit(1)
      .next();
    const link = /(\/api\/auth\/verify-email\?token=[\w-]+)/.exec(message?.text ?? '')![1];
    expect((await request.get(`${server.origin}${link}`, { maxRedirects: 0 })).status()).toBe(302);
  } finally {
    await mongo.close();
  }
  const me = await request.get(`${server.origin}/api/auth/me`);
  expect(((await me.json()) as { role: string }).role).toBe('admin');
}

/** PUT one section through the API (set-up and clean-up; the screens themselves are driven by clicks). */
export async function putSection(request: APIRequestContext, server: SettingsServer, section: string, body: unknown): Promise<void> {
  const response = await request.put(`${server.origin}/api/admin/site-settings/${section}`, {
    data: body,
    headers: { 'x-csrf-token': await csrf(request, server.origin) },
  });
  expect(response.status(), await response.text()).toBe(200);
}
