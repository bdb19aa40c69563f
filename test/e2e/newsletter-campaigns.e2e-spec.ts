import type { AddressInfo } from 'node:net';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { MongoClient } from 'mongodb';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import {
  CAMPAIGN_SENDER_OPTIONS,
  type CampaignSenderOptions,
  DEFAULT_CAMPAIGN_SENDER_OPTIONS,
} from '../../src/newsletter/campaigns/campaign-sender.options.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { insertConfirmedSubscribers } from '../../scripts/fixtures/confirmed-subscribers.mjs';
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
  pollMs: 250,
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
      // A campaign keeps the app's one database connection busy, and the test machine is shared:
      // a page request may wait longer than production's 5 s here without anything being wrong.
      REQUEST_TIMEOUT_MS: '30000',
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
    const emails = Array.from({ length: count }, (_, index) => `${prefix}-${String(index).padStart(5, '0')}@example.test`);
    await insertConfirmedSubscribers(suite.mongo.db(), emails);
    return emails;
  }

  /** Only this test's recipients: earlier tests' lists are removed, so each campaign reaches exactly `emails`. */
  async function only(prefix: string, count: number): Promise<string[]> {
    await subscribers().deleteMany({ _id: { $ne: ADMIN as never } });
    return seed(prefix, count);
  }

  async function draft(subject: string, body = '# Hello\n\nNews from **Hitscope**: see [the pricing](/pricing).'): Promise<string> {
    const created = await asAdmin('post', API, { subject, body }).expect(201);
    return created.body.id as string;
  }

  async function campaign(id: string): Promise<CampaignBody> {
    const response = await asAdmin('get', `${API}/${id}`);
    if (response.status !== 200) throw new Error(`GET campaign answered ${response.status}: ${response.text}`);
    return response.body as CampaignBody;
  }

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
      const done = await until(id, (c) => c.state === 'sent', 200_000);
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
  }, 260_000);

  it('drafts: create, edit, preview as sent, validation with field messages, delete; audited; admins only', async () => {
    const id = await draft('Draft one', 'Hello **there**');
    const updated = await asAdmin('put', `${API}/${id}`, {
      subject: 'Draft one, edited',
      body: '# Title\n\nText with [a link](/pricing).',
    }).expect(200);
    expect(updated.body).toMatchObject({ id, state: 'draft', subject: 'Draft one, edited', counts: { total: 0, sent: 0 } });

    const preview = await asAdmin('post', `${API}/preview`, {
      subject: 'Draft one, edited',
      body: '# Title\n\nText with [a link](/pricing).',
    }).expect(200);
    expect(preview.body.html).toContain('<h1 style=');
    expect(preview.body.html).toContain('href="http://hitscope.test/pricing"');
    expect(preview.body.html).toMatch(/href="http:\/\/hitscope\.test\/newsletter\/unsubscribe\?token=[\w.-]+"/);
    expect(preview.body.text).toContain('a link (http://hitscope.test/pricing)');

    const bad = await asAdmin('post', API, { subject: '  ', body: '', extra: 1 }).expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['body', 'extra', 'subject']);
    expect(bad.body.fields.subject).toContain('The subject must be 1 to 200 characters');
    const twoLines = await asAdmin('post', API, { subject: 'a\r\nBcc: x@example.test', body: 'x' }).expect(400);
    expect(twoLines.body.fields.subject).toEqual(['The subject must be one line']);
    const long = await asAdmin('post', API, { subject: 'x', body: 'y'.repeat(50_001) }).expect(400);
    expect(long.body.fields.body).toEqual(['The message must be 1 to 50000 characters']);
    await asAdmin('get', `${API}/not-an-id`).expect(400);
    await asAdmin('get', `${API}/AAAAAAAAAAAA`).expect(404);

    const list = await asAdmin('get', API).expect(200);
    expect(list.body.items.some((item: { id: string; subject: string }) => item.id === id && item.subject === 'Draft one, edited')).toBe(
      true,
    );
    expect(list.body.items[0]).not.toHaveProperty('body');

    await asAdmin('delete', `${API}/${id}`).expect(204);
    await asAdmin('get', `${API}/${id}`).expect(404);
    const audit = await suite.mongo.db().collection('audit_log').find({ 'target.id': id }).sort({ at: 1 }).toArray();
    expect(audit.map((entry) => entry.action)).toEqual([
      'newsletter.campaign.create',
      'newsletter.campaign.update',
      'newsletter.campaign.delete',
    ]);
    expect(audit[0]).toMatchObject({ actor: { email: ADMIN }, target: { type: 'campaign' } });

    // Not signed in: 401; signed in but not an admin: 403; no CSRF token: 403.
    await suite.http().get(API).expect(401);
    await suite.http().post(API).send({ subject: 'x', body: 'y' }).expect(403);
    const user = await suite.register(`reader-${Date.now().toString(36)}@example.test`, 'Reader');
    await suite.http().get(API).set('Cookie', user).expect(403);
    await suite.post(API, { subject: 'x', body: 'y' }, user).expect(403);
    await suite.http().get('/api/admin/newsletter/settings').set('Cookie', user).expect(403);
    await suite.http().post(API).set('Cookie', admin).send({ subject: 'x', body: 'y' }).expect(403);
  });

  it('test send: one message to the admin or a given address, same rendering and headers, no delivery recorded', async () => {
    const id = await draft('Testing, testing');
    await asAdmin('post', `${API}/${id}/test`, {}).expect(200);
    const own = await suite.sink.waitFor((mail) => mail.subject === '[Test] Testing, testing' && mail.to.includes(ADMIN));
    expect(header(own.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const given = await asAdmin('post', `${API}/${id}/test`, { to: 'Proof.Reader@Example.test' }).expect(200);
    expect(given.body.message).toBe('Test message sent to proof.reader@example.test');
    await suite.sink.waitFor((mail) => mail.subject === '[Test] Testing, testing' && mail.to.includes('proof.reader@example.test'));
    const bad = await asAdmin('post', `${API}/${id}/test`, { to: 'nope' }).expect(400);
    expect(bad.body.fields.to).toEqual(['Enter a valid e-mail address']);
    expect(await deliveries().countDocuments({ campaignId: id })).toBe(0);
    expect((await campaign(id)).state).toBe('draft');
    expect(
      await suite.mongo.db().collection('audit_log').countDocuments({ 'target.id': id, action: 'newsletter.campaign.test_send' }),
    ).toBe(2);
  });

  it('sends HTML and text parts with the sender of the settings, RFC 8058 headers and a footer link; the header URL unsubscribes with one cookie-less POST', async () => {
    const settings = await asAdmin('put', '/api/admin/newsletter/settings', {
      senderName: 'Hitscope News',
      senderAddress: 'news@hitscope.test',
      replyTo: 'editor@hitscope.test',
      maxPerSecond: null,
      maxPerHour: '',
      maxPerDay: null,
    }).expect(200);
    expect(settings.body.settings).toMatchObject({ senderName: 'Hitscope News', maxPerHour: null });
    const emails = await only('parts', 3);
    const id = await draft('Parts and headers');
    await asAdmin('post', `${API}/${id}/send`).expect(200);
    // Sending twice changes nothing.
    const again = await asAdmin('post', `${API}/${id}/send`).expect(200);
    expect(again.body.campaign.state).toMatch(/sending|sent/);
    await until(id, (c) => c.state === 'sent');
    const mails = mailsOf('Parts and headers');
    expect(mails).toHaveLength(3);
    const mail = mails.find((m) => m.to.includes(emails[0]))!;
    expect(header(mail.raw, 'From')).toBe('Hitscope News <news@hitscope.test>');
    expect(header(mail.raw, 'Reply-To')).toBe('editor@hitscope.test');
    expect(header(mail.raw, 'Message-ID')).toMatch(new RegExp(`^<campaign\\.${id}\\.[\\w-]{22}@hitscope\\.test>$`));
    expect(mail.raw).toMatch(/Content-Type: multipart\/alternative/);
    expect(mail.raw).toMatch(/Content-Type: text\/plain/);
    expect(mail.raw).toMatch(/Content-Type: text\/html/);
    expect(mail.body).toContain('/newsletter/unsubscribe?token=');
    expect(header(mail.raw, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    const oneClick = /<(http:\/\/hitscope\.test\/api\/newsletter\/unsubscribe\?token=[\w.-]+)>/.exec(
      header(mail.raw, 'List-Unsubscribe'),
    )![1];
    const url = new URL(oneClick);
    await suite
      .http()
      .post(url.pathname + url.search)
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .send('List-Unsubscribe=One-Click')
      .expect(200);
    expect(await subscribers().findOne({ _id: emails[0] as never })).toMatchObject({ state: 'unsubscribed' });
    const audit = await suite.mongo.db().collection('audit_log').findOne({ action: 'newsletter.settings.update' });
    expect(audit).toMatchObject({ after: { senderName: 'Hitscope News', senderAddress: 'news@hitscope.test' } });
  });

  it('refuses invalid settings with field messages and answers the ETA for the confirmed list', async () => {
    const bad = await asAdmin('put', '/api/admin/newsletter/settings', {
      senderName: 'a\nb',
      senderAddress: 'nope',
      replyTo: 'also nope',
      maxPerSecond: 0,
      maxPerHour: 1.5,
      maxPerDay: 'many',
    }).expect(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual([
      'maxPerDay',
      'maxPerHour',
      'maxPerSecond',
      'replyTo',
      'senderAddress',
      'senderName',
    ]);
    await only('eta', 100);
    const limited = await asAdmin('put', '/api/admin/newsletter/settings', {
      senderName: 'Hitscope',
      senderAddress: 'news@hitscope.test',
      replyTo: null,
      maxPerSecond: 10,
      maxPerHour: null,
      maxPerDay: null,
    }).expect(200);
    expect(limited.body).toMatchObject({ confirmedSubscribers: 100, etaSeconds: 10 });
    await asAdmin('put', '/api/admin/newsletter/settings', { ...limited.body.settings, maxPerSecond: null }).expect(200);
  });

  it('a permanent refusal (550) fails the recipient after one attempt; temporary ones stop at the attempt cap; retry-failed and the CSV', async () => {
    const emails = await only('refused', 6);
    suite.sink.refuseRecipients.set(emails[1], 550);
    suite.sink.refuseRecipients.set(emails[2], 451);
    const id = await draft('Some refuse');
    await asAdmin('post', `${API}/${id}/send`).expect(200);
    const done = await until(id, (c) => c.state === 'sent');
    expect(done.counts).toMatchObject({ total: 6, sent: 4, failed: 2, queued: 0 });
    expect(await deliveries().findOne({ _id: `${id}:${emails[1]}` as never })).toMatchObject({
      status: 'failed',
      attempts: 1,
      lastCode: 550,
    });
    expect(await deliveries().findOne({ _id: `${id}:${emails[2]}` as never })).toMatchObject({
      status: 'failed',
      attempts: 4,
      lastCode: 451,
    });

    const csv = await asAdmin('get', `${API}/${id}/failed.csv`).expect(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.text.trim().split('\r\n');
    expect(lines[0]).toBe('"email","attempts","smtp_code","last_error"');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([`"${emails[1]}"`, `"${emails[2]}"`]);

    suite.sink.refuseRecipients.clear();
    const retried = await asAdmin('post', `${API}/${id}/retry-failed`).expect(200);
    expect(retried.body.message).toBe('2 failed recipients queued again.');
    const after = await until(id, (c) => c.state === 'sent' && c.counts.failed === 0);
    expect(after.counts).toMatchObject({ total: 6, sent: 6, failed: 0 });
    expect(
      mailsOf('Some refuse')
        .flatMap((mail) => mail.to)
        .sort(),
    ).toEqual(emails);
    const nothing = await asAdmin('post', `${API}/${id}/retry-failed`).expect(200);
    expect(nothing.body.message).toBe('No failed recipients to retry.');
    expect(
      await suite.mongo.db().collection('audit_log').countDocuments({ 'target.id': id, action: 'newsletter.campaign.retry_failed' }),
    ).toBe(1);
  });

  it('pause stops sending, resume finishes it, cancel ends it for good; someone unsubscribed meanwhile is skipped; state conflicts are 409', async () => {
    await suite.mongo.db().collection('newsletter_send_windows').deleteMany({});
    const emails = await only('paced', 40);
    const limits = {
      senderName: 'Hitscope',
      senderAddress: 'news@hitscope.test',
      replyTo: null,
      maxPerSecond: 4,
      maxPerHour: null,
      maxPerDay: null,
    };
    await asAdmin('put', '/api/admin/newsletter/settings', limits).expect(200);
    try {
      const id = await draft('Paced');
      await asAdmin('post', `${API}/${id}/send`).expect(200);
      await until(id, (c) => c.counts.sent >= 4);
      const paused = await asAdmin('post', `${API}/${id}/pause`).expect(200);
      expect(paused.body.campaign.state).toBe('paused');
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const held = (await campaign(id)).counts.sent;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect((await campaign(id)).counts.sent).toBe(held);
      expect(held).toBeLessThan(40);
      await asAdmin('put', `${API}/${id}`, { subject: 'x', body: 'y' }).expect(409);
      await asAdmin('delete', `${API}/${id}`).expect(409);
      await asAdmin('post', `${API}/${id}/pause`).expect(409);

      // Someone not reached yet unsubscribes: skipped, not mailed.
      const reached = new Set(mailsOf('Paced').flatMap((mail) => mail.to));
      const leaving = emails.find((email) => !reached.has(email))!;
      await subscribers().updateOne(
        { _id: leaving as never },
        { $set: { state: 'unsubscribed', suppressed: { reason: 'unsubscribed', at: new Date() } } },
      );

      await asAdmin('put', '/api/admin/newsletter/settings', { ...limits, maxPerSecond: null }).expect(200);
      const resumed = await asAdmin('post', `${API}/${id}/resume`).expect(200);
      expect(resumed.body.campaign.state).toBe('sending');
      const done = await until(id, (c) => c.state === 'sent');
      expect(done.counts).toMatchObject({ total: 40, sent: 39, skipped: 1, failed: 0 });
      expect(mailsOf('Paced').some((mail) => mail.to.includes(leaving))).toBe(false);

      await asAdmin('put', '/api/admin/newsletter/settings', { ...limits, maxPerSecond: 2 }).expect(200);
      const cancelled = await draft('Cancelled');
      await asAdmin('post', `${API}/${cancelled}/send`).expect(200);
      await until(cancelled, (c) => c.counts.sent >= 2);
      await asAdmin('post', `${API}/${cancelled}/cancel`).expect(200);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      const stopped = mailsOf('Cancelled').length;
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(mailsOf('Cancelled').length).toBe(stopped);
      expect(stopped).toBeLessThan(39);
      expect((await campaign(cancelled)).state).toBe('cancelled');
      await asAdmin('post', `${API}/${cancelled}/resume`).expect(409);
      await asAdmin('post', `${API}/${cancelled}/send`).expect(409);
      const actions = (await suite.mongo.db().collection('audit_log').find({ 'target.id': id }).toArray()).map((entry) => entry.action);
      expect(actions).toEqual(
        expect.arrayContaining(['newsletter.campaign.send', 'newsletter.campaign.pause', 'newsletter.campaign.resume']),
      );
    } finally {
      await asAdmin('put', '/api/admin/newsletter/settings', { ...limits, maxPerSecond: null }).expect(200);
    }
  }, 120_000);

  it('respects the limits: per second it paces, per hour it stops at the cap and shows an ETA of the next window', async () => {
    await suite.mongo.db().collection('newsletter_send_windows').deleteMany({});
    const base = { senderName: 'Hitscope', senderAddress: 'news@hitscope.test', replyTo: null, maxPerDay: null };
    await only('hourly', 30);
    await asAdmin('put', '/api/admin/newsletter/settings', { ...base, maxPerSecond: 10, maxPerHour: 20 }).expect(200);
    try {
      const id = await draft('Hourly cap');
      await asAdmin('post', `${API}/${id}/send`).expect(200);
      await until(id, (c) => c.counts.sent === 20);
      // 20 at 10 a second: no second's window granted more than 10, so they went out in at least two
      // seconds. (Windows are calendar seconds: the elapsed time alone can be under a second.)
      const seconds = (
        await suite.mongo
          .db()
          .collection('newsletter_send_windows')
          .find({ _id: { $regex: /^s:/ } as never })
          .toArray()
      )
        .map((window) => window.n as number)
        .filter((n) => n > 0);
      expect(seconds.length).toBeGreaterThanOrEqual(2);
      expect(Math.max(...seconds)).toBeLessThanOrEqual(10);
      expect(seconds.reduce((sum, n) => sum + n, 0)).toBe(20);
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const capped = await campaign(id);
      expect(capped).toMatchObject({ state: 'sending', counts: { sent: 20, queued: 10 } });
      expect(mailsOf('Hourly cap')).toHaveLength(20);
      // The hour's 20 are used up: the rest waits for the next hour, and the ETA says so.
      const nextHour = (Math.floor(Date.now() / 3_600_000) + 1) * 3_600_000;
      expect(capped.etaSeconds).toBeGreaterThanOrEqual(Math.floor((nextHour - Date.now()) / 1000) - 5);
      expect(capped.etaSeconds).toBeLessThanOrEqual(3602);
      const windows = await suite.mongo
        .db()
        .collection('newsletter_send_windows')
        .find({ _id: { $regex: /^h:/ } as never })
        .toArray();
      expect(windows.map((window) => window.n)).toEqual([20]);
      await asAdmin('post', `${API}/${id}/cancel`).expect(200);
    } finally {
      await asAdmin('put', '/api/admin/newsletter/settings', { ...base, maxPerSecond: null, maxPerHour: null }).expect(200);
    }
  }, 90_000);

  it('a worker that dies mid-campaign: a new app on the same database takes over expired leases and finishes; re-sent messages keep their Message-ID', async () => {
    const emails = await only('crash', 300);
    const id = await draft('Survives a crash');
    await asAdmin('post', `${API}/${id}/send`).expect(200);
    await suite.sink.waitFor(() => mailsOf('Survives a crash').length >= 60, 120_000);
    // The server takes the next messages but never answers: the worker cannot know they arrived.
    suite.sink.holdReplies = true;
    const before = mailsOf('Survives a crash').length;
    await suite.sink.waitFor(() => mailsOf('Survives a crash').length > before, 30_000);
    await suite.restart();
    suite.sink.holdReplies = false;
    suite.sink.releaseHeld();
    // The new app signs the same admin in with the same cookies (same AUTH_SECRET, same database).
    const done = await until(id, (c) => c.state === 'sent', 200_000);
    expect(done.counts).toMatchObject({ total: 300, sent: 300, failed: 0 });
    const mails = mailsOf('Survives a crash');
    const byRecipient = new Map<string, ReceivedMail[]>();
    for (const mail of mails) for (const to of mail.to) byRecipient.set(to, [...(byRecipient.get(to) ?? []), mail]);
    expect([...byRecipient.keys()].sort()).toEqual(emails);
    const twice = [...byRecipient.values()].filter((copies) => copies.length > 1);
    // Only messages in flight when the worker died (at most one batch, one lease window) went twice, each with one Message-ID.
    expect(twice.length).toBeGreaterThan(0);
    expect(twice.length).toBeLessThanOrEqual(FAST.batchSize);
    for (const copies of twice) expect(new Set(copies.map((copy) => copy.messageId)).size).toBe(1);
    expect([...byRecipient.values()].every((copies) => copies.length <= 2)).toBe(true);
  }, 260_000);

  /**
   * What a worker leaves behind when it dies, written straight into the database: a campaign whose
   * list was copied into slices, and slices in the states a claim can leave them in. The running
   * app's worker then finds them as it would after a crash elsewhere.
   */
  async function staged(subject: string, emails: string[], slices: { state: 'queued' | 'sending'; leaseUntil: Date | null }[]) {
    const id = await draft(subject);
    const db = suite.mongo.db();
    const size = Math.ceil(emails.length / slices.length);
    const now = new Date();
    await db.collection('newsletter_slice_recipients').insertMany(
      slices.map((_, n) => ({
        _id: `${id}:${n}` as never,
        campaignId: id,
        recipients: emails
          .slice(n * size, (n + 1) * size)
          .map((email) => ({ email, attempts: 0, nextAttemptAt: null, lastError: null, lastCode: null })),
      })),
    );
    await db.collection('newsletter_campaign_slices').insertMany(
      slices.map((slice, n) => ({
        _id: `${id}:${n}` as never,
        campaignId: id,
        n,
        state: slice.state,
        nextAttemptAt: now,
        leaseUntil: slice.leaseUntil,
        leaseOwner: slice.state === 'sending' ? 'a-worker-that-died' : null,
        claim: slice.state === 'sending' ? 'its-claim' : null,
      })),
    );
    return { id, size, db };
  }

  async function startStaged(id: string, total: number, extra: Record<string, unknown> = {}) {
    await suite.mongo
      .db()
      .collection('newsletter_campaigns')
      .updateOne(
        { _id: id as never },
        {
          $set: {
            state: 'sending',
            startedAt: new Date(),
            snapshotComplete: true,
            slices: 2,
            total,
            rateSample: { at: new Date(), sent: 0 },
            ...extra,
          },
        },
      );
  }

  it('a slice whose lease ran out is taken over without re-sending the recipients its dead worker had settled; counts end exact', async () => {
    const emails = await only('takeover', 40);
    // Slice 1 was in the hands of a worker that died after settling its first 12 recipients.
    const { id, size, db } = await staged('Taken over', emails, [
      { state: 'queued', leaseUntil: null },
      { state: 'sending', leaseUntil: new Date(Date.now() - 1000) },
    ]);
    const settledByTheDead = emails.slice(size, size + 12);
    await db.collection('newsletter_deliveries').insertMany(
      settledByTheDead.map((email) => ({
        _id: `${id}:${email}` as never,
        campaignId: id,
        email,
        status: 'sent',
        attempts: 1,
        lastError: null,
        lastCode: null,
        sentAt: new Date(),
      })),
    );
    await startStaged(id, 40);
    const done = await until(id, (c) => c.state === 'sent');
    // The dead worker's 12 were never counted by it: the recount at the end makes the counts exact.
    expect(done.counts).toMatchObject({ total: 40, sent: 40, failed: 0, skipped: 0, queued: 0 });
    const mailed = mailsOf('Taken over').flatMap((mail) => mail.to);
    expect(mailed.sort()).toEqual(emails.filter((email) => !settledByTheDead.includes(email)).sort());
    expect(await db.collection('newsletter_deliveries').countDocuments({ campaignId: id })).toBe(40);
    // Nothing of the campaign's work is left behind.
    expect(await db.collection('newsletter_campaign_slices').countDocuments({ campaignId: id })).toBe(0);
    expect(await db.collection('newsletter_slice_recipients').countDocuments({ campaignId: id })).toBe(0);
  });

  it('a slice under a live lease is left alone until the lease runs out, then sent once', async () => {
    const emails = await only('leased', 20);
    const leaseEnds = Date.now() + 8000;
    const { id, size, db } = await staged('Leased elsewhere', emails, [
      { state: 'queued', leaseUntil: null },
      { state: 'sending', leaseUntil: new Date(leaseEnds) },
    ]);
    await startStaged(id, 20);
    const held = emails.slice(size);
    await suite.sink.waitFor(() => mailsOf('Leased elsewhere').length >= size, 30_000);
    // The other worker's slice is not touched while its lease runs (checked well before it ends).
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(Date.now()).toBeLessThan(leaseEnds - 1000);
    expect(mailsOf('Leased elsewhere').flatMap((mail) => mail.to)).toHaveLength(size);
    expect(
      mailsOf('Leased elsewhere')
        .flatMap((mail) => mail.to)
        .filter((email) => held.includes(email)),
    ).toEqual([]);
    expect(await db.collection('newsletter_campaign_slices').findOne({ _id: `${id}:1` as never })).toMatchObject({
      state: 'sending',
      claim: 'its-claim',
    });
    const done = await until(id, (c) => c.state === 'sent');
    expect(done.counts).toMatchObject({ total: 20, sent: 20 });
    const mailed = mailsOf('Leased elsewhere').flatMap((mail) => mail.to);
    expect(mailed.sort()).toEqual([...emails].sort());
    expect(Date.now()).toBeGreaterThanOrEqual(leaseEnds);
  });

  it('a campaign paced by a per-second limit finishes: the slices in flight at once do not hide that nothing is left', async () => {
    await suite.mongo.db().collection('newsletter_send_windows').deleteMany({});
    const emails = await only('paced-end', 12);
    const base = { senderName: 'Hitscope', senderAddress: 'news@hitscope.test', replyTo: null, maxPerHour: null, maxPerDay: null };
    await asAdmin('put', '/api/admin/newsletter/settings', { ...base, maxPerSecond: 5 }).expect(200);
    try {
      const id = await draft('Paced to the end');
      await asAdmin('post', `${API}/${id}/send`).expect(200);
      const done = await until(id, (c) => c.state === 'sent', 30_000);
      expect(done.counts).toMatchObject({ total: 12, sent: 12, queued: 0 });
      expect(
        mailsOf('Paced to the end')
          .flatMap((mail) => mail.to)
          .sort(),
      ).toEqual(emails);
    } finally {
      await asAdmin('put', '/api/admin/newsletter/settings', { ...base, maxPerSecond: null }).expect(200);
    }
  });

  it('a snapshot step cut short after writing slices: the next step adopts them, nobody is copied twice', async () => {
    const emails = await only('adopted', 120);
    const id = await draft('Adopted slices');
    const db = suite.mongo.db();
    // The step wrote the recipients of slice 0 (the first 50 addresses) and died before its slice
    // and the campaign's record of it.
    await db.collection('newsletter_slice_recipients').insertOne({
      _id: `${id}:0` as never,
      campaignId: id,
      recipients: emails.slice(0, 50).map((email) => ({ email, attempts: 0, nextAttemptAt: null, lastError: null, lastCode: null })),
    });
    await db
      .collection('newsletter_campaigns')
      .updateOne(
        { _id: id as never },
        { $set: { state: 'sending', startedAt: new Date(), snapshotComplete: false, snapshotCursor: null, slices: 0, total: 0 } },
      );
    const done = await until(id, (c) => c.state === 'sent');
    expect(done.counts).toMatchObject({ total: 120, sent: 120, failed: 0 });
    const mailed = mailsOf('Adopted slices').flatMap((mail) => mail.to);
    expect(mailed).toHaveLength(120);
    expect(mailed.sort()).toEqual(emails);
  });
});

describe('newsletter campaigns: live progress through the production middleware (compression included)', () => {
  const suite = new MailSuite();

  beforeAll(() => suite.start('newsletter-campaigns-sse', { ADMIN_EMAILS: ADMIN }), 60_000);
  afterAll(() => suite.stop());

  it('streams progress as server-sent events, uncompressed although gzip is accepted, and ends once the campaign is sent', async () => {
    const admin = await suite.register(ADMIN, 'Campaign Admin');
    await insertConfirmedSubscribers(
      suite.mongo.db(),
      Array.from({ length: 5 }, (_, index) => `stream-${index}@example.test`),
    );
    const created = await suite.post(API, { subject: 'Streamed', body: 'Live' }, admin).expect(201);
    const id = created.body.id as string;
    await suite.post(`${API}/${id}/send`, {}, admin).expect(200);
    const response = await suite
      .http()
      .get(`${API}/${id}/events`)
      .set('Cookie', admin)
      .set('Accept-Encoding', 'gzip, br')
      .buffer(true)
      .parse((res, callback) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => callback(null, text));
      })
      .expect(200);
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8');
    expect(response.headers['content-encoding']).toBeUndefined();
    const text = response.body as string;
    const events = text.split('\n\n').filter((block) => block.includes('event: progress'));
    expect(events.length).toBeGreaterThan(0);
    const last = JSON.parse(/data: (.*)/.exec(events.at(-1)!)![1]) as CampaignBody;
    expect(last).toMatchObject({ id, state: 'sent', counts: { sent: 5, total: 5 } });
    expect(text).toContain('event: done');
    await suite.http().get(`${API}/${id}/events`).expect(401);
  }, 60_000);
});
