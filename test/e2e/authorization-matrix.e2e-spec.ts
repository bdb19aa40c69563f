/**
 * Security regression suite, part 1: the authorisation matrix.
 *
 * Every API handler of the running app (found through Nest metadata, so a handler added later is
 * covered without touching this file) is called by four callers — anonymous, user A, user B and an
 * admin — with a valid CSRF token (so every answer is about authorisation, not CSRF) and an empty
 * JSON body. The expected outcome comes from the handler's own metadata:
 *
 *   @Public()        → nobody gets 401/403 (except the few listed in PUBLIC_CREDENTIAL_CHECKS)
 *   @Roles('admin')  → anonymous 401, users 403, admin neither
 *   @SignedIn()      → anonymous 401, users and admin neither
 *
 * Path parameters are filled with user B's id, so that "A acts on B" is exercised wherever an id
 * is taken; a parameter without a test value fails the suite instead of skipping the handler.
 */
import { type Db, MongoClient, ObjectId } from 'mongodb';
import request from 'supertest';
import { COMPANION_PRODUCTS } from '../../lib/product.js';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { type Agent, csrfToken, PASSWORD, signUp } from '../support/e2e.js';
import { expectClientError, expressRoutes, fillPath, type Handler, inventory, pathParams, summary } from '../support/security.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN = 'matrix-admin@example.test';

/** Public by design (pages, SEO files, the build manifest, probes): not called, only checked. */
const PUBLIC_BY_DESIGN = [
  /^GET \/\{\*path\}$/,
  /^GET \/sitemap\.xml$/,
  /^GET \/robots\.txt$/,
  /^GET \/_app\/builds\/latest\.json$/,
  /^GET \/health\//,
];

/**
 * Public handlers that check a credential carried by the request itself, and so answer 401 when it
 * is missing — not an access decision. Each entry is a deliberate exception, with its reason.
 */
const PUBLIC_CREDENTIAL_CHECKS: Record<string, Partial<Record<CallerName, number>>> = {
  // Exchanges the refresh cookie; without one: 401 "Your session has ended. Sign in again."
  'POST /api/auth/refresh': { anonymous: 401 },
};

/**
 * Test values for path parameters. Every value is user B's: for admin routes that makes the admin
 * case real, for any other route it is "somebody else's id" when A calls it.
 */
const paramValues = (): Record<string, string> => ({
  id: callers.B.id,
  userId: callers.B.id,
  activationId: callers.B.id,
  // Product slugs are not anybody's: a real one, so the admin call reaches validation of the body.
  slug: COMPANION_PRODUCTS.apps.slug,
});

type CallerName = 'anonymous' | 'A' | 'B' | 'admin';

interface Caller {
  name: CallerName;
  role: 'user' | 'admin' | null;
  email: string | null;
  agent: Agent;
  token: string;
  id: string;
}

