import { type Db, MongoClient, ObjectId } from 'mongodb';
import request from 'supertest';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { type Agent, csrfToken, PASSWORD, signUp, type SignedUp } from '../support/e2e.js';
import { testDatabaseUri } from '../support/test-database.js';

const BOSS = 'boss@example.test';
const UNKNOWN_ID = 'ffffffffffffffffffffffff';

/** One app of our own per describe block, so that the suite decides exactly which users exist. */
class Harness {
  running!: RunningApp;
  mongo!: MongoClient;
  db!: Db;

  async start(): Promise<void> {
    this.running = await createApp(
      loadConfig({
        NODE_ENV: 'test',
        MONGODB_URI: testDatabaseUri('adminusers'),
        LOG_LEVEL: 'error',
        PORT: '0',
        ADMIN_EMAILS: BOSS,
        RATE_LIMIT_MULTIPLIER: '1000',
      }),
    );
    this.mongo = await MongoClient.connect(this.running.mongodbUri);
    this.db = this.mongo.db();
  }

  async stop(): Promise<void> {
    await this.mongo?.close();
    await this.running?.close();
  }

  agent(): Agent {
    return request.agent(this.running.app.getHttpServer());
  }

  signUp(email: string, name = 'Test User'): Promise<SignedUp> {
    return signUp({ agent: this.agent(), email, name, database: this.running.mongodbUri });
  }

  /** Another, independent session of an existing account. */
  async signIn(email: string): Promise<{ agent: Agent; token: string }> {
    const agent = this.agent();
    const token = await csrfToken(agent);
    await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email, password: PASSWORD }).expect(200);
    return { agent, token };
  }

  users() {
    return this.db.collection('users');
  }

  auditLog() {
    return this.db.collection('audit_log');
  }

  sessions() {
    return this.db.collection('sessions');
  }
}

const patch = (who: { agent: Agent; token: string }, path: string, body: unknown) =>
  who.agent
    .patch(path)
    .set('x-csrf-token', who.token)
    .send(body as object);
const post = (who: { agent: Agent; token: string }, path: string) => who.agent.post(path).set('x-csrf-token', who.token);

