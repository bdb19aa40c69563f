/**
 * First-party analytics end to end: the real app (in-process, its collector mounted as in
 * production) on the real database, with the analytics clock injected so that a test can cross
 * midnight UTC (salt rotation, day close, sweeps) without waiting. Beacons are posted over HTTP with
 * realistic browser user agents and addresses (X-Forwarded-For, the app trusting the proxy).
 */
import { jest } from '@jest/globals';
import { Global, Module } from '@nestjs/common';
import { getModelToken } from '@nestjs/mongoose';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { Test } from '@nestjs/testing';
import { type Db, MongoClient } from 'mongodb';
import type { Model } from 'mongoose';
import request from 'supertest';
import {
  type AnalyticsDashboard,
  type AnalyticsRealtime,
  type AnalyticsSettings,
  type Beacon,
  NOT_FOUND_ENTRY,
} from '../../lib/api/analytics.js';
import type { AdminOverviewResponse } from '../../lib/api/overview.js';
import { AdminDetector } from '../../src/analytics/admin-detector.js';
import { analyticsCollector } from '../../src/analytics/collector.js';
import { AnalyticsMaintenanceService, ANALYTICS_MAINTENANCE_MS } from '../../src/analytics/analytics-maintenance.service.js';
import { ANALYTICS_CLOCK, type Clock } from '../../src/analytics/clock.js';
import { ANALYTICS_FLUSH_MS, AnalyticsIngestService } from '../../src/analytics/ingest.service.js';
import { AnalyticsCounter } from '../../src/analytics/schemas/analytics-counter.schema.js';
import { installRequestHandling } from '../../src/app.factory.js';
import { answerBeforeTheFramework } from '../../src/common/before-the-framework.js';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { OVERVIEW_CACHE_MS } from '../../src/overview/admin-overview.service.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { PageContextService } from '../../src/ssr/page-context.service.js';
import type { SessionUser } from '../../lib/api/auth.js';
import type { DataSource } from '../../lib/ssr/render-contract.js';
import { type SignedUp, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'analytics-admin@example.test';
const PUBLIC_URL = 'http://hitscope.test';
const DAY_MS = 86_400_000;
/** The analytics clock starts at noon on a fixed day, far from the real date. */
const DAY1 = '2030-01-10';
const DAY2 = '2030-01-11';
const DAY3 = '2030-01-12';
const noon = (day: string) => Date.parse(`${day}T12:00:00Z`);

const FIREFOX = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const GOOGLEBOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';
/** The address and the user agent that must never reach the database. */
const SECRET_IP = '198.51.100.77';
const SECRET_UA = 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0 UniqueMarker-7f3a9c';

const clock: Clock & { at: number } = { at: noon(DAY1), now: () => clock.at };

@Global()
@Module({
  providers: [
    { provide: ANALYTICS_FLUSH_MS, useValue: 0 },
    { provide: ANALYTICS_MAINTENANCE_MS, useValue: 0 },
    { provide: OVERVIEW_CACHE_MS, useValue: 0 },
  ],
  exports: [ANALYTICS_FLUSH_MS, ANALYTICS_MAINTENANCE_MS, OVERVIEW_CACHE_MS],
})
class TestBindingsModule {}

let app: NestExpressApplication;
let mongodbUri: string;
let baseUrl: string;
let mongo: MongoClient;
let db: Db;
let admin: SignedUp;
let ingest: AnalyticsIngestService;

interface Send {
  ip?: string;
  ua?: string;
  headers?: Record<string, string>;
  body?: Beacon | string;
  contentType?: string;
}

async function beacon({ ip = '203.0.113.1', ua = FIREFOX, headers = {}, body = { p: '/' }, contentType = 'text/plain' }: Send = {}) {
  return fetch(`${baseUrl}/api/e`, {
    method: 'POST',
    headers: {
      'content-type': contentType,
      origin: PUBLIC_URL,
      'sec-fetch-site': 'same-origin',
      'user-agent': ua,
      'x-forwarded-for': ip,
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

/** Everything recorded so far is in the database. */
async function settled(): Promise<void> {
  await ingest.settle();
  await ingest.flush();
}

async function counter(day: string, dim: string, value: string): Promise<number> {
  const doc = await db.collection<{ _id: string; n: number }>('analytics_counters').findOne({ _id: `${day}|${dim}|${value}` });
  return doc?.n ?? 0;
}

async function dashboard(query: string): Promise<AnalyticsDashboard> {
  const response = await admin.agent.get(`/api/admin/analytics?${query}`).expect(200);
  return response.body as AnalyticsDashboard;
}

beforeAll(async () => {
  mongodbUri = testDatabaseUri('analytics');
  const config = loadConfig({
    NODE_ENV: 'test',
    MONGODB_URI: mongodbUri,
    LOG_LEVEL: 'error',
    PORT: '0',
    ADMIN_EMAILS: ADMIN,
    PUBLIC_URL,
    TRUST_PROXY: 'true',
  });
  const renderer = await createProductionRenderer();
  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot({ config, mongodbUri, renderer }), TestBindingsModule],
  })
    .overrideProvider(ANALYTICS_CLOCK)
    .useValue(clock)
    .compile();
  app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error', 'warn'] });
  app.set('trust proxy', config.trustProxy);
  answerBeforeTheFramework(app.getHttpServer(), [analyticsCollector(app)]);
  installRequestHandling(app, config);
  await app.listen(0, '127.0.0.1');
  baseUrl = await app.getUrl();
  baseUrl = baseUrl.replace('[::1]', '127.0.0.1');
  mongo = await MongoClient.connect(mongodbUri);
  db = mongo.db();
  ingest = app.get(AnalyticsIngestService);
  admin = await signUp({ agent: request.agent(app.getHttpServer()), email: ADMIN, database: mongodbUri });
}, 60_000);

afterAll(async () => {
  await mongo?.close();
  await app?.close();
});

describe('POST /api/e: the collector', () => {
  it('answers 202 to a page view, 400 to garbage, 413 to an oversized body and 405 to other methods', async () => {
    expect((await beacon()).status).toBe(202);
    expect((await beacon({ body: 'not json' })).status).toBe(400);
    const bad = await beacon({ body: { p: 'no-slash' } });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { message: string }).message).toMatch(/path/);
    expect((await beacon({ body: '{"p":"/","x":1}' })).status).toBe(400);
    expect((await beacon({ contentType: 'application/x-www-form-urlencoded' })).status).toBe(400);
    expect((await beacon({ body: JSON.stringify({ p: `/${'a'.repeat(3000)}` }) })).status).toBe(413);
    expect((await fetch(`${baseUrl}/api/e`)).status).toBe(405);
    // No cookie, no CSRF token, no page headers: the collector answers before all of that.
    const accepted = await beacon({ body: { p: '/headers' } });
    expect(accepted.headers.get('set-cookie')).toBeNull();
    expect(accepted.headers.get('content-security-policy')).toBe("default-src 'none'; frame-ancestors 'none'");
    await settled();
  });

  it('a bot user agent adds 0 page views and 1 bot drop', async () => {
    await settled();
    const before = { views: await counter(DAY1, 'total', 'pageviews'), bots: await counter(DAY1, 'drop', 'bot') };
    expect((await beacon({ ua: GOOGLEBOT, body: { p: '/bot-page' } })).status).toBe(202);
    await settled();
    expect(await counter(DAY1, 'total', 'pageviews')).toBe(before.views);
    expect(await counter(DAY1, 'drop', 'bot')).toBe(before.bots + 1);
    expect(await counter(DAY1, 'page', '/bot-page')).toBe(0);
  });

  it('drops headless browsers, the webdriver flag, referrer spam, foreign origins and privacy signals, each by reason', async () => {
    await settled();
    const reasons = ['headless', 'spam', 'origin', 'privacy'] as const;
    const before = Object.fromEntries(await Promise.all(reasons.map(async (reason) => [reason, await counter(DAY1, 'drop', reason)])));
    const views = await counter(DAY1, 'total', 'pageviews');
    await beacon({ ua: 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36' });
    await beacon({ body: { p: '/', wd: true } });
    await beacon({ body: { p: '/', r: 'https://www.semalt.com/crawler' } });
    await beacon({ headers: { origin: 'https://evil.example' } });
    await beacon({ headers: { 'sec-gpc': '1' } });
    await beacon({ headers: { dnt: '1' } });
    await settled();
    expect(await counter(DAY1, 'drop', 'headless')).toBe(before.headless + 2);
    expect(await counter(DAY1, 'drop', 'spam')).toBe(before.spam + 1);
    expect(await counter(DAY1, 'drop', 'origin')).toBe(before.origin + 1);
    expect(await counter(DAY1, 'drop', 'privacy')).toBe(before.privacy + 2);
    expect(await counter(DAY1, 'total', 'pageviews')).toBe(views);
  });

  it('drops signed-in admins unless the settings count them, and honours the ignore list (settings audited)', async () => {
    await settled();
    const cookie = `hs_session=${admin.session}`;
    // Admins are re-read every 30 s; this one signed up after the app started.
    await app.get(AdminDetector).refresh();
    const adminDrops = await counter(DAY1, 'drop', 'admin');
    await beacon({ headers: { cookie } });
    await settled();
    expect(await counter(DAY1, 'drop', 'admin')).toBe(adminDrops + 1);

    const settings: AnalyticsSettings = {
      ignoreIps: ['192.0.2.0/24'],
      ignorePaths: ['/internal'],
      retentionDays: 400,
      respectPrivacySignals: false,
      countAdmins: true,
    };
    const refused = await admin.agent
      .put('/api/admin/analytics/settings')
      .set('x-csrf-token', admin.token)
      .send({ ...settings, ignoreIps: ['not-an-ip'] });
    expect(refused.status).toBe(400);
    expect(refused.body.fields.ignoreIps[0]).toMatch(/not-an-ip/);
    expect((await admin.agent.put('/api/admin/analytics/settings').send(settings)).status).toBe(403); // no CSRF token
    await admin.agent.put('/api/admin/analytics/settings').set('x-csrf-token', admin.token).send(settings).expect(200);
    expect((await admin.agent.get('/api/admin/analytics/settings').expect(200)).body).toEqual(settings);
    // The tracker reads the privacy-signal choice from the public site settings, which every page has.
    const anonymous = request(app.getHttpServer());
    expect((await anonymous.get('/api/site-settings').expect(200)).body.respectPrivacySignals).toBe(false);
    const audit = await db.collection('audit_log').findOne({ action: 'analytics.settings.update' });
    expect(audit).toMatchObject({ target: { type: 'analytics_settings' }, after: { retentionDays: 400 } });

    const ignored = await counter(DAY1, 'drop', 'ignored');
    const views = await counter(DAY1, 'total', 'pageviews');
    await beacon({ ip: '192.0.2.55' });
    await beacon({ body: { p: '/internal/report' } });
    await beacon({ headers: { cookie }, body: { p: '/admin-counted' } });
    await beacon({ headers: { 'sec-gpc': '1' }, body: { p: '/gpc-counted' } });
    await settled();
    expect(await counter(DAY1, 'drop', 'ignored')).toBe(ignored + 2);
    expect(await counter(DAY1, 'total', 'pageviews')).toBe(views + 2);
    expect(await counter(DAY1, 'page', '/admin-counted')).toBe(1);

    await admin.agent
      .put('/api/admin/analytics/settings')
      .set('x-csrf-token', admin.token)
      .send({ ignoreIps: [], ignorePaths: [], retentionDays: 730, respectPrivacySignals: true, countAdmins: false })
      .expect(200);
    expect((await anonymous.get('/api/site-settings').expect(200)).body.respectPrivacySignals).toBe(true);
  });

  it('refuses the dashboard and settings to non-admins', async () => {
    await request(app.getHttpServer()).get('/api/admin/analytics').expect(401);
    const user = await signUp({ agent: request.agent(app.getHttpServer()), database: mongodbUri });
    await user.agent.get('/api/admin/analytics').expect(403);
    await user.agent.get('/api/admin/analytics/settings').expect(403);
  });
});

describe('visitors, visits and the daily salt', () => {
  it('counts the same visitor twice in a day as one unique, and a second browser as another', async () => {
    await settled();
    const before = await dashboard(`from=${DAY1}&to=${DAY1}`);
    await beacon({ ip: '203.0.113.50', ua: IPHONE, body: { p: '/pricing', r: 'https://www.google.com/' } });
    await beacon({ ip: '203.0.113.50', ua: IPHONE, body: { p: '/sponsor' } });
    await beacon({ ip: '203.0.113.50', ua: FIREFOX, body: { p: '/pricing' } });
    await settled();
    const after = await dashboard(`from=${DAY1}&to=${DAY1}`);
    expect(after.kpis.pageviews - before.kpis.pageviews).toBe(3);
    expect(after.kpis.visitors - before.kpis.visitors).toBe(2);
    expect(after.kpis.visits - before.kpis.visits).toBe(2);
    // The iPhone visit saw two pages (no bounce); the Firefox one a single page (a bounce).
    expect(after.kpis.bounces - before.kpis.bounces).toBe(1);
    const entry = (rows: AnalyticsDashboard['tables']['entry'], value: string) => rows.find((row) => row.value === value)?.count ?? 0;
    expect(entry(after.tables.entry, '/pricing') - entry(before.tables.entry, '/pricing')).toBe(2);
    expect(after.tables.referrer.find((row) => row.value === 'google.com')?.count).toBe(1);
    expect(after.tables.channel.find((row) => row.value === 'Organic search')?.count).toBe(1);
    expect(after.tables.device.find((row) => row.value === 'mobile')?.count).toBeGreaterThanOrEqual(2);
    expect(after.tables.browser.find((row) => row.value === 'Safari')?.count).toBeGreaterThanOrEqual(2);
  });

  it('counts page views of the "Page not found" screen apart: in the totals and "Not found", never in the top pages', async () => {
    await settled();
    const before = await dashboard(`from=${DAY1}&to=${DAY1}`);
    const ip = '203.0.113.52';
    await beacon({ ip, ua: IPHONE, body: { p: '/wp-login.php', nf: true, r: 'https://old-blog.example/post' } });
    await beacon({ ip, ua: IPHONE, body: { p: '/wp-login.php', nf: true } });
    await beacon({ ip, ua: IPHONE, body: { p: '/sponsor' } });
    await settled();
    const after = await dashboard(`from=${DAY1}&to=${DAY1}`);
    const count = (rows: AnalyticsDashboard['tables']['page'], value: string) => rows.find((row) => row.value === value)?.count ?? 0;
    expect(after.kpis.pageviews - before.kpis.pageviews).toBe(3);
    expect(after.kpis.visits - before.kpis.visits).toBe(1);
    expect(count(after.tables.page, '/wp-login.php')).toBe(0);
    expect(count(after.tables.page, '/sponsor') - count(before.tables.page, '/sponsor')).toBe(1);
    expect(count(after.tables.notfound, '/wp-login.php') - count(before.tables.notfound, '/wp-login.php')).toBe(2);
    // The visit began on the 404 screen: its entry is said so, its path stays out of the entry pages.
    expect(count(after.tables.entry, NOT_FOUND_ENTRY) - count(before.tables.entry, NOT_FOUND_ENTRY)).toBe(1);
    expect(count(after.tables.entry, '/wp-login.php')).toBe(0);
    expect(await beacon({ body: { p: '/', nf: 'yes' } as unknown as Beacon }).then((response) => response.status)).toBe(400);
  });

  it('starts a new visit after 30 minutes idle', async () => {
    await settled();
    const ip = '203.0.113.51';
    const before = await dashboard(`from=${DAY1}&to=${DAY1}`);
    await beacon({ ip, body: { p: '/a' } });
    await settled();
    clock.at += 31 * 60_000;
    await beacon({ ip, body: { p: '/b', us: 'newsletter', um: 'email', uc: 'launch' } });
    await settled();
    const after = await dashboard(`from=${DAY1}&to=${DAY1}`);
    expect(after.kpis.visitors - before.kpis.visitors).toBe(1);
    expect(after.kpis.visits - before.kpis.visits).toBe(2);
    expect(after.tables.utm_campaign).toEqual([{ value: 'launch', count: 1, previous: 0 }]);
    expect(after.tables.channel.find((row) => row.value === 'Email')?.count).toBe(1);
  });

  it('shows realtime visitors of the last 5 minutes', async () => {
    await beacon({ ip: '203.0.113.52', body: { p: '/now' } });
    await settled();
    const first = (await admin.agent.get('/api/admin/analytics/realtime').expect(200)).body as AnalyticsRealtime;
    expect(first.visitors).toBeGreaterThanOrEqual(1);
    clock.at += 6 * 60_000;
    const later = (await admin.agent.get('/api/admin/analytics/realtime').expect(200)).body as AnalyticsRealtime;
    expect(later.visitors).toBe(0);
  });

  it('after the salt rotates at 00:00 UTC the same visitor is a new unique; the day closes and old salts and visitor-days go', async () => {
    const ip = '203.0.113.60';
    await beacon({ ip, body: { p: '/day-one' } });
    await settled();
    const dayOneVisitors = (await dashboard(`from=${DAY1}&to=${DAY1}`)).kpis.visitors;
    const saltOne = await db.collection('analytics_salts').findOne({ _id: DAY1 as never });
    expect(saltOne).not.toBeNull();

    clock.at = noon(DAY2);
    await beacon({ ip, body: { p: '/day-two' } });
    await beacon({ ip, body: { p: '/day-two-again' } });
    await settled();
    const dayTwo = await dashboard(`from=${DAY2}&to=${DAY2}`);
    expect(dayTwo.kpis).toMatchObject({ pageviews: 2, visitors: 1, visits: 1, bounces: 0 });
    const saltTwo = await db.collection('analytics_salts').findOne({ _id: DAY2 as never });
    expect(Buffer.from(saltTwo!.salt.buffer).equals(Buffer.from(saltOne!.salt.buffer))).toBe(false);
    // Two days summed: the visitor counts once per day (the metric says so).
    expect((await dashboard(`from=${DAY1}&to=${DAY2}`)).kpis.visitors).toBe(dayOneVisitors + 1);

    // Day one closes: its counters fold into one summary, with the same figures.
    const maintenance = app.get(AnalyticsMaintenanceService);
    const result = await maintenance.run();
    expect(result.closed).toContain(DAY1);
    // The live unique-visitor counter is not folded in: the summary counts the visitor-days themselves.
    const summaryOne = await db.collection<{ _id: string; counts: string }>('analytics_days').findOne({ _id: DAY1 });
    expect(summaryOne!.counts).toContain('"visitors"');
    expect(summaryOne!.counts).not.toContain('visitors_live');
    expect(await db.collection('analytics_counters').countDocuments({ day: DAY1 })).toBe(0);
    expect((await dashboard(`from=${DAY1}&to=${DAY1}`)).kpis.visitors).toBe(dayOneVisitors);
    expect(await db.collection('analytics_salts').countDocuments({ _id: DAY1 as never })).toBe(1);

    // 48 h after day one ends, its salt and visitor-days are gone; its figures stay.
    clock.at = Date.parse(`${DAY3}T00:00:00Z`) + DAY_MS + 60 * 60_000;
    const later = await maintenance.run();
    expect(later.saltsDeleted).toBeGreaterThanOrEqual(1);
    expect(await db.collection('analytics_salts').countDocuments({ _id: DAY1 as never })).toBe(0);
    expect(await db.collection('analytics_visitor_days').countDocuments({ day: DAY1 })).toBe(0);
    expect((await dashboard(`from=${DAY1}&to=${DAY1}`)).kpis.visitors).toBe(dayOneVisitors);
    clock.at = noon(DAY2);
  });

  it('keeps no IP address or user agent in any collection', async () => {
    clock.at = noon(DAY2);
    await beacon({ ip: SECRET_IP, ua: SECRET_UA, body: { p: '/private', r: 'https://example.org/' } });
    await beacon({ ip: SECRET_IP, ua: SECRET_UA, body: { p: '/private-2' } });
    await settled();
    const collections = await db.listCollections().toArray();
    let dump = '';
    for (const { name } of collections) dump += JSON.stringify(await db.collection(name).find().toArray());
    expect(dump).toContain('/private-2');
    expect(dump).not.toContain(SECRET_IP);
    expect(dump).not.toContain('UniqueMarker-7f3a9c');
    expect(dump).not.toContain(SECRET_UA);
  });
});

describe('counters', () => {
  it('are exact after 1 000 concurrent beacons', async () => {
    clock.at = noon(DAY2) + 60_000;
    await settled();
    const views = await counter(DAY2, 'total', 'pageviews');
    const page = await counter(DAY2, 'page', '/concurrent');
    // 1 000 beacons, 250 in flight at any moment (more would overflow the listen backlog of a loaded machine).
    const statuses: number[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: 250 }, async () => {
        while (next < 1000) {
          const index = next++;
          const response = await beacon({
            ip: `10.${(index >> 8) & 255}.${index & 255}.9`,
            ua: index % 2 ? FIREFOX : IPHONE,
            body: { p: '/concurrent' },
          });
          statuses.push(response.status);
        }
      }),
    );
    expect(statuses.filter((status) => status === 202)).toHaveLength(1000);
    await settled();
    expect(await counter(DAY2, 'total', 'pageviews')).toBe(views + 1000);
    expect(await counter(DAY2, 'page', '/concurrent')).toBe(page + 1000);
    expect(await db.collection('analytics_visitor_days').countDocuments({ day: DAY2, entry: '/concurrent' })).toBe(1000);
  }, 60_000);
});

