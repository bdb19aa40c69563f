import { MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { PASSWORD } from './e2e.js';
import { linkIn, SmtpSink } from './smtp-sink.js';
import { testDatabaseUri } from './test-database.js';

export const REGISTRATION_SUBJECT = 'Finish creating your Hitscope account';
const VERIFY_LINK = /http:\/\/hitscope\.test\/api\/auth\/verify-email\?token=[\w-]+/;

/** The `name=value` pairs of the named cookies a response sets. */
export const cookiePairs = (response: { headers: Record<string, unknown> }, names: string[]) =>
  ((response.headers['set-cookie'] as string[] | undefined) ?? [])
    .map((cookie) => cookie.split(';')[0])
    .filter((pair) => names.includes(pair.split('=')[0]))
    .join('; ');

/**
 * An app that mails through a real local SMTP server (the sink), on a database of the suite's own,
 * with `PUBLIC_URL` http://hitscope.test, and an anonymous browser's CSRF cookie and token.
 */
export class MailSuite {
  running!: RunningApp;
  sink!: SmtpSink;
  mongo!: MongoClient;
  csrf!: { cookie: string; token: string };

  readonly http = () => request(this.running.app.getHttpServer());

  /** A cookie-authenticated write as a browser makes it: the CSRF cookie and token, plus `cookie`. */
  readonly post = (path: string, body: object, cookie = '') =>
    this.http()
      .post(path)
      .set('Cookie', [this.csrf.cookie, cookie].filter(Boolean).join('; '))
      .set('x-csrf-token', this.csrf.token)
      .send(body);

  async start(suite: string, env: Record<string, string> = {}): Promise<void> {
    this.sink = new SmtpSink();
    const smtpUrl = await this.sink.start();
    const mongodbUri = testDatabaseUri(suite);
    this.running = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        MONGODB_URI: mongodbUri,
        SMTP_URL: smtpUrl,
        LOG_LEVEL: 'error',
        PORT: '0',
        PUBLIC_URL: 'http://hitscope.test',
        RATE_LIMIT_MULTIPLIER: '100',
        ...env,
      }),
    );
    this.mongo = await MongoClient.connect(mongodbUri);
    const response = await this.http().get('/api/auth/csrf');
    this.csrf = { cookie: (response.headers['set-cookie'] as unknown as string[])[0].split(';')[0], token: response.body.token };
  }

  async stop(): Promise<void> {
    await this.running?.close();
    await this.sink?.stop();
    await this.mongo?.close();
  }

  /** The registration form only: an account waiting for its link. Answers the browser's sign-up note. */
  async registerUnconfirmed(email: string, name = 'Mail Tester'): Promise<string> {
    const response = await this.post('/api/auth/register', { name, email, password: PASSWORD }).expect(202);
    return cookiePairs(response, ['hs_signup']);
  }

  /** The form, then the e-mailed link in the same browser: answers the session cookies. */
  async register(email: string, name?: string): Promise<string> {
    const note = await this.registerUnconfirmed(email, name);
    const mail = await this.sink.waitFor((m) => m.to.includes(email) && m.subject === REGISTRATION_SUBJECT);
    const link = new URL(linkIn(mail, VERIFY_LINK));
    const followed = await this.http()
      .get(link.pathname + link.search)
      .set('Cookie', note)
      .expect(302);
    return cookiePairs(followed, ['hs_session', 'hs_refresh']);
  }
}