describe('admin users API: access, listing and validation', () => {
  const app = new Harness();
  let boss: SignedUp;
  let plain: SignedUp;

  /**
   * 25 fixture accounts written straight to the database, created a minute apart. Names and e-mails
   * are permutations of the creation order, so each sort gives a different, predictable order.
   */
  const fixtures = Array.from({ length: 25 }, (_, i) => ({
    _id: new ObjectId(),
    name: `Listfix ${String((i * 7) % 25).padStart(2, '0')}`,
    email: `lf-${String((i * 11) % 25).padStart(2, '0')}@list.test`,
    passwordHash: 'not-a-real-hash',
    role: i % 5 === 0 ? 'admin' : 'user',
    status: i % 4 === 0 ? 'disabled' : 'active',
    colorMode: 'system',
    createdAt: new Date(Date.UTC(2024, 0, 1, 0, i)),
    updatedAt: new Date(Date.UTC(2024, 0, 1, 0, i)),
  }));
  const ids = (list: typeof fixtures) => list.map((user) => user._id.toHexString());

  beforeAll(async () => {
    await app.start();
    boss = await app.signUp(BOSS, 'Boss');
    plain = await app.signUp('plain@example.test', 'Plain User');
    await app.users().insertMany([
      ...fixtures,
      {
        _id: new ObjectId(),
        name: 'Regex (a+b)* fan',
        email: 'regex-fan@example.test',
        passwordHash: 'x',
        role: 'user',
        status: 'active',
        colorMode: 'system',
        createdAt: new Date(),
        updatedAt: new Date(),
      },
    ]);
  }, 60_000);
  afterAll(() => app.stop());

  const list = (query: string) => boss.agent.get(`/api/admin/users?${query}`);

  describe('who may call it', () => {
    const endpoints = (id: string) =>
      [
        ['GET', '/api/admin/users'],
        ['GET', `/api/admin/users/${id}`],
        ['PATCH', `/api/admin/users/${id}/role`, { role: 'admin' }],
        ['PATCH', `/api/admin/users/${id}/status`, { status: 'disabled' }],
        ['POST', `/api/admin/users/${id}/sessions/revoke`],
        ['GET', '/api/admin/audit-log'],
      ] as const;

    const call = (agent: Agent, token: string, [method, path, body]: readonly [string, string, unknown?]) => {
      const base = method === 'GET' ? agent.get(path) : method === 'PATCH' ? agent.patch(path) : agent.post(path);
      return method === 'GET' ? base : base.set('x-csrf-token', token).send((body ?? {}) as object);
    };

    it('answers 401 to anonymous callers on every endpoint (with a valid CSRF token, so it is the session that is missing)', async () => {
      const anonymous = app.agent();
      const token = await csrfToken(anonymous);
      for (const endpoint of endpoints(plain.user.id)) {
        const response = await call(anonymous, token, endpoint);
        expect([endpoint[0], endpoint[1], response.status]).toEqual([endpoint[0], endpoint[1], 401]);
      }
    });

    it('answers 403 to a signed-in normal user on every endpoint, and changes nothing', async () => {
      for (const endpoint of endpoints(plain.user.id)) {
        const response = await call(plain.agent, plain.token, endpoint);
        expect([endpoint[0], endpoint[1], response.status]).toEqual([endpoint[0], endpoint[1], 403]);
      }
      const stored = await app.users().findOne({ email: 'plain@example.test' });
      expect(stored).toMatchObject({ role: 'user', status: 'active' });
      expect(await app.auditLog().countDocuments({})).toBe(0);
      await plain.agent.get('/api/auth/me').expect(200);
    });

    it('lets an admin in', async () => {
      await boss.agent.get('/api/admin/users').expect(200);
      await boss.agent.get('/api/admin/audit-log').expect(200);
    });
  });

  describe('GET /api/admin/users', () => {
    it('pages newest first by default, with totals, and returns only the public fields', async () => {
      const first = await list('q=listfix').expect(200);
      expect(first.headers['cache-control']).toBe('private, no-store');
      expect(first.body).toMatchObject({ total: 25, page: 1, pageSize: 20 });
      const newestFirst = [...fixtures].reverse();
      expect(first.body.items.map((user: { id: string }) => user.id)).toEqual(ids(newestFirst.slice(0, 20)));
      expect(Object.keys(first.body.items[0]).sort()).toEqual(['createdAt', 'email', 'id', 'name', 'role', 'status']);
      expect(first.body.items[0]).toEqual({
        id: fixtures[24]._id.toHexString(),
        name: fixtures[24].name,
        email: fixtures[24].email,
        role: 'user',
        status: 'disabled',
        createdAt: fixtures[24].createdAt.toISOString(),
      });

      const second = await list('q=listfix&page=2').expect(200);
      expect(second.body).toMatchObject({ total: 25, page: 2, pageSize: 20 });
      expect(second.body.items.map((user: { id: string }) => user.id)).toEqual(ids(newestFirst.slice(20)));

      const beyond = await list('q=listfix&page=9').expect(200);
      expect(beyond.body).toEqual({ items: [], total: 25, page: 9, pageSize: 20 });
    });

    it('honours pageSize', async () => {
      const response = await list('q=listfix&pageSize=10&page=3&sort=createdAt&order=asc').expect(200);
      expect(response.body).toMatchObject({ total: 25, page: 3, pageSize: 10 });
      expect(response.body.items.map((user: { id: string }) => user.id)).toEqual(ids(fixtures.slice(20)));
    });

    it.each([
      ['name', 'asc', (a: (typeof fixtures)[0], b: (typeof fixtures)[0]) => a.name.localeCompare(b.name)],
      ['name', 'desc', (a: (typeof fixtures)[0], b: (typeof fixtures)[0]) => b.name.localeCompare(a.name)],
      ['email', 'asc', (a: (typeof fixtures)[0], b: (typeof fixtures)[0]) => a.email.localeCompare(b.email)],
      ['email', 'desc', (a: (typeof fixtures)[0], b: (typeof fixtures)[0]) => b.email.localeCompare(a.email)],
      ['createdAt', 'asc', (a: (typeof fixtures)[0], b: (typeof fixtures)[0]) => a.createdAt.getTime() - b.createdAt.getTime()],
    ])('sorts by %s %s', async (sort, order, compare) => {
      const response = await list(`q=listfix&sort=${sort}&order=${order}&pageSize=100`).expect(200);
      expect(response.body.items.map((user: { id: string }) => user.id)).toEqual(ids([...fixtures].sort(compare)));
    });

    it('sorts names and e-mails A to Z when no order is given', async () => {
      const response = await list('q=listfix&sort=name&pageSize=5').expect(200);
      expect(response.body.items.map((user: { name: string }) => user.name)).toEqual([
        'Listfix 00',
        'Listfix 01',
        'Listfix 02',
        'Listfix 03',
        'Listfix 04',
      ]);
    });

    it('filters by role and status, alone and together, with matching totals', async () => {
      const admins = await list('q=listfix&role=admin&sort=createdAt&order=asc').expect(200);
      expect(admins.body.total).toBe(5);
      expect(admins.body.items.map((user: { id: string }) => user.id)).toEqual(ids(fixtures.filter((user) => user.role === 'admin')));

      const disabled = await list('q=listfix&status=disabled').expect(200);
      expect(disabled.body.total).toBe(7);
      expect(disabled.body.items.every((user: { status: string }) => user.status === 'disabled')).toBe(true);

      const both = await list('q=listfix&role=admin&status=disabled&sort=createdAt&order=asc').expect(200);
      expect(both.body.total).toBe(2);
      expect(both.body.items.map((user: { id: string }) => user.id)).toEqual(ids([fixtures[0], fixtures[20]]));

      const everyone = await list('pageSize=100').expect(200);
      expect(everyone.body.total).toBe(28); // 25 fixtures, the regex fan, the boss and the plain user
    });

    it('searches name or e-mail, case-insensitively', async () => {
      const byEmail = await list(`q=${encodeURIComponent('LF-03@LIST')}`).expect(200);
      expect(byEmail.body.total).toBe(1);
      expect(byEmail.body.items[0].email).toBe('lf-03@list.test');

      const byName = await list('q=listfix%2012').expect(200);
      expect(byName.body.items.map((user: { name: string }) => user.name)).toEqual(['Listfix 12']);

      const byPart = await list('q=plain').expect(200);
      expect(byPart.body.items.map((user: { email: string }) => user.email)).toEqual(['plain@example.test']);
    });

    it('treats regex metacharacters in q as plain text', async () => {
      const literal = await list(`q=${encodeURIComponent('(a+b)*')}`).expect(200);
      expect(literal.body.items.map((user: { email: string }) => user.email)).toEqual(['regex-fan@example.test']);

      // Only 'Regex (a+b)* fan' contains '(', '*' and ')*' literally; as patterns, '.*' or '^$' would match everyone.
      const cases: Array<[string, number]> = [
        ['.*', 0],
        ['[', 0],
        ['(', 1],
        ['\\', 0],
        ['*', 1],
        [')*', 1],
        ['+?', 0],
        ['^$', 0],
        ['a{2', 0],
        ['|', 0],
        [')(', 0],
        ['(?i)x', 0],
      ];
      for (const [q, total] of cases) {
        const response = await list(`q=${encodeURIComponent(q)}`);
        expect([q, response.status, response.body.total]).toEqual([q, 200, total]);
      }
    });

    it.each([
      ['role=root', 'role'],
      ['status=gone', 'status'],
      ['sort=passwordHash', 'sort'],
      ['order=up', 'order'],
      ['page=0', 'page'],
      ['page=abc', 'page'],
      ['page=1.5', 'page'],
      ['pageSize=0', 'pageSize'],
      ['pageSize=101', 'pageSize'],
      [`q=${'x'.repeat(101)}`, 'q'],
      ['q=a&q=b', 'q'],
      ['admin=true', 'admin'],
    ])('refuses %s with a 400 naming the field', async (query, field) => {
      const response = await list(query).expect(400);
      expect(response.body).toMatchObject({ statusCode: 400, error: 'Bad Request', message: 'Validation failed' });
      expect(Object.keys(response.body.fields)).toContain(field);
      expect(response.body.fields[field][0]).toEqual(expect.any(String));
    });

    it('accepts q of exactly 100 characters', async () => {
      await list(`q=${'x'.repeat(100)}`).expect(200);
    });
  });

  describe('GET /api/admin/users/:id', () => {
    it('returns the user, their live sessions and empty orders, licences and subscription', async () => {
      await app.signIn('plain@example.test'); // a second session
      const response = await boss.agent.get(`/api/admin/users/${plain.user.id}`).expect(200);
      expect(response.body).toEqual({
        id: plain.user.id,
        name: 'Plain User',
        email: 'plain@example.test',
        role: 'user',
        status: 'active',
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        sessions: { active: 2 },
        orders: [],
        licenses: [],
        subscription: null,
      });
    });

    it('answers 404 for an unknown id and 400 for a malformed one, on every endpoint', async () => {
      const unknown = await boss.agent.get(`/api/admin/users/${UNKNOWN_ID}`).expect(404);
      expect(unknown.body).toMatchObject({ statusCode: 404, error: 'Not Found', code: 'USER_NOT_FOUND' });
      await patch(boss, `/api/admin/users/${UNKNOWN_ID}/role`, { role: 'admin' }).expect(404);
      await patch(boss, `/api/admin/users/${UNKNOWN_ID}/status`, { status: 'disabled' }).expect(404);
      await post(boss, `/api/admin/users/${UNKNOWN_ID}/sessions/revoke`).expect(404);

      const malformed = await boss.agent.get('/api/admin/users/not-an-id').expect(400);
      expect(malformed.body.fields).toHaveProperty('id');
      await patch(boss, '/api/admin/users/123/role', { role: 'admin' }).expect(400);
      await patch(boss, '/api/admin/users/zzzzzzzzzzzzzzzzzzzzzzzz/status', { status: 'disabled' }).expect(400);
      await post(boss, '/api/admin/users/abc/sessions/revoke').expect(400);
      expect(await app.auditLog().countDocuments({})).toBe(0);
    });
  });

  describe('request bodies', () => {
    it('refuses unknown roles and statuses, missing values and extra fields', async () => {
      const path = `/api/admin/users/${plain.user.id}`;
      expect((await patch(boss, `${path}/role`, { role: 'root' }).expect(400)).body.fields).toHaveProperty('role');
      expect((await patch(boss, `${path}/role`, {}).expect(400)).body.fields).toHaveProperty('role');
      expect((await patch(boss, `${path}/role`, { role: 'admin', status: 'active' }).expect(400)).body.fields).toHaveProperty('status');
      expect((await patch(boss, `${path}/status`, { status: 'banned' }).expect(400)).body.fields).toHaveProperty('status');
      expect(await app.users().findOne({ email: 'plain@example.test' })).toMatchObject({ role: 'user', status: 'active' });
    });

    it('refuses writes without a CSRF token', async () => {
      await boss.agent.patch(`/api/admin/users/${plain.user.id}/role`).send({ role: 'admin' }).expect(403);
      expect(await app.users().findOne({ email: 'plain@example.test' })).toMatchObject({ role: 'user' });
    });
  });

  describe('GET /api/admin/audit-log', () => {
    it('validates its query', async () => {
      expect((await boss.agent.get('/api/admin/audit-log?pageSize=0').expect(400)).body.fields).toHaveProperty('pageSize');
      expect((await boss.agent.get('/api/admin/audit-log?page=-1').expect(400)).body.fields).toHaveProperty('page');
      expect((await boss.agent.get('/api/admin/audit-log?since=1').expect(400)).body.fields).toHaveProperty('since');
    });
  });
});

