/**
 * Tool usage counters: one document per (UTC day, tool, action) incremented with `$inc`, reported by
 * the browser-only analysers through POST /api/tools/usage and read by admins. Runs against an app of
 * its own with a database of its own, so the counts are exactly what this suite produced.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { type Db, MongoClient } from 'mongodb';
import request from 'supertest';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { TOOL_RUN_REPORTS_PER_HOUR } from '../../src/tools/usage/tool-usage.controller.js';
import { usageDay } from '../../lib/tools/tool-usage.js';
import { type Agent, signUp, type SignedUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const BOSS = 'usage-boss@example.test';

let running: RunningApp;
let mongo: MongoClient;
let db: Db;
let user: SignedUp;
let admin: SignedUp;

const agent = (): Agent => request.agent(running.app.getHttpServer());
const today = () => usageDay(new Date());

async function runsOf(tool: string, action: string): Promise<number> {
  const row = await db.collection('tool_usage_daily').findOne({ day: today(), tool, action });
  return (row?.runs as number | undefined) ?? 0;
}

function report(person: SignedUp, body: unknown) {
  return person.agent
    .post('/api/tools/usage')
    .set('x-csrf-token', person.token)
    .send(body as object);
}

beforeAll(async () => {
  running = await createApp(
    loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('toolusage'), LOG_LEVEL: 'error', PORT: '0', ADMIN_EMAILS: BOSS }),
  );
  mongo = await MongoClient.connect(running.mongodbUri);
  db = mongo.db();
  user = await signUp({ agent: agent(), database: running.mongodbUri });
  admin = await signUp({ agent: agent(), email: BOSS, name: 'Boss', database: running.mongodbUri });
});

afterAll(async () => {
  await mongo?.close();
  await running?.close();
});

describe('POST /api/tools/usage', () => {
  it('refuses anonymous callers with 401 and counts nothing', async () => {
    const anonymous = agent();
    const { body } = await anonymous.get('/api/auth/csrf').expect(200);
    await anonymous.post('/api/tools/usage').set('x-csrf-token', body.token).send({ tool: 'har' }).expect(401);
    expect(await runsOf('har', 'analyse')).toBe(0);
  });

  it('counts a finished HAR analysis and a finished app-log analysis on today’s documents', async () => {
    await report(user, { tool: 'har' }).expect(204);
    await report(user, { tool: 'applog' }).expect(204);
    expect(await runsOf('har', 'analyse')).toBe(1);
    expect(await runsOf('applog', 'analyse')).toBe(1);
    expect(await db.collection('tool_usage_daily').countDocuments({ day: today(), tool: 'har' })).toBe(1);
  });

  it('counts a report of the GA4 workbench as a live validation, apart from "Validate on server"', async () => {
    const validate = await runsOf('ga4mp', 'validate');
    await report(user, { tool: 'ga4mp' }).expect(204);
    expect(await runsOf('ga4mp', 'validate-live')).toBe(1);
    expect(await runsOf('ga4mp', 'validate')).toBe(validate);
  });

  it.each([
    ['an unknown tool', { tool: 'linker' }, 'tool'],
    ['no tool', {}, 'tool'],
    ['an extra field', { tool: 'har', runs: 1000 }, 'runs'],
    ['an operator object', { tool: { $gt: '' } }, 'tool'],
  ])('answers 400 with a field message for %s, counting nothing', async (_label, body, field) => {
    const before = await runsOf('har', 'analyse');
    const response = await report(user, body).expect(400);
    expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request' });
    expect(Object.keys(response.body.fields).filter((key) => key.startsWith(field))).not.toHaveLength(0);
    expect(await runsOf('har', 'analyse')).toBe(before);
  });

  it('counts every one of 40 simultaneous reports exactly once (one document, no lost increments)', async () => {
    const before = await runsOf('applog', 'analyse');
    const someone = await signUp({ agent: agent(), database: running.mongodbUri });
    const responses = await Promise.all(Array.from({ length: 40 }, () => report(someone, { tool: 'applog' })));
    expect(responses.map((response) => response.status)).toEqual(Array(40).fill(204));
    expect(await runsOf('applog', 'analyse')).toBe(before + 40);
    expect(await db.collection('tool_usage_daily').countDocuments({ day: today(), tool: 'applog', action: 'analyse' })).toBe(1);
  });

  it('counts 100 simultaneous reports of one tool exactly: the day’s counter grows by 100', async () => {
    const before = await runsOf('har', 'analyse');
    const someone = await signUp({ agent: agent(), database: running.mongodbUri });
    const responses = await Promise.all(Array.from({ length: 100 }, () => report(someone, { tool: 'har' })));
    expect(responses.map((response) => response.status)).toEqual(Array(100).fill(204));
    expect(await runsOf('har', 'analyse')).toBe(before + 100);
    expect(await db.collection('tool_usage_daily').countDocuments({ day: today(), tool: 'har', action: 'analyse' })).toBe(1);
  });

  it(`limits each user to ${TOOL_RUN_REPORTS_PER_HOUR} reports an hour (429 with Retry-After), without limiting others`, async () => {
    const busy = await signUp({ agent: agent(), database: running.mongodbUri });
    for (let sent = 0; sent < TOOL_RUN_REPORTS_PER_HOUR; sent += 20) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(20, TOOL_RUN_REPORTS_PER_HOUR - sent) }, () => report(busy, { tool: 'har' })),
      );
      expect(batch.every((response) => response.status === 204)).toBe(true);
    }
    const refused = await report(busy, { tool: 'har' }).expect(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    await report(user, { tool: 'har' }).expect(204);
  });
});

describe('GET /api/admin/tool-usage', () => {
  it('gives admins the daily rows of the last 30 days by default', async () => {
    const response = await admin.agent.get('/api/admin/tool-usage').expect(200);
    expect(response.body.to).toBe(today());
    expect(Date.parse(response.body.to) - Date.parse(response.body.from)).toBe(29 * 24 * 3600 * 1000);
    const har = response.body.rows.find((row: { tool: string }) => row.tool === 'har');
    expect(har).toEqual({ day: today(), tool: 'har', action: 'analyse', runs: await runsOf('har', 'analyse') });
  });

  it('answers 403 to a user and 401 to anonymous callers', async () => {
    await user.agent.get('/api/admin/tool-usage').expect(403);
    await agent().get('/api/admin/tool-usage').expect(401);
  });

  it.each([
    ['from=2026-13-01', 'from'],
    ['to=yesterday', 'to'],
    ['from=2026-05-02&to=2026-05-01', 'from'],
    ['from=2020-01-01&to=2026-01-01', 'from'],
  ])('answers 400 with a field message for %s', async (query, field) => {
    const response = await admin.agent.get(`/api/admin/tool-usage?${query}`).expect(400);
    expect(response.body.fields[field]).toEqual([expect.any(String)]);
  });
});