describe('GET /api/admin/analytics: ranges and the previous period', () => {
  const seedDay = async (day: string, pageviews: number, visitors: number) => {
    await db.collection<{ _id: string }>('analytics_days').insertOne({
      _id: day,
      counts: JSON.stringify([
        ['total', 'pageviews', pageviews],
        ['total', 'visitors', visitors],
        ['total', 'visits', visitors],
        ['total', 'bounces', Math.floor(visitors / 2)],
        ['page', '/seeded', pageviews],
      ]),
      closedAt: new Date(),
    } as never);
  };

  it('sums the range, compares with the same number of days before, and validates ranges', async () => {
    clock.at = noon('2030-03-20');
    // 7 days ending 2030-03-20: 03-14..03-20; the previous period 03-07..03-13.
    await seedDay('2030-03-14', 10, 4);
    await seedDay('2030-03-20', 20, 6);
    await seedDay('2030-03-13', 5, 2); // previous period
    await seedDay('2030-03-06', 99, 9); // before both
    const week = await dashboard('preset=7d');
    expect([week.from, week.to, week.previousFrom, week.previousTo]).toEqual(['2030-03-14', '2030-03-20', '2030-03-07', '2030-03-13']);
    expect(week.kpis).toMatchObject({ pageviews: 30, visitors: 10, visits: 10, bounces: 5, bounceRate: 0.5, viewsPerVisit: 3 });
    expect(week.previousKpis).toMatchObject({ pageviews: 5, visitors: 2, visits: 2, bounces: 1 });
    expect(week.series).toHaveLength(7);
    expect(week.series[0]).toEqual({ day: '2030-03-14', pageviews: 10, visitors: 4, visits: 4 });
    expect(week.tables.page).toEqual([{ value: '/seeded', count: 30, previous: 5 }]);

    const today = await dashboard('preset=today');
    expect(today.kpis.pageviews).toBe(20);
    expect(today.previousKpis.pageviews).toBe(0);
    const custom = await dashboard('from=2030-03-06&to=2030-03-13');
    expect(custom.kpis.pageviews).toBe(104);
    expect((await dashboard('preset=90d')).series).toHaveLength(90);

    for (const query of [
      'from=2030-03-10',
      'from=2030-03-10&to=2030-03-01',
      'from=2029-01-01&to=2030-03-20',
      'from=2030-03-01&to=2030-03-25',
    ]) {
      const response = await admin.agent.get(`/api/admin/analytics?${query}`);
      expect(response.status).toBe(400);
      expect(response.body.fields).toBeDefined();
    }
    expect((await admin.agent.get('/api/admin/analytics?preset=1y')).status).toBe(400);
  });

  it('exports the range as CSV', async () => {
    const response = await admin.agent.get('/api/admin/analytics/export.csv?preset=7d').expect(200);
    expect(response.headers['content-type']).toMatch(/text\/csv/);
    expect(response.headers['content-disposition']).toContain('analytics-2030-03-14-to-2030-03-20.csv');
    expect(response.text).toContain('"daily","2030-03-14","10","4","4",""');
    expect(response.text).toContain('"Top pages","/seeded","30","","","5"');
  });

  it('keeps closed days in memory, reads today live, and picks up a day summarised later', async () => {
    // 7 days ending 2030-03-21: 03-15..03-21, of which only 03-20 has a summary so far.
    clock.at = noon('2030-03-21');
    await settled();
    expect((await dashboard('preset=7d')).kpis).toMatchObject({ pageviews: 20, visitors: 6 });

    // A summary is written once and never changed: the dashboard answers it from memory (changing
    // the stored document behind the app's back, which nothing in the app does, shows it).
    const days = db.collection<{ _id: string; counts: string }>('analytics_days');
    const stored = (await days.findOne({ _id: '2030-03-20' }))!;
    await days.updateOne({ _id: '2030-03-20' }, { $set: { counts: JSON.stringify([['total', 'pageviews', 1000]]) } });
    try {
      expect((await dashboard('preset=7d')).kpis.pageviews).toBe(20);
    } finally {
      await days.updateOne({ _id: '2030-03-20' }, { $set: { counts: stored.counts } });
    }

    // A day of the range without a summary yet (closed later, e.g. by another instance) is picked up.
    await seedDay('2030-03-18', 7, 3);
    expect((await dashboard('preset=7d')).kpis).toMatchObject({ pageviews: 27, visitors: 9 });

    // Today stays live: a page view and a new visitor show at once.
    expect((await beacon({ ip: '203.0.113.222', body: { p: '/live-today' } })).status).toBe(202);
    await settled();
    const live = await dashboard('preset=7d');
    expect(live.kpis).toMatchObject({ pageviews: 28, visitors: 10 });
    expect(live.tables.page).toEqual(expect.arrayContaining([{ value: '/live-today', count: 1, previous: 0 }]));
    // The same visitor again: one more page view, still one unique.
    await beacon({ ip: '203.0.113.222', body: { p: '/live-today-2' } });
    await settled();
    expect((await dashboard('preset=today')).kpis).toMatchObject({ pageviews: 2, visitors: 1 });
  });

  it('a dashboard read while a flush is writing sees those counts, once', async () => {
    clock.at = noon('2030-03-21');
    await settled();
    const before = (await dashboard('preset=today')).kpis.pageviews;
    expect((await beacon({ ip: '203.0.113.223', body: { p: '/mid-flush' } })).status).toBe(202);
    await ingest.settle();
    // A slow database: the flush's write of the counters is held until the dashboard has been read.
    const counters = app.get<Model<AnalyticsCounter>>(getModelToken(AnalyticsCounter.name), { strict: false });
    const write = counters.bulkWrite.bind(counters);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let started!: () => void;
    const writing = new Promise<void>((resolve) => (started = resolve));
    const held = jest.spyOn(counters, 'bulkWrite').mockImplementationOnce(async (...args: Parameters<typeof write>) => {
      started();
      await gate;
      return write(...args);
    });
    try {
      const flushed = ingest.flush();
      await writing;
      expect((await dashboard('preset=today')).kpis.pageviews).toBe(before + 1);
      release();
      await flushed;
      expect((await dashboard('preset=today')).kpis.pageviews).toBe(before + 1);
    } finally {
      release();
      held.mockRestore();
    }
  });

  it('renders /admin/analytics with the dashboard prefetched on the server, for admins only', async () => {
    clock.at = noon('2030-03-21');
    await settled();
    const expected = await dashboard('from=2030-03-14&to=2030-03-20');
    expect(expected.kpis.pageviews).toBe(37);
    const page = await admin.agent.get('/admin/analytics?from=2030-03-14&to=2030-03-20').expect(200);
    // The KPI cards are in the server's markup, with their numbers; no skeleton.
    expect(page.text).toMatch(/data-kpi="pageviews"[\s\S]*?class="analytics-kpi__value">37</);
    expect(page.text).toContain('/seeded');
    expect(page.text).not.toContain('Loading analytics');
    // The preset in the URL is the one prefetched; anything else falls back to the page's default.
    const week = await admin.agent.get('/admin/analytics?preset=7d').expect(200);
    expect(week.text).toMatch(/data-kpi="pageviews"[\s\S]*?class="analytics-kpi__value">\d/);
    // A range the API refuses is not prefetched: the page asks the API itself, which says why.
    const bad = await admin.agent.get('/admin/analytics?from=2030-03-20&to=2030-03-01').expect(200);
    expect(bad.text).not.toContain('data-kpi="pageviews"');

    // Nobody else gets the page's data: not in the markup, not in the dehydrated state.
    const user = await signUp({ agent: request.agent(app.getHttpServer()), database: mongodbUri });
    for (const agent of [user.agent, request.agent(app.getHttpServer())]) {
      const refused = await agent.get('/admin/analytics?from=2030-03-14&to=2030-03-20');
      expect(refused.text).not.toContain('data-kpi="pageviews"');
      expect(refused.text).not.toContain('/seeded');
      expect(refused.text).not.toContain('"analytics"');
    }
    // And the server's data source refuses it to a non-admin even if a loader asked.
    const pages = app.get(PageContextService) as unknown as {
      dataSource(user: SessionUser | null, cookie: undefined): DataSource;
    };
    await expect(pages.dataSource(user.user, undefined).adminAnalytics({ preset: '7d' })).rejects.toThrow(/admins/);
    await expect(pages.dataSource(null, undefined).adminAnalytics({ preset: '7d' })).rejects.toThrow(/admins/);
    await expect(pages.dataSource(admin.user, undefined).adminAnalytics({ preset: '7d' })).resolves.toMatchObject({ to: '2030-03-21' });
  });

  it('fills the overview’s page views today', async () => {
    clock.at = noon(DAY2);
    await settled();
    const overview = (await admin.agent.get('/api/admin/overview').expect(200)).body as AdminOverviewResponse;
    // Day two was closed by the sweep test (2 page views in its summary); later ones are counters beside it.
    expect(overview.pageViewsToday).toBe((await counter(DAY2, 'total', 'pageviews')) + 2);
    const day = await dashboard(`from=${DAY2}&to=${DAY2}`);
    expect(overview.pageViewsToday).toBe(day.kpis.pageviews);
    expect(overview.visitorsToday).toBe(day.kpis.visitors);
  });
});
