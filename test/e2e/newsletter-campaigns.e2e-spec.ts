import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { MongoClient } from 'mongodb';
import request from 'supertest';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import {
  CAMPAIGN_SENDER_OPTIONS,
  type CampaignSenderOptions,
  DEFAULT_CAMPAIGN_SENDER_OPTIONS,
} from '../../src/newsletter/campaigns/campaign-sender.options.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { MailSuite } from '../support/mail-suite.js';
import type { ReceivedMail } from '../support/smtp-sink.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'campaign-admin@example.test';
const API = '/api/admin/newsletter/campaigns';

/** Small leases and back-offs so that retries and take-overs happen in seconds. */
const FAST: CampaignSenderOptions = {
  ...DEFAULT_CAMPAIGN_SENDER_OPTIONS,
  batchSize: 50,
  concurrency: 8,
  leaseMs: 1500,
  pollMs: 100,
  backoffMs: [50, 100, 150, 200],
  maxAttempts: 4,
  autoPauseAfter: 50,
  snapshotBatch: 500,
  shutdownGraceMs: 200,
};

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:(.*(?:\\r?\\n[ \\t].*)*)`, 'mi')
    .exec(raw)?.[1]
    .replace(/\r?\n[ \t]+/g, ' ')
    .trim() ?? '';

/**
 * The mail suite's harness (sink, database, CSRF, registration through the mailed link), on an app
 * assembled from the production modules with only the campaign worker's pacing replaced, and that
 * can be stopped and started again on the same database (a worker that dies, then comes back).
 */
class CampaignSuite extends MailSuite {
  private options = FAST;
  private mongodbUri = '';

  async startWith(suite: string, options: Partial<CampaignSenderOptions> = {}): Promise<void> {
    this.options = { ...FAST, ...options };
    this.mongodbUri = testDatabaseUri(suite);
    const { SmtpSink } = await import('../support/smtp-sink.js');
    this.sink = new SmtpSink();
    await this.boot(await this.sink.start());
    this.mongo = await MongoClient.connect(this.mongodbUri);
    const response = await this.http().get('/api/auth/csrf');
    this.csrf = { cookie: (response.headers['set-cookie'] as unknown as string[])[0].split(';')[0], token: response.body.token };
  }

  private async boot(smtpUrl: string): Promise<void> {
    const config = loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: this.mongodbUri,
      SMTP_URL: smtpUrl,
      LOG_LEVEL: 'error',
      PORT: '0',
      PUBLIC_URL: 'http://hitscope.test',
      RATE_LIMIT_MULTIPLIER: '100',
      ADMIN_EMAILS: ADMIN,
      AUTH_SECRET: 'campaign-suite-secret-that-is-long-enough-1234',
    });
    const renderer = await createProductionRenderer();
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, mongodbUri: this.mongodbUri, renderer })] })
      .overrideProvider(CAMPAIGN_SENDER_OPTIONS)
      .useValue(this.options)
      .compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
    installRequestHandling(app, config);
    await app.listen(0, '127.0.0.1');
    this.running = { app, mongodbUri: this.mongodbUri, embeddedDatabase: null, close: () => app.close() };
  }

  /** Closes the app (its worker stops claiming and leaves what is in flight to its lease), then starts a new one on the same database. */
  async restart(): Promise<void> {
    await this.running.close();
    await this.boot(`smtp://127.0.0.1:${this.sink.port}`);
  }

  /** Another start with other pacing (the same database and mail server). */
  async restartWith(options: Partial<CampaignSenderOptions>): Promise<void> {
    this.options = { ...FAST, ...options };
    await this.restart();
  }

  origin(): string {
    return `http://127.0.0.1:${(this.running.app.getHttpServer().address() as AddressInfo).port}`;
  }
}

interface CampaignBody {
  id: string;
  state: string;
  counts: { total: number; queued: number; sent: number; failed: number; skipped: number; retrying: number };
  pausedReason: string | null;
  etaSeconds: number | null;
}