describe('admin users API: changes', () => {
  const app = new Harness();
  let boss: SignedUp;

  beforeAll(async () => {
    await app.start();
    boss = await app.signUp(BOSS, 'Boss');
  }, 60_000);
  afterAll(() => app.stop());

  const auditFor = async (id: string) =>
    (await boss.agent.get(`/api/admin/audit-log?targetId=${id}&pageSize=100`).expect(200)).body as {
      items: Array<{
        action: string;
        actor: { id: string; email: string };
        target: { type: string; id: string; label: string };
        before: unknown;
        after: unknown;
        at: string;
      }>;
      total: number;
    };

  it('a promotion takes effect on the target’s next request, a demotion too, and each writes one audit entry', async () => {
    const target = await app.signUp('rising@example.test', 'Rising Star');
    await target.agent.get('/api/admin/users').expect(403);

    const promoted = await patch(boss, `/api/admin/users/${target.user.id}/role`, { role: 'admin' }).expect(200);
    expect(promoted.body).toEqual({ changed: true, user: expect.objectContaining({ id: target.user.id, role: 'admin' }) });
    await target.agent.get('/api/admin/users').expect(200); // same session, no new sign-in
    expect((await target.agent.get('/api/auth/me').expect(200)).body.role).toBe('admin');

    let audit = await auditFor(target.user.id);
    expect(audit.total).toBe(1);
    expect(audit.items[0]).toEqual({
      id: expect.any(String),
      at: expect.any(String),
      action: 'user.role.change',
      actor: { id: boss.user.id, email: BOSS },
      target: { type: 'user', id: target.user.id, label: 'rising@example.test' },
      before: { role: 'user' },
      after: { role: 'admin' },
    });
    expect(Date.now() - Date.parse(audit.items[0].at)).toBeLessThan(60_000);

    const unchanged = await patch(boss, `/api/admin/users/${target.user.id}/role`, { role: 'admin' }).expect(200);
    expect(unchanged.body.changed).toBe(false);
    expect((await auditFor(target.user.id)).total).toBe(1); // a no-op writes nothing

    await patch(boss, `/api/admin/users/${target.user.id}/role`, { role: 'user' }).expect(200);
    await target.agent.get('/api/admin/users').expect(403);
    audit = await auditFor(target.user.id);
    expect(audit.total).toBe(2);
    expect(audit.items[0]).toMatchObject({ action: 'user.role.change', before: { role: 'admin' }, after: { role: 'user' } });
    expect(await app.auditLog().countDocuments({ 'target.id': target.user.id })).toBe(2);
  });

  it('disabling signs the user out everywhere and blocks sign-in; enabling lets them sign in again', async () => {
    const target = await app.signUp('leaving@example.test', 'Leaving Soon');
    const second = await app.signIn('leaving@example.test');
    await target.agent.get('/api/auth/me').expect(200);

    const disabled = await patch(boss, `/api/admin/users/${target.user.id}/status`, { status: 'disabled' }).expect(200);
    expect(disabled.body).toEqual({ changed: true, revokedSessions: 2, user: expect.objectContaining({ status: 'disabled' }) });
    await target.agent.get('/api/auth/me').expect(401);
    await second.agent.get('/api/auth/me').expect(401);
    await target.agent.post('/api/auth/refresh').set('x-csrf-token', target.token).expect(401);
    expect(await app.sessions().countDocuments({ userId: new ObjectId(target.user.id), revokedAt: null })).toBe(0);

    const refused = app.agent();
    const refusedToken = await csrfToken(refused);
    const login = await refused
      .post('/api/auth/login')
      .set('x-csrf-token', refusedToken)
      .send({ email: 'leaving@example.test', password: PASSWORD })
      .expect(403);
    expect(login.body.code).toBe('ACCOUNT_DISABLED');

    const enabled = await patch(boss, `/api/admin/users/${target.user.id}/status`, { status: 'active' }).expect(200);
    expect(enabled.body).toEqual({ changed: true, revokedSessions: 0, user: expect.objectContaining({ status: 'active' }) });
    const again = await app.signIn('leaving@example.test');
    await again.agent.get('/api/auth/me').expect(200);
    await target.agent.get('/api/auth/me').expect(401); // revoked sessions stay revoked

    const audit = await auditFor(target.user.id);
    expect(audit.items.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['user.enable', { status: 'disabled' }, { status: 'active' }],
      ['user.disable', { status: 'active' }, { status: 'disabled', revokedSessions: 2 }],
    ]);
  });

  it('revokes all sessions of a user on request, and they can sign in again', async () => {
    const target = await app.signUp('revoked@example.test', 'Revoke Me');
    const second = await app.signIn('revoked@example.test');
    // Both sessions just read: revoking through this instance must not wait for its memory of them.
    await target.agent.get('/api/auth/me').expect(200);
    await second.agent.get('/dashboard/lounge').redirects(0).expect(200);
    const detail = await boss.agent.get(`/api/admin/users/${target.user.id}`).expect(200);
    expect(detail.body.sessions).toEqual({ active: 2 });

    const revoked = await post(boss, `/api/admin/users/${target.user.id}/sessions/revoke`).expect(200);
    expect(revoked.body).toEqual({ revoked: 2 });
    await target.agent.get('/api/auth/me').expect(401);
    await second.agent.get('/dashboard/lounge').redirects(0).expect(302);
    expect((await boss.agent.get(`/api/admin/users/${target.user.id}`).expect(200)).body.sessions).toEqual({ active: 0 });
    expect(await app.users().findOne({ email: 'revoked@example.test' })).toMatchObject({ status: 'active' });
    await (await app.signIn('revoked@example.test')).agent.get('/api/auth/me').expect(200);

    const again = await post(boss, `/api/admin/users/${target.user.id}/sessions/revoke`).expect(200);
    expect(again.body).toEqual({ revoked: 1 });

    const audit = await auditFor(target.user.id);
    expect(audit.items.map((entry) => [entry.action, entry.before, entry.after])).toEqual([
      ['user.sessions.revoke', { activeSessions: 1 }, { activeSessions: 0, revoked: 1 }],
      ['user.sessions.revoke', { activeSessions: 2 }, { activeSessions: 0, revoked: 2 }],
    ]);
  });

  it('refuses to let an admin disable themselves (409, nothing changed)', async () => {
    const response = await patch(boss, `/api/admin/users/${boss.user.id}/status`, { status: 'disabled' }).expect(409);
    expect(response.body).toMatchObject({ statusCode: 409, error: 'Conflict', code: 'SELF_DISABLE' });
    expect(await app.users().findOne({ email: BOSS })).toMatchObject({ role: 'admin', status: 'active' });
    await boss.agent.get('/api/auth/me').expect(200);
    expect((await auditFor(boss.user.id)).total).toBe(0);
  });

  it('lists audit entries newest first across targets, paged', async () => {
    const all = await boss.agent.get('/api/admin/audit-log?pageSize=2').expect(200);
    expect(all.body.pageSize).toBe(2);
    expect(all.body.items).toHaveLength(2);
    expect(all.body.total).toBe(await app.auditLog().countDocuments({}));
    const times = all.body.items.map((entry: { at: string }) => Date.parse(entry.at));
    expect(times[0]).toBeGreaterThanOrEqual(times[1]);
    const next = await boss.agent.get('/api/admin/audit-log?pageSize=2&page=2').expect(200);
    expect(next.body.items[0].id).not.toBe(all.body.items[1].id);
  });
});