let running: RunningApp;
let mongo: MongoClient;
let db: Db;
let handlers: Handler[];
const callers = {} as Record<CallerName, Caller>;
const unique = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.test`;

const newAgent = () => request.agent(running.app.getHttpServer());

async function register(name: CallerName, email: string): Promise<Caller> {
  const { agent, token, user } = await signUp({ agent: newAgent(), email, name: `Caller ${name}`, database: running.mongodbUri });
  return { name, role: user.role, email, agent, token, id: user.id };
}

/**
 * After a call, a signed-in caller must still be signed in for the next one (a handler may end the
 * session: logout, revoke, delete…). Signs in again, or registers a fresh account if this one is gone.
 */
async function ensureSignedIn(caller: Caller): Promise<void> {
  if (!caller.email) return;
  const me = await caller.agent.get('/api/auth/me');
  if (me.status === 200 && me.body.id === caller.id) return;
  const agent = newAgent();
  const token = await csrfToken(agent);
  const login = await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email: caller.email, password: PASSWORD });
  if (login.status === 200) {
    Object.assign(caller, { agent, token, id: login.body.id, role: login.body.role });
    return;
  }
  const fresh = await register(caller.name, unique(`matrix-${caller.name.toLowerCase()}`));
  Object.assign(caller, fresh);
}

/** Handlers that may end the caller's session or account run last, so the rest see a live session. */
const endsSession = (handler: Handler) => handler.verb === 'DELETE' || /logout|revoke|sign-?out|delete|disable/i.test(handler.path);

function callable(): Handler[] {
  return handlers
    .filter((handler) => !PUBLIC_BY_DESIGN.some((pattern) => pattern.test(handler.route)))
    .sort((a, b) => Number(endsSession(a)) - Number(endsSession(b)) || a.route.localeCompare(b.route));
}

function send(caller: Caller, handler: Handler) {
  const path = fillPath(handler.path, paramValues());
  const agent = caller.agent;
  switch (handler.verb) {
    case 'GET':
      return agent.get(path).set('x-csrf-token', caller.token);
    case 'POST':
      return agent.post(path).set('x-csrf-token', caller.token).send({});
    case 'PUT':
      return agent.put(path).set('x-csrf-token', caller.token).send({});
    case 'PATCH':
      return agent.patch(path).set('x-csrf-token', caller.token).send({});
    case 'DELETE':
      return agent.delete(path).set('x-csrf-token', caller.token).send({});
    default:
      throw new Error(`The matrix cannot call ${handler.route}: teach send() the ${handler.verb} method`);
  }
}

const isAdminOnly = (handler: Handler) => !!handler.roles?.length && handler.roles.every((role) => role === 'admin');

type Expectation = { kind: 'allowed' } | { kind: 'denied'; status: 401 | 403 } | { kind: 'exactly'; status: number };

function expectationFor(handler: Handler, caller: Caller): Expectation {
  if (handler.isPublic) {
    const exception = PUBLIC_CREDENTIAL_CHECKS[handler.route]?.[caller.name];
    return exception ? { kind: 'exactly', status: exception } : { kind: 'allowed' };
  }
  if (!caller.role) return { kind: 'denied', status: 401 };
  return handler.roles?.includes(caller.role) ? { kind: 'allowed' } : { kind: 'denied', status: 403 };
}

const userState = async (id: string) => {
  const [user, sessions] = await Promise.all([
    db.collection('users').findOne({ _id: new ObjectId(id) }),
    db
      .collection('sessions')
      .find({ userId: new ObjectId(id) })
      .sort({ _id: 1 })
      .toArray(),
  ]);
  return {
    user,
    sessions: sessions.map(({ _id, revokedAt, expiresAt }) => ({ _id, revokedAt, expiresAt })),
  };
};

/** Calls every handler as `caller`; returns one line per unmet expectation. */
async function runAs(name: CallerName): Promise<{ failures: string[]; calls: number }> {
  const caller = callers[name];
  const failures: string[] = [];
  let calls = 0;
  for (const handler of callable()) {
    const response = await send(caller, handler);
    calls += 1;
    const expected = expectationFor(handler, caller);
    const got = `${handler.route} as ${name}: got ${summary(response)}`;
    if (response.status >= 500) failures.push(`${got} (a server error is never an access decision)`);
    else if (response.body?.code === 'CSRF_INVALID') failures.push(`${got}: the CSRF token was refused, so this says nothing about access`);
    else if (expected.kind === 'allowed' && (response.status === 401 || response.status === 403))
      failures.push(`${got}, expected neither 401 nor 403`);
    else if (expected.kind !== 'allowed' && response.status !== expected.status) failures.push(`${got}, expected ${expected.status}`);
    else if (expected.kind === 'denied') {
      try {
        expectClientError(response, expected.status);
      } catch (error) {
        failures.push(`${got}: ${(error as Error).message}`);
      }
    }
    // Nobody but the owner (or an admin) may read or change what an id names: a signed-in (not
    // public, not admin-only) handler that takes an id must refuse A when the id is B's. Public
    // handlers serve what anyone may see (avatars by unguessable id); admin ones are 403 above.
    if (name === 'A' && !handler.isPublic && !isAdminOnly(handler) && pathParams(handler.path).length > 0 && response.status < 300) {
      failures.push(`${got}: user A reached user B's data (${response.status})`);
    }
    await ensureSignedIn(caller);
  }
  return { failures, calls };
}

beforeAll(async () => {
  running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: testDatabaseUri('authz'),
      LOG_LEVEL: 'error',
      PORT: '0',
      ADMIN_EMAILS: ADMIN,
      RATE_LIMIT_MULTIPLIER: '1000',
    }),
  );
  mongo = await MongoClient.connect(running.mongodbUri);
  db = mongo.db();
  handlers = inventory(running);
  const anonymous = newAgent();
  callers.anonymous = { name: 'anonymous', role: null, email: null, agent: anonymous, token: await csrfToken(anonymous), id: '' };
  [callers.A, callers.B, callers.admin] = await Promise.all([
    register('A', unique('matrix-a')),
    register('B', unique('matrix-b')),
    register('admin', ADMIN),
  ]);
});