describe('newsletter campaigns: leased sending against a real SMTP server and database', () => {
  const suite = new CampaignSuite();
  let admin: string;
  const subscribers = () => suite.mongo.db().collection('newsletter_subscribers');
  const deliveries = () => suite.mongo.db().collection('newsletter_deliveries');
  const asAdmin = (method: 'get' | 'post' | 'put' | 'delete', path: string, body?: object) => {
    const call = suite.http()[method](path).set('Cookie', [suite.csrf.cookie, admin].join('; ')).set('x-csrf-token', suite.csrf.token);
    return body ? call.send(body) : call;
  };

  /** Confirmed subscribers written straight into the list (the opt-in itself is newsletter.e2e-spec's business). */
  async function seed(prefix: string, count: number): Promise<string[]> {
    const now = new Date();
    const emails = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(5, '0')}@example.test`);
    await subscribers().insertMany(
      emails.map((email) => ({
        _id: email as never,
        state: 'confirmed',
        consent: { source: 'home', at: now, ipHash: null, textVersion: 'test' },
        confirmation: { at: now, ipHash: null, via: 'link' },
        createdAt: now,
        confirmedAt: now,
        unsubscribedAt: null,
        suppressed: null,
        lastConfirmMailAt: null,
        mailDay: null,
        mailDayCount: 0,
        updatedAt: now,
      })),
    );
    return emails;
  }

  /** Only this test's recipients stay confirmed: earlier tests' lists are unsubscribed, so each campaign reaches exactly `emails`. */
  async function only(prefix: string, count: number): Promise<string[]> {
    await subscribers().updateMany({ state: 'confirmed' }, { $set: { state: 'unsubscribed' } });
    return seed(prefix, count);
  }

  async function draft(subject: string, body = '# Hello\n\nNews from **Hitscope**: see [the pricing](/pricing).'): Promise<string> {
    const created = await asAdmin('post', API, { subject, body }).expect(201);
    return created.body.id as string;
  }

  const campaign = async (id: string): Promise<CampaignBody> => (await asAdmin('get', `${API}/${id}`).expect(200)).body as CampaignBody;

  async function until(id: string, done: (c: CampaignBody) => boolean, timeoutMs = 60_000): Promise<CampaignBody> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const current = await campaign(id);
      if (done(current)) return current;
      if (Date.now() > deadline) throw new Error(`Campaign ${id} did not get there: ${JSON.stringify(current)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  const mailsOf = (subject: string) => suite.sink.received.filter((mail) => mail.subject === subject);

  beforeAll(async () => {
    await suite.startWith('newsletter-campaigns');
    admin = await suite.register(ADMIN, 'Campaign Admin');
  }, 60_000);
  afterAll(() => suite.stop());

  it('sends 1 000 recipients through a server that refuses 10% temporarily: all delivered, none twice', async () => {
    const emails = await only('thousand', 1000);
    const id = await draft('A thousand readers');
    suite.sink.failShare = 0.1;
    try {
      // More attempts than production's four: at 10% per try, four failures in a row for one of a
      // thousand would happen in one run out of ten. The cap itself is tested below.
      await suite.restartWith({ maxAttempts: 8 });
      const sent = await asAdmin('post', `${API}/${id}/send`).expect(200);
      expect(sent.body.campaign.state).toBe('sending');
      const done = await until(id, (c) => c.state === 'sent');
      expect(done.counts).toMatchObject({ total: 1000, sent: 1000, failed: 0, skipped: 0, queued: 0 });
    } finally {
      suite.sink.failShare = 0;
      await suite.restartWith({});
    }
    const mails = mailsOf('A thousand readers');
    expect(mails).toHaveLength(1000);
    expect(new Set(mails.map((mail) => mail.messageId)).size).toBe(1000);
    expect(new Set(mails.flatMap((mail) => mail.to)).size).toBe(1000);
    expect(mails.flatMap((mail) => mail.to).sort()).toEqual(emails);
    // The server did refuse some, and they were retried with the same Message-ID.
    const refusedIds = suite.sink.attempts.filter((messageId) => mails.some((mail) => mail.messageId === messageId));
    expect(refusedIds.length).toBeGreaterThan(1000 + 30);
    const retried = await deliveries().countDocuments({ campaignId: id, attempts: { $gt: 1 } });
    expect(retried).toBeGreaterThan(30);
  }, 120_000);
});