describe('admin users API: Hitscope always keeps an active admin', () => {
  const app = new Harness();
  let boss: SignedUp;

  beforeAll(async () => {
    await app.start();
    boss = await app.signUp(BOSS, 'Boss');
  }, 60_000);
  afterAll(() => app.stop());

  const activeAdmins = () => app.users().countDocuments({ role: 'admin', status: 'active' });

  it('refuses to demote the last admin (409 with a clear message, nothing written)', async () => {
    const response = await patch(boss, `/api/admin/users/${boss.user.id}/role`, { role: 'user' }).expect(409);
    expect(response.body).toEqual({
      statusCode: 409,
      error: 'Conflict',
      code: 'LAST_ADMIN',
      message: 'Hitscope needs at least one active admin. Make another user an admin first.',
    });
    expect(await app.users().findOne({ email: BOSS })).toMatchObject({ role: 'admin', status: 'active' });
    expect(await app.auditLog().countDocuments({})).toBe(0);
    await boss.agent.get('/api/admin/users').expect(200);
  });

  it('counts only admins who can sign in: a disabled admin does not make a demotion safe', async () => {
    const other = await app.signUp('dormant@example.test', 'Dormant Admin');
    await patch(boss, `/api/admin/users/${other.user.id}/role`, { role: 'admin' }).expect(200);
    await patch(boss, `/api/admin/users/${other.user.id}/status`, { status: 'disabled' }).expect(200);
    const entries = await app.auditLog().countDocuments({});

    const response = await patch(boss, `/api/admin/users/${boss.user.id}/role`, { role: 'user' }).expect(409);
    expect(response.body.code).toBe('LAST_ADMIN');
    expect(await app.users().findOne({ email: BOSS })).toMatchObject({ role: 'admin' });
    expect(await app.auditLog().countDocuments({})).toBe(entries);

    // Demoting the disabled admin is fine: it does not change who can administer.
    await patch(boss, `/api/admin/users/${other.user.id}/role`, { role: 'user' }).expect(200);
  });

  it('lets an admin step down once another active admin exists; they lose access on their next request', async () => {
    const successor = await app.signUp('successor@example.test', 'Successor');
    await patch(boss, `/api/admin/users/${successor.user.id}/role`, { role: 'admin' }).expect(200);

    const stepDown = await patch(boss, `/api/admin/users/${boss.user.id}/role`, { role: 'user' }).expect(200);
    expect(stepDown.body.user.role).toBe('user');
    await boss.agent.get('/api/admin/users').expect(403);
    expect(await activeAdmins()).toBe(1);

    // The successor is now the last one and cannot step down in turn.
    const refused = await patch(successor, `/api/admin/users/${successor.user.id}/role`, { role: 'user' }).expect(409);
    expect(refused.body.message).toMatch(/at least one active admin/);
    expect(await app.users().findOne({ email: 'successor@example.test' })).toMatchObject({ role: 'admin' });

    // Give the boss back their role for the next test.
    await patch(successor, `/api/admin/users/${boss.user.id}/role`, { role: 'admin' }).expect(200);
    await boss.agent.get('/api/admin/users').expect(200);
  });

  it('two admins stepping down at the same moment never leave Hitscope without an active admin', async () => {
    await app.users().updateMany({ email: { $ne: BOSS } }, { $set: { role: 'user' } });
    const partner = await app.signUp('partner@example.test', 'Partner');
    await patch(boss, `/api/admin/users/${partner.user.id}/role`, { role: 'admin' }).expect(200);
    expect(await activeAdmins()).toBe(2);

    for (let round = 0; round < 5; round += 1) {
      const before = await app.auditLog().countDocuments({ action: 'user.role.change' });
      const results = await Promise.all([
        patch(boss, `/api/admin/users/${boss.user.id}/role`, { role: 'user' }),
        patch(partner, `/api/admin/users/${partner.user.id}/role`, { role: 'user' }),
      ]);
      const statuses = results.map((result) => result.status).sort();
      expect([
        [200, 409],
        [409, 409],
      ]).toContainEqual(statuses);
      // One stuck and one was refused, or both were undone: never both.
      const succeeded = statuses.filter((status) => status === 200).length;
      expect(await activeAdmins()).toBe(2 - succeeded);
      // Exactly one audit entry per change that stuck, none for the refused or undone ones.
      expect(await app.auditLog().countDocuments({ action: 'user.role.change' })).toBe(before + succeeded);

      // Reset: both admins again (through the database, so the next round starts from the same state).
      await app.users().updateMany({ email: { $in: [BOSS, 'partner@example.test'] } }, { $set: { role: 'admin' } });
    }
  });
});