afterAll(async () => {
  await mongo?.close();
  await running?.close();
});

describe('authorisation matrix: the inventory', () => {
  it('finds the handlers, and exactly the routes Express serves', () => {
    expect(callers.admin.role).toBe('admin');
    expect(callers.A.role).toBe('user');
    expect(handlers.map((handler) => handler.route)).toEqual(
      expect.arrayContaining([
        'GET /api/auth/me',
        'POST /api/auth/login',
        'PUT /api/admin/route-rules',
        'PATCH /api/admin/users/:id/role',
        'GET /api/admin/overview',
        'GET /{*path}',
        'POST /api/admin/releases',
        'POST /api/admin/releases/:id/yank',
        'GET /api/releases/:id/download',
        'GET /api/v1/releases/:id/download',
        'POST /api/newsletter/subscribe',
        'POST /api/newsletter/unsubscribe',
        'GET /api/admin/newsletter/subscribers',
        'GET /api/admin/newsletter/subscribers.csv',
      ]),
    );
    // The metadata walk misses nothing Express routes to, and invents nothing.
    expect([...new Set(handlers.map((handler) => handler.route))].sort()).toEqual([...new Set(expressRoutes(running))].sort());
  });

  it('decides every handler: @Public() or a non-empty role list', () => {
    expect(handlers.filter((handler) => !handler.isPublic && !handler.roles?.length).map((handler) => handler.route)).toEqual([]);
  });

  it('marks the pages, SEO files, build manifest and health probes @Public() (they are not called here)', () => {
    const skipped = handlers.filter((handler) => PUBLIC_BY_DESIGN.some((pattern) => pattern.test(handler.route)));
    expect(skipped.map((handler) => handler.route)).toEqual(
      expect.arrayContaining([
        'GET /{*path}',
        'GET /sitemap.xml',
        'GET /robots.txt',
        'GET /_app/builds/latest.json',
        'GET /health/live',
        'GET /health/ready',
      ]),
    );
    expect(skipped.filter((handler) => !handler.isPublic).map((handler) => handler.route)).toEqual([]);
  });

  it('can fill the path parameters of every handler it calls (a new parameter needs a value in paramValues)', () => {
    const unfillable = callable().flatMap((handler) => {
      try {
        fillPath(handler.path, paramValues());
        return [];
      } catch (error) {
        return [(error as Error).message];
      }
    });
    expect(unfillable).toEqual([]);
  });

  it('keeps PUBLIC_CREDENTIAL_CHECKS about handlers that exist and are public', () => {
    for (const route of Object.keys(PUBLIC_CREDENTIAL_CHECKS)) {
      expect({ route, public: handlers.find((handler) => handler.route === route)?.isPublic }).toEqual({ route, public: true });
    }
  });
});

/*
 * The callers run in this order, on purpose: anonymous, A and B cannot change anyone else, so the
 * admin — whose calls may revoke B's sessions — comes last. Within a caller, handlers that may end
 * the session run last and the caller is signed in again whenever a call ended it.
 */
describe('authorisation matrix: every handler × every caller', () => {
  it('anonymous: 401 on every handler that is not @Public(), never 401/403 on a public one', async () => {
    const { failures, calls } = await runAs('anonymous');
    expect(failures).toEqual([]);
    expect(calls).toBe(callable().length);
  });

  it("user A: 403 on admin handlers, allowed on signed-in and public ones, and never reaches user B's data", async () => {
    const before = await userState(callers.B.id);
    const { failures } = await runAs('A');
    expect(failures).toEqual([]);
    // Whatever A called, B's account and B's sessions are exactly as they were.
    expect(await userState(callers.B.id)).toEqual(before);
  });

  it('user B (the "other user"): the same answers as A, on ids that are now their own', async () => {
    const { failures } = await runAs('B');
    expect(failures).toEqual([]);
  });

  it('admin: allowed everywhere, on user B as the target of every admin handler', async () => {
    const { failures } = await runAs('admin');
    expect(failures).toEqual([]);
  });
});
