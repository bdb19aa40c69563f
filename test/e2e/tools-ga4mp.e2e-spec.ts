import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { MongoClient } from 'mongodb';
import { installRequestHandling } from '../../src/app.factory.js';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { createProductionRenderer } from '../../src/ssr/production-renderer.js';
import { FetchGa4mpTransport, GA4MP_TRANSPORT } from '../../src/tools/ga4mp/ga4mp.transport.js';
import { Ga4mpHistoryService } from '../../src/tools/ga4mp/ga4mp-history.service.js';
import { type Agent, newAgent, PASSWORD, signUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const WEB = { measurement_id: 'G-K3TQ8Y2P7L', api_secret: 'xVbN3kLqR2sTzW9yU1aE4d' };
const BODY = {
  client_id: '1719384726.1795390000',
  events: [{ name: 'tutorial_begin', params: { session_id: '1795390000', engagement_time_msec: 100 } }],
};
const API = '/api/tools/ga4mp';

describe('GA4 MP workbench API (the shared app process)', () => {
  let agent: Agent;
  let token: string;
  beforeAll(async () => {
    ({ agent, token } = await signUp());
  });
  const validate = (payload: unknown) =>
    agent
      .post(`${API}/validate`)
      .set('x-csrf-token', token)
      .send(payload as object);

  it('answers an empty list for a valid payload', async () => {
    const response = await validate({ query: WEB, body: BODY }).expect(200);
    expect(response.body).toEqual({ validationMessages: [] });
  });

  it("answers 200 with GA4's codes and field paths for an invalid payload", async () => {
    const response = await validate({
      query: { measurement_id: 'UA-1-1' },
      body: {
        events: [{ name: '_badEventName', params: { ga_x: 1 } }, { name: 'session_start' }],
        user_properties: { user_id: { value: 'x' } },
      },
    }).expect(200);
    const got = (response.body.validationMessages as { fieldPath: string; validationCode: string }[]).map(
      (m) => `${m.fieldPath} ${m.validationCode}`,
    );
    expect(got).toEqual([
      'query.measurement_id VALUE_INVALID',
      'query.api_secret VALUE_REQUIRED',
      'client_id VALUE_REQUIRED',
      'user_properties.user_id NAME_RESERVED',
      'events[0].name NAME_INVALID',
      'events[0].params.ga_x NAME_RESERVED',
      'events[1].name NAME_RESERVED',
    ]);
    expect(response.body.validationMessages[4].description).toBe(
      'Event at index: [0] has invalid name [_badEventName]. Names must start with an alphabetic character.',
    );
  });

  it("applies GA4's strict checks when the body asks for ENFORCE_RECOMMENDATIONS, and answers unknown fields as GA4 does", async () => {
    const body = { client_id: '18', events: [{ name: 'purchase', params: { value: 23 } }] };
    const relaxed = await validate({ query: WEB, body }).expect(200);
    expect(relaxed.body).toEqual({ validationMessages: [] });
    const strict = await validate({ query: WEB, body: { ...body, validation_behavior: 'ENFORCE_RECOMMENDATIONS' } }).expect(200);
    expect(
      (strict.body.validationMessages as { fieldPath: string; validationCode: string }[]).map((m) => `${m.fieldPath} ${m.validationCode}`),
    ).toEqual([
      'client_id VALUE_INVALID',
      'events[0].params.transaction_id VALUE_REQUIRED',
      'events[0].params.items VALUE_REQUIRED',
      'events[0].params.currency VALUE_REQUIRED',
    ]);
    expect(strict.body.validationMessages[0].description).toBe(
      'client_id [18] has invalid format. It should be in <number>.<number> format.',
    );
    const unknown = await validate({ query: WEB, body: { ...BODY, events: [{ names: 'login' }] } }).expect(200);
    expect(unknown.body.validationMessages).toEqual([
      {
        fieldPath: 'events[0].names',
        description: 'Unable to parse Measurement Protocol JSON payload. (events[0]) names: Cannot find field.',
        validationCode: 'VALUE_INVALID',
      },
    ]);
  });

  it('refuses a request that is not { query, body } objects with field messages', async () => {
    const missing = await validate({}).expect(400);
    expect(Object.keys(missing.body.fields).sort()).toEqual(['body', 'query']);
    const wrong = await validate({ query: 'G-1', body: [], extra: 1 }).expect(400);
    expect(Object.keys(wrong.body.fields).sort()).toEqual(['body', 'extra', 'query']);
    const send = await agent
      .post(`${API}/send`)
      .set('x-csrf-token', token)
      .send({ query: WEB, body: BODY, debug: 'yes', region: 'us' })
      .expect(400);
    expect(Object.keys(send.body.fields).sort()).toEqual(['debug', 'region']);
    const page = await agent.get(`${API}/history?pageSize=500`).expect(400);
    expect(page.body.fields.pageSize).toBeDefined();
    await agent.delete(`${API}/history/not-an-id`).set('x-csrf-token', token).expect(400);
  });

  it('refuses a body over the JSON limit with 413', async () => {
    const response = await validate({ query: WEB, body: { ...BODY, pad: 'x'.repeat(120_000) } }).expect(413);
    expect(response.body.message).toBe('Request body is too large');
  });

  it('is for signed-in users only', async () => {
    const anonymous = newAgent();
    const csrf = (await anonymous.get('/api/auth/csrf').expect(200)).body.token as string;
    await anonymous.post(`${API}/validate`).set('x-csrf-token', csrf).send({ query: WEB, body: BODY }).expect(401);
    await anonymous
      .post(`${API}/send`)
      .set('x-csrf-token', csrf)
      .send({ query: WEB, body: BODY, debug: true, region: 'global' })
      .expect(401);
    await anonymous.get(`${API}/history`).expect(401);
    await anonymous.delete(`${API}/history`).set('x-csrf-token', csrf).expect(401);
  });

  it('starts with an empty history', async () => {
    const response = await agent.get(`${API}/history`).expect(200);
    expect(response.body).toEqual({ items: [], page: 1, pageSize: 10, total: 0 });
  });
});

/** A stand-in for GA4 on loopback: answers like the validation server, or misbehaves on request. */
class FakeGa4 {
  readonly requests: { region: string; path: string; search: URLSearchParams; body: unknown }[] = [];
  private readonly servers: Server[] = [];
  readonly origins = { global: '', eu: '' };

  async start(): Promise<void> {
    for (const region of ['global', 'eu'] as const) {
      const server = createServer((request, response) => void this.answer(region, request, response));
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      this.servers.push(server);
      this.origins[region] = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    }
  }

  async stop(): Promise<void> {
    for (const server of this.servers) {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  }

  private async answer(region: string, request: IncomingMessage, response: import('node:http').ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const url = new URL(request.url!, 'http://ga4.test');
    this.requests.push({ region, path: url.pathname, search: url.searchParams, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
    const id = url.searchParams.get('measurement_id');
    if (id === 'G-HANGING') return; // never answers: the transport times out
    if (id === 'G-DROPPED') {
      request.socket.destroy(); // the connection dies: a network failure
      return;
    }
    if (id === 'G-BROKEN') {
      response.writeHead(500, { 'content-type': 'text/html' }).end('<html>Server Error</html>');
      return;
    }
    if (url.pathname === '/mp/collect') {
      response.writeHead(204).end();
      return;
    }
    const messages =
      id === 'G-COMPLAINS'
        ? [
            {
              fieldPath: 'events',
              description: 'Event at index: [0] has invalid name [tutorial_begin]. Test answer.',
              validationCode: 'NAME_INVALID',
            },
          ]
        : [];
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ validationMessages: messages }));
  }
}

describe('GA4 MP workbench: sending through the server (in-process app, GA4 stand-in on loopback)', () => {
  const ga4 = new FakeGa4();
  let app: NestExpressApplication;
  let origin: string;
  let mongo: MongoClient;
  let mongodbUri: string;

  beforeAll(async () => {
    await ga4.start();
    mongodbUri = testDatabaseUri('ga4mp');
    const config = loadConfig({ NODE_ENV: 'test', MONGODB_URI: mongodbUri, LOG_LEVEL: 'error', PORT: '0', RATE_LIMIT_MULTIPLIER: '100' });
    const renderer = await createProductionRenderer();
    // The same modules as production; only the transport's origins (and a short timeout) differ.
    const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRoot({ config, mongodbUri, renderer })] })
      .overrideProvider(GA4MP_TRANSPORT)
      .useValue(new FetchGa4mpTransport(ga4.origins, 600))
      .compile();
    app = moduleRef.createNestApplication<NestExpressApplication>({ bodyParser: false, logger: ['error'] });
    installRequestHandling(app, config);
    await app.listen(0, '127.0.0.1');
    origin = `http://127.0.0.1:${(app.getHttpServer().address() as AddressInfo).port}`;
    mongo = await MongoClient.connect(mongodbUri);
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await ga4.stop();
    await mongo?.close();
  });

  const user = () => signUp({ agent: newAgent(origin), database: mongodbUri });
  const send = (who: { agent: Agent; token: string }, payload: object) =>
    who.agent.post(`${API}/send`).set('x-csrf-token', who.token).send(payload);
  const sendRuns = async () => (await mongo.db().collection('tool_usage_daily').findOne({ tool: 'ga4mp', action: 'send' }))?.runs ?? 0;

  it('sends to the debug endpoint and answers status, duration, redacted endpoint and the parsed answer', async () => {
    const who = await user();
    const before = await sendRuns();
    const response = await send(who, { query: WEB, body: BODY, debug: true, region: 'global' }).expect(200);
    expect(response.body).toMatchObject({ status: 200, ok: true, response: { validationMessages: [] } });
    expect(response.body.endpoint).toBe(`${ga4.origins.global}/debug/mp/collect?measurement_id=G-K3TQ8Y2P7L&api_secret=REDACTED`);
    expect(typeof response.body.durationMs).toBe('number');
    const received = ga4.requests.at(-1)!;
    expect(received).toMatchObject({ region: 'global', path: '/debug/mp/collect', body: BODY });
    expect(received.search.get('api_secret')).toBe(WEB.api_secret);
    expect(await sendRuns()).toBe(before + 1);
  });

  it('forwards validation_behavior to the validation server untouched, and refuses what the strict mode refuses unless sent anyway', async () => {
    const who = await user();
    const strict = { ...BODY, validation_behavior: 'ENFORCE_RECOMMENDATIONS' };
    await send(who, { query: WEB, body: strict, debug: true, region: 'global' }).expect(200);
    expect(ga4.requests.at(-1)).toMatchObject({ path: '/debug/mp/collect', body: strict });
    const uuid = { ...strict, client_id: '35009a79-1a05-49d7-b876-2b884d0f825b' };
    const before = ga4.requests.length;
    const refused = await send(who, { query: WEB, body: uuid, debug: true, region: 'global' }).expect(422);
    expect(Object.keys(refused.body.fields)).toEqual(['client_id']);
    expect(ga4.requests.length).toBe(before);
    await send(who, { query: WEB, body: uuid, debug: true, region: 'global', force: true }).expect(200);
    expect(ga4.requests.at(-1)!.body).toEqual(uuid);
  });

  it('sends for real to the EU host (204, no answer body)', async () => {
    const who = await user();
    const response = await send(who, { query: WEB, body: BODY, debug: false, region: 'eu' }).expect(200);
    expect(response.body).toMatchObject({ status: 204, ok: true, response: null });
    expect(ga4.requests.at(-1)).toMatchObject({ region: 'eu', path: '/mp/collect' });
  });

  it("passes GA4's own validation messages and GA4 errors through as answers", async () => {
    const who = await user();
    const complaint = await send(who, {
      query: { ...WEB, measurement_id: 'G-COMPLAINS' },
      body: BODY,
      debug: true,
      region: 'global',
    }).expect(200);
    expect(complaint.body.response.validationMessages[0].validationCode).toBe('NAME_INVALID');
    const broken = await send(who, { query: { ...WEB, measurement_id: 'G-BROKEN' }, body: BODY, debug: true, region: 'global' }).expect(
      200,
    );
    expect(broken.body).toMatchObject({ status: 500, ok: false, response: null });
  });

  it('answers 504 with a readable message when GA4 does not answer in time', async () => {
    const who = await user();
    const response = await send(who, { query: { ...WEB, measurement_id: 'G-HANGING' }, body: BODY, debug: true, region: 'global' }).expect(
      504,
    );
    expect(response.body).toMatchObject({ statusCode: 504, code: 'GA4MP_TIMEOUT' });
    expect(response.body.message).toMatch(/^GA4 did not answer within 0\.6 s \(127\.0\.0\.1:\d+\)/);
  });

  it('answers 502 with a readable message when the connection fails', async () => {
    const who = await user();
    const response = await send(who, { query: { ...WEB, measurement_id: 'G-DROPPED' }, body: BODY, debug: true, region: 'global' }).expect(
      502,
    );
    expect(response.body).toMatchObject({ statusCode: 502, code: 'GA4MP_UNREACHABLE' });
    expect(response.body.message).toMatch(/^Could not reach GA4 at 127\.0\.0\.1:\d+ \(.+\)\. Check the server's network access/);
    const history = await who.agent.get(`${API}/history`).expect(200);
    expect(history.body.items[0]).toMatchObject({ status: null, ok: false, error: response.body.message });
  });

  it('refuses an invalid payload with its messages unless sent anyway', async () => {
    const who = await user();
    const count = ga4.requests.length;
    const invalid = { ...BODY, events: [{ name: 'session_start' }] };
    const refused = await send(who, { query: WEB, body: invalid, debug: true, region: 'global' }).expect(422);
    expect(refused.body).toMatchObject({
      statusCode: 422,
      fields: { 'events[0].name': ['Event at index: [0] has name [session_start] which is reserved.'] },
    });
    expect(refused.body.validationMessages).toEqual([
      {
        fieldPath: 'events[0].name',
        validationCode: 'NAME_RESERVED',
        description: 'Event at index: [0] has name [session_start] which is reserved.',
      },
    ]);
    expect(ga4.requests.length).toBe(count);
    const forced = await send(who, { query: WEB, body: invalid, debug: true, region: 'global', force: true }).expect(200);
    expect(forced.body.ok).toBe(true);
    const history = await who.agent.get(`${API}/history`).expect(200);
    expect(history.body.items[0].localMessages).toHaveLength(1);
    const missingSecret = await send(who, {
      query: { measurement_id: WEB.measurement_id },
      body: BODY,
      debug: true,
      region: 'global',
      force: true,
    }).expect(400);
    expect(missingSecret.body.fields['query.api_secret']).toBeDefined();
  });

  it('keeps a per-user history, newest first, without the api_secret, and isolates owners', async () => {
    const alice = await user();
    const bob = await user();
    await send(alice, { query: WEB, body: BODY, debug: true, region: 'global' }).expect(200);
    await send(alice, {
      query: WEB,
      body: { ...BODY, events: [{ name: 'login', params: { method: 'Google' } }] },
      debug: false,
      region: 'eu',
    }).expect(200);
    const list = await alice.agent.get(`${API}/history`).expect(200);
    expect(list.body).toMatchObject({ page: 1, pageSize: 10, total: 2 });
    expect(list.body.items.map((entry: { eventNames: string[] }) => entry.eventNames)).toEqual([['login'], ['tutorial_begin']]);
    expect(list.body.items[0]).toMatchObject({
      stream: 'web',
      debug: false,
      region: 'eu',
      status: 204,
      query: { measurement_id: WEB.measurement_id, api_secret: 'REDACTED' },
    });
    expect(JSON.stringify(await mongo.db().collection('ga4mp_history').find({}).toArray())).not.toContain(WEB.api_secret);
    expect((await alice.agent.get(`${API}/history?page=2&pageSize=1`).expect(200)).body.items[0].eventNames).toEqual(['tutorial_begin']);

    expect((await bob.agent.get(`${API}/history`).expect(200)).body.total).toBe(0);
    const aliceEntry = list.body.items[0].id as string;
    await bob.agent.delete(`${API}/history/${aliceEntry}`).set('x-csrf-token', bob.token).expect(404);
    await bob.agent.delete(`${API}/history`).set('x-csrf-token', bob.token).expect(204);
    expect((await alice.agent.get(`${API}/history`).expect(200)).body.total).toBe(2);

    await alice.agent.delete(`${API}/history/${aliceEntry}`).set('x-csrf-token', alice.token).expect(204);
    await alice.agent.delete(`${API}/history/${aliceEntry}`).set('x-csrf-token', alice.token).expect(404);
    expect((await alice.agent.get(`${API}/history`).expect(200)).body.total).toBe(1);
    await alice.agent.delete(`${API}/history`).set('x-csrf-token', alice.token).expect(204);
    expect((await alice.agent.get(`${API}/history`).expect(200)).body.total).toBe(0);
  });

  it('caps the history at the latest 50 entries and exports/deletes for account export and deletion', async () => {
    const who = await user();
    const history = app.get(Ga4mpHistoryService);
    const base = new Date('2026-11-20T00:00:00Z').getTime();
    for (let index = 0; index < 52; index += 1) {
      await history.record(
        who.user.id,
        {
          query: WEB,
          body: { ...BODY, events: [{ name: `event_${index}` }] },
          debug: true,
          region: 'global',
          status: 200,
          ok: true,
          durationMs: 1,
          localMessages: [],
          response: null,
          error: null,
        },
        new Date(base + index * 1000),
      );
    }
    const exported = await history.exportForUser(who.user.id);
    expect(exported).toHaveLength(50);
    expect(exported[0]!.eventNames).toEqual(['event_51']);
    expect(exported.at(-1)!.eventNames).toEqual(['event_2']);
    expect(JSON.stringify(exported)).not.toContain(WEB.api_secret);
    expect(await history.deleteAllForUser(who.user.id)).toBe(50);
    expect(await history.exportForUser(who.user.id)).toEqual([]);
  });

  it("puts the history in the user's data export (without the secret) and deletes it with the account", async () => {
    const who = await user();
    expect((await send(who, { query: WEB, body: BODY, debug: true, region: 'global' })).status).toBe(200);
    const exported = await who.agent.get('/api/profile/export').expect(200);
    expect(exported.body.tools.ga4mpHistory).toHaveLength(1);
    expect(exported.body.tools.ga4mpHistory[0].eventNames).toEqual(['tutorial_begin']);
    expect(JSON.stringify(exported.body)).not.toContain(WEB.api_secret);

    const entries = mongo.db().collection('ga4mp_history');
    const ownedBy = (await entries.findOne({}, { sort: { _id: -1 } }))!.userId;
    expect(await entries.countDocuments({ userId: ownedBy })).toBe(1);
    await who.agent
      .delete('/api/profile')
      .set('x-csrf-token', who.token)
      .send({ currentPassword: PASSWORD, confirm: 'DELETE' })
      .expect(204);
    expect(await entries.countDocuments({ userId: ownedBy })).toBe(0);
  });
});
