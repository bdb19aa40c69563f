/**
 * Security regression suite, part 2: hostile input.
 *
 * Every case is sent to an app of this suite's own (its own database, so that "nothing changed" is
 * exact) and must come back as a clear 4xx JSON error `{ statusCode, error, message }` with no
 * stack trace or internal path in it, while users, sessions and route rules (every document, not
 * only their counts) and the number of account tokens and queued e-mails stay exactly as they were.
 *
 * Attacks are built on top of a body the endpoint would accept (the user's real credentials, a
 * promotion to admin, a new redirect rule…), so a payload that slipped through would show up as a
 * change in the database, not just as an unexpected status.
 */
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { type Db, MongoClient, ObjectId } from 'mongodb';
import request, { type Response } from 'supertest';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { loadConfig } from '../../src/config/app-config.js';
import { ENTITLEMENT_SINK, type EntitlementSink } from '../../src/billing/entitlement-sink.js';
import { UsersService } from '../../src/users/users.service.js';
import { type Agent, cookieNamed, csrfToken, PASSWORD, signUp } from '../support/e2e.js';
import {
  databaseState,
  decodeJwt,
  expectClientError,
  leakedInternals,
  signHmac,
  signRs256,
  unsigned,
  withPayload,
} from '../support/security.js';
import { testDatabaseUri } from '../support/test-database.js';

const ADMIN_EMAIL = 'admin@example.test';
const AUTH_SECRET = 'bad-input-suite-secret-0123456789-abcdefghijklmnop';
const PUBLIC_URL = 'http://hitscope.test';
const AUDIENCE = 'hitscope-web';
const OVER_LIMIT = 101 * 1024; // BODY_LIMIT is 100 kB
const APPS = 'hitscope-for-apps';
/** The device of `user` activated on their licence in the set-up. */
const FINGERPRINT = 'a'.repeat(64);
/** The licence of `user`, made in the set-up through the entitlement sink (as billing would). */
const licence = { id: '', key: '' };
/** A release uploaded by the admin in the set-up (the yank endpoint's target). */
const release = { id: '' };

interface Person {
  agent: Agent;
  token: string;
  id: string;
  email: string;
  /** The raw hs_session JWT of this person's session. */
  session: string;
}

type CallerName = 'anon' | 'user' | 'member' | 'admin';

let running: RunningApp;
let mongo: MongoClient;
let db: Db;
const people = {} as Record<CallerName | 'kate', Person>;
let sequence = 0;
const fresh = (prefix = 'fresh') => `${prefix}-${++sequence}-${randomBytes(3).toString('hex')}@example.test`;

const server = () => running.app.getHttpServer();

async function register(email: string, name = 'Test User'): Promise<Person> {
  const { agent, token, user, session } = await signUp({ agent: request.agent(server()), email, name, database: running.mongodbUri });
  return { agent, token, id: user.id, email, session };
}

/** Runs `send`, asserts a clear 4xx JSON error and that the database is exactly as before. */
let benchState = 0,
  benchSend = 0;
async function refused(send: () => PromiseLike<Response>, status?: number | number[]): Promise<Response> {
  let t = Date.now();
  const before = await databaseState(db);
  benchState += Date.now() - t;
  t = Date.now();
  const response = await send();
  benchSend += Date.now() - t;
  expectClientError(response, status);
  expect(await databaseState(db)).toEqual(before);
  return response;
}

/* ------------------------------------------------------------------------------------------------
 * The write endpoints and the attacks on them
 * ---------------------------------------------------------------------------------------------- */

interface Endpoint {
  name: string;
  method: 'post' | 'put' | 'patch' | 'delete';
  path: () => string;
  caller: CallerName;
  /** A body the endpoint would accept: every attack is built on it. */
  valid: () => Record<string, unknown>;
  /** Dotted paths of the values an attacker controls. None: the endpoint reads no body. */
  fields: string[];
  /** A unique word for e-mail addresses made up for this endpoint. */
  slug: string;
  /** Public, cookie-less and CSRF-free by design (the licensing API): not refused when cross-site. */
  crossSiteAllowed?: boolean;
}

const ENDPOINTS: Endpoint[] = [
  {
    name: 'POST /api/auth/register',
    slug: 'register',
    method: 'post',
    path: () => '/api/auth/register',
    caller: 'anon',
    valid: () => ({ name: 'Mallory', email: fresh('mallory'), password: PASSWORD }),
    fields: ['name', 'email', 'password'],
  },
  {
    name: 'POST /api/auth/login',
    slug: 'login',
    method: 'post',
    path: () => '/api/auth/login',
    caller: 'anon',
    valid: () => ({ email: people.user.email, password: PASSWORD }),
    fields: ['email', 'password'],
  },
  {
    name: 'POST /api/auth/forgot-password',
    slug: 'forgot',
    method: 'post',
    path: () => '/api/auth/forgot-password',
    caller: 'anon',
    valid: () => ({ email: people.user.email }),
    fields: ['email'],
  },
  {
    name: 'POST /api/auth/reset-password',
    slug: 'reset',
    method: 'post',
    path: () => '/api/auth/reset-password',
    caller: 'anon',
    valid: () => ({ token: 'A'.repeat(43), password: 'a brand new passphrase' }),
    fields: ['token', 'password'],
  },
  {
    name: 'POST /api/auth/refresh',
    slug: 'refresh',
    method: 'post',
    path: () => '/api/auth/refresh',
    caller: 'user',
    valid: () => ({}),
    fields: [],
  },
  {
    name: 'POST /api/auth/logout',
    slug: 'logout',
    method: 'post',
    path: () => '/api/auth/logout',
    caller: 'user',
    valid: () => ({}),
    fields: [],
  },
  {
    name: 'PUT /api/admin/route-rules',
    slug: 'rules',
    method: 'put',
    path: () => '/api/admin/route-rules',
    caller: 'admin',
    valid: () => ({ rules: [{ source: '/attack', target: '/landing', status: 302 }] }),
    fields: ['rules.0.source', 'rules.0.target', 'rules.0.status'],
  },
  {
    name: 'PATCH /api/admin/users/:id/role',
    slug: 'role',
    method: 'patch',
    path: () => `/api/admin/users/${people.user.id}/role`,
    caller: 'admin',
    valid: () => ({ role: 'admin' }),
    fields: ['role'],
  },
  {
    name: 'PATCH /api/admin/users/:id/status',
    slug: 'status',
    method: 'patch',
    path: () => `/api/admin/users/${people.user.id}/status`,
    caller: 'admin',
    valid: () => ({ status: 'disabled' }),
    fields: ['status'],
  },
  // The profile writes (same rules; a member of their own, so that a slip cannot hurt the others).
  {
    name: 'PATCH /api/profile',
    slug: 'profile',
    method: 'patch',
    path: () => '/api/profile',
    caller: 'member',
    valid: () => ({ name: 'Renamed', colorMode: 'dark', newsletterOptIn: true }),
    fields: ['name', 'colorMode', 'newsletterOptIn'],
  },
  {
    name: 'POST /api/profile/email',
    slug: 'email-change',
    method: 'post',
    path: () => '/api/profile/email',
    caller: 'member',
    valid: () => ({ currentPassword: PASSWORD, email: fresh('moved') }),
    fields: ['currentPassword', 'email'],
  },
  {
    name: 'POST /api/profile/password',
    slug: 'password-change',
    method: 'post',
    path: () => '/api/profile/password',
    caller: 'member',
    valid: () => ({ currentPassword: PASSWORD, newPassword: 'a brand new passphrase' }),
    fields: ['currentPassword', 'newPassword'],
  },
  {
    name: 'DELETE /api/profile',
    slug: 'delete',
    method: 'delete',
    path: () => '/api/profile',
    caller: 'member',
    valid: () => ({ currentPassword: PASSWORD, confirm: 'DELETE' }),
    fields: ['currentPassword', 'confirm'],
  },
  // The licensing API of the apps: the key in the body is the credential, no cookie is read.
  {
    name: 'POST /api/v1/licenses/activate',
    slug: 'lic-activate',
    method: 'post',
    path: () => '/api/v1/licenses/activate',
    caller: 'anon',
    valid: () => ({
      key: licence.key,
      product: APPS,
      fingerprint: 'b'.repeat(64),
      nonce: 'n0nce',
      name: 'Laptop',
      platform: 'linux',
      appVersion: '1.0.0',
    }),
    fields: ['key', 'product', 'fingerprint', 'nonce', 'name', 'platform', 'appVersion'],
    crossSiteAllowed: true,
  },
  {
    name: 'POST /api/v1/licenses/validate',
    slug: 'lic-validate',
    method: 'post',
    path: () => '/api/v1/licenses/validate',
    caller: 'anon',
    valid: () => ({ key: licence.key, product: APPS, fingerprint: FINGERPRINT, nonce: 'n0nce' }),
    fields: ['key', 'product', 'fingerprint', 'nonce'],
    crossSiteAllowed: true,
  },
  {
    name: 'POST /api/v1/licenses/deactivate',
    slug: 'lic-deactivate',
    method: 'post',
    path: () => '/api/v1/licenses/deactivate',
    caller: 'anon',
    valid: () => ({ key: licence.key, product: APPS, fingerprint: FINGERPRINT }),
    fields: ['key', 'product', 'fingerprint'],
    crossSiteAllowed: true,
  },
  {
    name: 'POST /api/licences/:id/activations/:activationId/deactivate',
    slug: 'lic-own-deactivate',
    method: 'post',
    path: () => `/api/licences/${licence.id}/activations/${FINGERPRINT}/deactivate`,
    caller: 'user',
    valid: () => ({}),
    fields: [],
  },
  {
    name: 'POST /api/admin/users/:userId/licences',
    slug: 'lic-grant',
    method: 'post',
    path: () => `/api/admin/users/${people.user.id}/licences`,
    caller: 'admin',
    valid: () => ({ planId: 'team-monthly', products: [APPS], seats: 2, note: 'a gift' }),
    fields: ['planId', 'products.0', 'seats', 'note'],
  },
  {
    name: 'POST /api/admin/licences/:id/revoke',
    slug: 'lic-revoke',
    method: 'post',
    path: () => `/api/admin/licences/${licence.id}/revoke`,
    caller: 'admin',
    valid: () => ({}),
    fields: [],
  },
  {
    name: 'POST /api/admin/licences/:id/activations/reset',
    slug: 'lic-reset',
    method: 'post',
    path: () => `/api/admin/licences/${licence.id}/activations/reset`,
    caller: 'admin',
    valid: () => ({}),
    fields: [],
  },
  // The catalogue and billing writes. Billing is not configured in this app: a body that passes
  // validation reaches the handler and is refused there (409), so every attack is still a 4xx.
  {
    name: 'POST /api/admin/catalogue/plans',
    slug: 'plan-create',
    method: 'post',
    path: () => '/api/admin/catalogue/plans',
    caller: 'admin',
    valid: () => ({
      id: `attack-plan-${++sequence}`,
      name: 'Attack',
      products: ['hitscope-for-apps'],
      amountMinor: 100,
      currency: 'eur',
      interval: 'month',
      seats: 1,
    }),
    fields: ['id', 'name', 'products.0', 'amountMinor', 'currency', 'interval', 'seats'],
  },
  {
    name: 'PATCH /api/admin/catalogue/plans/:id',
    slug: 'plan-update',
    method: 'patch',
    path: () => '/api/admin/catalogue/plans/team-monthly',
    caller: 'admin',
    // stripePriceId is not among the fields: null is its documented "clear" value.
    valid: () => ({ name: 'Team', amountMinor: 2900, stripePriceId: 'price_attack' }),
    fields: ['name', 'amountMinor'],
  },
  {
    name: 'POST /api/admin/billing/orders',
    slug: 'manual-order',
    method: 'post',
    path: () => '/api/admin/billing/orders',
    caller: 'admin',
    valid: () => ({ userId: people.user.id, planId: 'solo-yearly', quantity: 1, note: 'Bank transfer' }),
    fields: ['userId', 'planId', 'quantity', 'note'],
  },
  {
    name: 'POST /api/billing/checkout',
    slug: 'checkout',
    method: 'post',
    path: () => '/api/billing/checkout',
    caller: 'member',
    valid: () => ({ planId: 'team-monthly', quantity: 1 }),
    fields: ['planId', 'quantity'],
  },
  {
    name: 'POST /api/billing/portal',
    slug: 'portal',
    method: 'post',
    path: () => '/api/billing/portal',
    caller: 'member',
    valid: () => ({ flow: 'payment_method_update' }),
    fields: ['flow'],
  },
  {
    name: 'POST /api/admin/releases/:id/yank',
    slug: 'release-yank',
    method: 'post',
    path: () => `/api/admin/releases/${release.id}/yank`,
    caller: 'admin',
    valid: () => ({}),
    fields: [],
  },
  // POST /api/admin/releases/:id/unyank reads no body either and answers exactly like yank.
  // POST /api/admin/releases is not here: it reads multipart/form-data, not JSON (its own cases are
  // in "the release upload" below).
];

interface Attack {
  title: string;
  /** The request: a raw body (string) or an object sent as JSON, optional query and content type. */
  build: (endpoint: Endpoint) => { body?: string | object; query?: string; contentType?: string };
  status?: number | number[];
  /** The key the 400 must name in `fields`. */
  field?: string;
}

const clone = <T>(value: T): T => structuredClone(value);

function setPath(target: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const copy = clone(target);
  const keys = path.split('.');
  let node = copy as Record<string, unknown>;
  for (const key of keys.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[keys[keys.length - 1]] = value;
  return copy;
}

function getPath(target: Record<string, unknown>, path: string): unknown {
  return path.split('.').reduce<unknown>((node, key) => (node as Record<string, unknown>)[key], target);
}

/** `{"__proto__": …}` cannot be written as an object literal: splice raw JSON into the valid body. */
function withRawMember(valid: Record<string, unknown>, member: string): string {
  const json = JSON.stringify(valid);
  return json === '{}' ? `{${member}}` : `{${member},${json.slice(1)}`;
}

const hugeValue = (field: string) => (/email/i.test(field) ? `${'a'.repeat(60_000)}@example.test` : 'x'.repeat(60_000));

function attacksOn(endpoint: Endpoint): Attack[] {
  const hasBody = endpoint.fields.length > 0;
  const attacks: Attack[] = [];

  // Operator injection in every value, and operator keys at the top level.
  for (const field of endpoint.fields) {
    for (const [label, operator] of [
      ['$gt', { $gt: '' }],
      ['$ne', { $ne: null }],
      ['$regex', { $regex: '.*' }],
      ['$where', { $where: 'sleep(100) || true' }],
    ] as const) {
      attacks.push({
        title: `operator ${label} in ${field}`,
        build: (ep) => ({ body: setPath(ep.valid(), field, operator) }),
        status: 400,
        field: `${field}.${label}`,
      });
    }
  }
  attacks.push(
    {
      title: 'operator key $where at the top level',
      build: (ep) => ({ body: { ...ep.valid(), $where: '1' } }),
      status: 400,
      field: '$where',
    },
    {
      title: 'operator key $set at the top level',
      build: (ep) => ({ body: { ...ep.valid(), $set: { role: 'admin' } } }),
      status: 400,
      field: '$set',
    },
    {
      title: 'operator key in the query string (?$where=1)',
      build: (ep) => ({ body: ep.valid(), query: '$where=1' }),
      status: 400,
      field: '$where',
    },
  );

  // Prototype pollution.
  attacks.push(
    {
      title: '__proto__ key',
      build: (ep) => ({ body: withRawMember(ep.valid(), '"__proto__":{"role":"admin","isAdmin":true}') }),
      status: 400,
      field: '__proto__',
    },
    {
      title: 'constructor.prototype keys',
      build: (ep) => ({ body: withRawMember(ep.valid(), '"constructor":{"prototype":{"role":"admin"}}') }),
      status: 400,
      field: 'constructor',
    },
    {
      title: '__proto__ in the query string',
      build: (ep) => ({ body: ep.valid(), query: '__proto__=admin' }),
      status: 400,
      field: '__proto__',
    },
    {
      title: 'constructor in the query string',
      build: (ep) => ({ body: ep.valid(), query: 'constructor=admin' }),
      status: 400,
      field: 'constructor',
    },
  );
  for (const field of endpoint.fields) {
    attacks.push({
      title: `__proto__ object in ${field}`,
      build: (ep) => {
        const marker = '"__MARKER__"';
        return { body: JSON.stringify(setPath(ep.valid(), field, '__MARKER__')).replace(marker, '{"__proto__":{"role":"admin"}}') };
      },
      status: 400,
      field: `${field}.__proto__`,
    });
  }

  // Oversized bodies, whatever their type.
  attacks.push(
    { title: 'a JSON body over 100 kB', build: (ep) => ({ body: { ...ep.valid(), padding: 'x'.repeat(OVER_LIMIT) } }), status: 413 },
    {
      title: 'a urlencoded body over 100 kB',
      build: () => ({ body: `padding=${'x'.repeat(OVER_LIMIT)}`, contentType: 'application/x-www-form-urlencoded' }),
      status: 413,
    },
  );

  // Bodies that are not JSON at all.
  for (const [label, raw] of [
    ['truncated JSON', '{"email": '],
    ['single-quoted JSON', "{'email': 'x@example.test'}"],
    ['two JSON documents', '{"a":1}{"b":2}'],
    ['a bare null', 'null'],
    ['a bare string', '"admin"'],
    ['a bare number', '12345'],
    ['a byte-order mark and garbage', '\ufeff\u0000\u0001'],
  ] as const) {
    attacks.push({ title: `invalid JSON: ${label}`, build: () => ({ body: raw, contentType: 'application/json' }), status: 400 });
  }
  attacks.push({
    title: 'JSON nested 40 levels deep',
    build: () => ({ body: `${'{"a":'.repeat(40)}1${'}'.repeat(40)}`, contentType: 'application/json' }),
    status: 400,
  });
  attacks.push({
    title: 'application/json with an unsupported charset',
    build: (ep) => ({ body: JSON.stringify(ep.valid()), contentType: 'application/json; charset=latin1' }),
    status: 415,
  });

  if (!hasBody) return attacks; // the rest is about the values of a body the endpoint reads

  attacks.push({
    title: 'a JSON array instead of an object',
    build: (ep) => ({ body: JSON.stringify([ep.valid()]), contentType: 'application/json' }),
  });

  // The valid body in a content type the endpoint does not read: 415 before anything is parsed.
  attacks.push(
    {
      title: 'content type text/plain (holding valid JSON)',
      build: (ep) => ({ body: JSON.stringify(ep.valid()), contentType: 'text/plain' }),
      status: 415,
    },
    {
      title: 'content type application/xml (with an external entity)',
      build: (ep) => ({
        body: `<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><body>${Object.entries(ep.valid())
          .map(([key, value]) => `<${key}>${String(value)}&xxe;</${key}>`)
          .join('')}</body>`,
        contentType: 'application/xml',
      }),
      status: 415,
    },
    {
      title: 'content type multipart/form-data',
      build: (ep) => {
        const boundary = 'xBOUNDARYx';
        const parts = Object.entries(ep.valid()).map(
          ([key, value]) =>
            `--${boundary}\r\nContent-Disposition: form-data; name="${key}"\r\n\r\n${typeof value === 'string' ? value : JSON.stringify(value)}\r\n`,
        );
        return { body: `${parts.join('')}--${boundary}--\r\n`, contentType: `multipart/form-data; boundary=${boundary}` };
      },
      status: 415,
    },
    { title: 'no content type at all', build: (ep) => ({ body: JSON.stringify(ep.valid()), contentType: '' }), status: 415 },
  );

  // Mass assignment: fields the endpoint does not take.
  const extras: Record<string, unknown> = {
    role: 'admin',
    status: 'active',
    emailVerifiedAt: '2020-01-01T00:00:00.000Z',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA',
    _id: '000000000000000000000001',
    id: '000000000000000000000001',
    createdAt: '2020-01-01T00:00:00.000Z',
  };
  for (const [key, value] of Object.entries(extras)) {
    if (endpoint.fields.includes(key)) continue;
    attacks.push({
      title: `mass assignment of ${key}`,
      build: (ep) => ({ body: { ...ep.valid(), [key]: value } }),
      status: 400,
      field: key,
    });
  }
  if (endpoint.fields.some((field) => field.startsWith('rules.0.'))) {
    attacks.push({
      title: 'mass assignment of _id inside a rule',
      build: (ep) => ({ body: setPath(ep.valid(), 'rules.0._id', 'site') }),
      status: 400,
      field: 'rules.0._id',
    });
  }

  // Wrong types and sizes in every value.
  for (const field of endpoint.fields) {
    attacks.push(
      {
        title: `huge string (60 000 characters) in ${field}`,
        build: (ep) => ({ body: setPath(ep.valid(), field, hugeValue(field)) }),
        status: 400,
      },
      {
        title: `array instead of a value in ${field}`,
        build: (ep) => ({ body: setPath(ep.valid(), field, [getPath(ep.valid(), field)]) }),
        status: 400,
      },
      {
        title: `object instead of a value in ${field}`,
        build: (ep) => ({ body: setPath(ep.valid(), field, { value: getPath(ep.valid(), field) }) }),
        status: 400,
      },
      {
        title: `number instead of a string in ${field}`,
        build: (ep) => ({ body: setPath(ep.valid(), field, 12345678901234) }),
        status: 400,
      },
      { title: `null in ${field}`, build: (ep) => ({ body: setPath(ep.valid(), field, null) }), status: 400 },
    );
  }
  if (endpoint.fields.includes('rules.0.source')) {
    attacks.push(
      { title: 'a string instead of the rules array', build: () => ({ body: { rules: '/attack' } }), status: 400 },
      {
        title: 'an object instead of the rules array',
        build: (ep) => ({ body: { rules: { 0: (ep.valid().rules as unknown[])[0] } } }),
        status: 400,
      },
      { title: 'a status given as text', build: (ep) => ({ body: setPath(ep.valid(), 'rules.0.status', '302') }), status: 400 },
      {
        title: 'a javascript: target',
        build: (ep) => ({ body: setPath(ep.valid(), 'rules.0.target', 'javascript:alert(1)') }),
        status: 400,
      },
      {
        title: 'a protocol-relative target',
        build: (ep) => ({ body: setPath(ep.valid(), 'rules.0.target', '//evil.example') }),
        status: 400,
      },
      { title: 'a backslash target', build: (ep) => ({ body: setPath(ep.valid(), 'rules.0.target', '/\\evil.example') }), status: 400 },
      {
        title: 'a CRLF in the target',
        build: (ep) => ({ body: setPath(ep.valid(), 'rules.0.target', '/landing\r\nSet-Cookie: x=1') }),
        status: 400,
      },
      {
        title: '501 rules',
        build: () => ({ body: { rules: Array.from({ length: 501 }, (_, i) => ({ source: `/r${i}`, target: '/x', status: 301 })) } }),
        status: 400,
      },
    );
  }

  // Control and invisible characters in e-mail addresses (header injection, truncation, spoofing),
  // @ look-alikes and second addresses: one rule (lib/accounts/email-address.ts) refuses them all,
  // on every endpoint that takes an address, with a message on the field.
  // Each endpoint makes up addresses of its own, so that no case depends on another's outcome.
  for (const field of endpoint.fields.filter((name) => /email/i.test(name))) {
    const word = `${endpoint.slug}-${field.replace(/\W/g, '')}`;
    for (const [label, email] of [
      ['a NUL', `${word}\u0000x@example.test`],
      ['CRLF and a Bcc header', `${word}@example.test\r\nBcc: x@y.example`],
      ['a bare LF', `${word}@example.test\nX-Injected: 1`],
      ['a tab', `${word}\t@example.test`],
      ['DEL', `${word}\u007f@example.test`],
      ['a C1 control (CSI)', `${word}\u009b31m@example.test`],
      ['a right-to-left override', `${word}\u202e@example.test`],
      ['a zero-width space', `\u200b${word}@example.test`],
      ['a fullwidth @ (U+FF20)', `${word}\uff20example.test`],
      ['a small @ (U+FE6B)', `${word}\ufe6bexample.test`],
      ['a quoted local part holding an @', `"${word}@evil.example"@example.test`],
      ['an @ inside the local part', `${word}@evil.example@example.test`],
    ] as const) {
      attacks.push({
        title: `e-mail with ${label} in ${field}`,
        build: (ep) => ({ body: setPath(ep.valid(), field, email) }),
        status: 400,
        field,
      });
    }
  }
  return attacks;
}

async function callerFor(name: CallerName): Promise<{ agent: Agent; token: string }> {
  if (name === 'anon') return { agent: people.anon.agent, token: people.anon.token };
  return people[name];
}

async function attack(endpoint: Endpoint, built: ReturnType<Attack['build']>): Promise<Response> {
  const { agent, token } = await callerFor(endpoint.caller);
  const url = built.query ? `${endpoint.path()}?${built.query}` : endpoint.path();
  let req = agent[endpoint.method](url).set('x-csrf-token', token);
  const body = built.body === undefined ? undefined : typeof built.body === 'string' ? built.body : JSON.stringify(built.body);
  const contentType = built.contentType ?? 'application/json';
  if (contentType) req = req.set('content-type', contentType);
  if (body === undefined) return req;
  if (!contentType) {
    // superagent would add one: write the bytes with none.
    req = req.unset('content-type');
    return req.send(Buffer.from(body));
  }
  return req.send(body);
}

/* ------------------------------------------------------------------------------------------------
 * Set-up: an admin, a user whose data the attacks aim at, a member for the profile endpoints,
 * "kate" (for the Kelvin-sign case), an anonymous browser, and one redirect rule.
 * ---------------------------------------------------------------------------------------------- */

beforeAll(async () => {
  running = await createApp(
    loadConfig({
      NODE_ENV: 'test',
      MONGODB_URI: testDatabaseUri('badinput'),
      LOG_LEVEL: 'error',
      PORT: '0',
      PUBLIC_URL,
      AUTH_SECRET,
      ADMIN_EMAILS: ADMIN_EMAIL,
      RATE_LIMIT_MULTIPLIER: '1000',
    }),
  );
  mongo = await MongoClient.connect(running.mongodbUri);
  db = mongo.db();
  [people.admin, people.user, people.member, people.kate] = await Promise.all([
    register(ADMIN_EMAIL, 'Admin'),
    register('user@example.test', 'User'),
    register('member@example.test', 'Member'),
    register('kate@example.test', 'Kate'),
  ]);
  const anon = request.agent(server());
  people.anon = { agent: anon, token: await csrfToken(anon), id: '', email: '', session: '' };
  await people.admin.agent
    .put('/api/admin/route-rules')
    .set('x-csrf-token', people.admin.token)
    .send({ rules: [{ source: '/old', target: '/new', status: 301 }] })
    .expect(200);
  const sink = running.app.get<EntitlementSink>(ENTITLEMENT_SINK);
  await sink.apply({
    source: { kind: 'grant', id: 'bad-input-suite' },
    userId: people.user.id,
    planId: 'team-monthly',
    products: [APPS],
    seats: 3,
    state: 'active',
    expiresAt: null,
    graceUntil: null,
  });
  const owned = await people.user.agent.get('/api/licences').expect(200);
  Object.assign(licence, { id: owned.body.licences[0].id, key: owned.body.licences[0].key });
  const activated = await request(server())
    .post('/api/v1/licenses/activate')
    .send({ key: licence.key, product: APPS, fingerprint: FINGERPRINT });
  expect(activated.body.code).toBe('VALID');
  const uploaded = await people.admin.agent
    .post('/api/admin/releases')
    .set('x-csrf-token', people.admin.token)
    .field('product', APPS)
    .field('platform', 'linux')
    .field('arch', 'x64')
    .field('channel', 'stable')
    .field('version', '1.0.0')
    .field('size', '64')
    .attach('file', Buffer.alloc(64, 1), 'hitscope-1.0.0.tar.gz')
    .expect(201);
  release.id = uploaded.body.id as string;
  expect((await databaseState(db)).counts).toMatchObject({
    users: 4,
    sessions: 4,
    route_rules: 1,
    licences: 1,
    licence_activations: 1,
    licence_activation_events: 1,
    releases: 1,
    release_files: 1,
  });
});

afterAll(async () => {
  if (process.env.BENCH) console.log('state', benchState, 'send', benchSend);
  await mongo?.close();
  await running?.close();
});

/**
 * Generated cases that fail today because of a product bug (each entry says which). They run as
 * `it.failing`: once the bug is fixed Jest says so, and the entry must be removed from here.
 */

async function runAttack(endpoint: Endpoint, { build, status, field }: Attack): Promise<void> {
  const response = await refused(() => attack(endpoint, build(endpoint)), status);
  if (field) expect(Object.keys((response.body as { fields?: object }).fields ?? {})).toContain(field);
}

describe.each(ENDPOINTS)('$name refuses hostile input and changes nothing', (endpoint) => {
  const attacks = attacksOn(endpoint);
  it.each(attacks)('$title', (attack) => runAttack(endpoint, attack));
});

describe('the setting-up was right (the attacks above aim at live accounts)', () => {
  it('every caller is still signed in and nobody was promoted, disabled or renamed', async () => {
    for (const name of ['user', 'member', 'admin'] as const) {
      const me = await people[name].agent.get('/api/auth/me').expect(200);
      expect(me.body).toMatchObject({ id: people[name].id, role: name === 'admin' ? 'admin' : 'user' });
    }
    const state = await databaseState(db);
    expect(await db.collection('users').countDocuments({ role: 'admin' })).toBe(1);
    expect(await db.collection('users').countDocuments({ status: { $ne: 'active' } })).toBe(0);
    expect(state.counts.route_rules).toBe(1);
    expect(state.routeRules).toEqual([expect.objectContaining({ rules: [{ source: '/old', target: '/new', status: 301 }] })]);
  });
});

/* ------------------------------------------------------------------------------------------------
 * Writes from another site: Origin and Sec-Fetch-Site, a second line of defence behind the token
 * ---------------------------------------------------------------------------------------------- */

describe('writes from another site are refused on Origin and Sec-Fetch-Site, CSRF token or not', () => {
  const CROSS_SITE: [string, Record<string, string>][] = [
    ['Origin of another site', { Origin: 'https://evil.example' }],
    ['Origin of a look-alike host', { Origin: `${PUBLIC_URL}.evil.example` }],
    ['Origin of our host over https (another origin)', { Origin: PUBLIC_URL.replace('http:', 'https:') }],
    ['Origin null (a sandboxed frame)', { Origin: 'null' }],
    ['Sec-Fetch-Site cross-site', { 'Sec-Fetch-Site': 'cross-site' }],
    ['Sec-Fetch-Site same-site (a sibling subdomain)', { 'Sec-Fetch-Site': 'same-site' }],
    ['our Origin with Sec-Fetch-Site cross-site', { Origin: PUBLIC_URL, 'Sec-Fetch-Site': 'cross-site' }],
  ];

  describe.each(ENDPOINTS.filter((endpoint) => !endpoint.crossSiteAllowed))('$name', (endpoint) => {
    it.each(CROSS_SITE)('%s: 403 CROSS_SITE_REQUEST with a valid token and body, nothing changed', async (_label, headers) => {
      const { agent, token } = await callerFor(endpoint.caller);
      const response = await refused(
        () => agent[endpoint.method](endpoint.path()).set('x-csrf-token', token).set(headers).send(endpoint.valid()),
        403,
      );
      expect(response.body).toMatchObject({ code: 'CROSS_SITE_REQUEST', message: 'This request came from another site and was refused' });
    });
  });

  it.each([
    ['our Origin and Sec-Fetch-Site same-origin (what the app sends)', { Origin: PUBLIC_URL, 'Sec-Fetch-Site': 'same-origin' }],
    ['our Origin alone', { Origin: PUBLIC_URL }],
    ["Sec-Fetch-Site none (the user's own navigation)", { 'Sec-Fetch-Site': 'none' }],
    ['neither (a script, an older browser: the token alone decides)', {}],
  ])('%s: the write goes through', async (_label, headers) => {
    const response = await people.member.agent
      .patch('/api/profile')
      .set('x-csrf-token', people.member.token)
      .set(headers)
      .send({ newsletterOptIn: false })
      .expect(200);
    expect(response.body.newsletterOptIn).toBe(false);
  });

  it('a cross-site request without a token is answered CROSS_SITE_REQUEST, before the token is looked at', async () => {
    const response = await refused(() => request(server()).post('/api/auth/login').set('Origin', 'https://evil.example').send({}), 403);
    expect(response.body.code).toBe('CROSS_SITE_REQUEST');
  });

  it.each(CROSS_SITE)(
    'the licensing API reads no cookie, so %s is answered like any other call (a decision, no token needed)',
    async (_label, headers) => {
      const before = await databaseState(db);
      const response = await request(server())
        .post('/api/v1/licenses/validate')
        .set(headers)
        .send({ key: licence.key, product: APPS, fingerprint: FINGERPRINT })
        .expect(200);
      expect(response.body).toMatchObject({ valid: true, code: 'VALID' });
      expect(await databaseState(db)).toEqual(before);
    },
  );

  it('reads are not refused: a cross-site GET (a link, an image) is answered as usual', async () => {
    await people.user.agent.get('/api/auth/me').set('Origin', 'https://evil.example').set('Sec-Fetch-Site', 'cross-site').expect(200);
    await request(server()).get('/').set('Sec-Fetch-Site', 'cross-site').expect(200);
  });
});

/* ------------------------------------------------------------------------------------------------
 * Query strings and path parameters of the read endpoints
 * ---------------------------------------------------------------------------------------------- */

describe('operator injection in query strings and path parameters', () => {
  it.each([
    ['admin', '/api/admin/users?q[$ne]=x'],
    ['admin', '/api/admin/users?q[$regex]=.*'],
    ['admin', '/api/admin/users?role[$ne]=user'],
    ['admin', '/api/admin/users?status[$in][]=active'],
    ['admin', '/api/admin/users?sort[$gt]='],
    ['admin', '/api/admin/users?q=a&q=b'],
    ['admin', '/api/admin/users?$where=1'],
    ['admin', '/api/admin/users?__proto__[role]=admin'],
    ['admin', '/api/admin/users?pageSize=1e9'],
    ['admin', '/api/admin/audit-log?targetId[$ne]=x'],
    ['anon', '/api/route-rules?path[$gt]='],
    ['anon', '/api/route-rules?path[$ne]=/'],
    ['anon', '/api/route-rules?path=/&path=/old'],
    ['anon', '/api/route-rules?path=https://evil.example/'],
    ['anon', '/api/auth/verify-email?token[$ne]=x'],
    ['anon', `/api/auth/verify-email?token=${'x'.repeat(200)}`],
  ] as const)('%s GET %s → 400', async (who, url) => {
    const { agent } = await callerFor(who);
    await refused(() => agent.get(url), 400);
  });

  it.each([
    ['an operator object', encodeURIComponent('{"$ne":null}')],
    ['a $ word', '$ne'],
    ['a bracketed operator', encodeURIComponent('[$ne]')],
    ['a traversal', '..%2F..%2Fadmin'],
    ['an id with a NUL', `${'a'.repeat(24)}%00`],
    ['an id with a regex', encodeURIComponent('.*')],
    ['a 25-character id', 'a'.repeat(25)],
  ])('an admin route given %s as its id → 400', async (_label, id) => {
    const { agent, token } = people.admin;
    await refused(() => agent.get(`/api/admin/users/${id}`), 400);
    await refused(() => agent.patch(`/api/admin/users/${id}/role`).set('x-csrf-token', token).send({ role: 'admin' }), 400);
    await refused(() => agent.patch(`/api/admin/users/${id}/status`).set('x-csrf-token', token).send({ status: 'disabled' }), 400);
    await refused(() => agent.post(`/api/admin/users/${id}/sessions/revoke`).set('x-csrf-token', token), 400);
  });

  it('an admin route given a well-formed unknown id → 404', async () => {
    const { agent, token } = people.admin;
    await refused(
      () => agent.patch('/api/admin/users/ffffffffffffffffffffffff/role').set('x-csrf-token', token).send({ role: 'admin' }),
      404,
    );
  });

  it('a percent-encoding the URL parser cannot decode → 400, not 500', async () => {
    await refused(() => people.admin.agent.get('/api/admin/users/%E0%A4%A'), [400, 404]);
  });
});

/* ------------------------------------------------------------------------------------------------
 * E-mail look-alikes: homoglyphs, invisible characters, case folding
 * ---------------------------------------------------------------------------------------------- */

describe('look-alike e-mail addresses never reach the admin account', () => {
  const post = (path: string, body: object) => people.anon.agent.post(path).set('x-csrf-token', people.anon.token).send(body);
  const adminDocument = () => db.collection('users').findOne({ email: ADMIN_EMAIL });

  it.each([
    ['NUL inside', 'ad\u0000min@example.test'],
    ['CRLF and a Bcc header', 'admin@example.test\r\nBcc: x@y.example'],
    ['trailing CR', 'admin@example.test\r'],
  ])('register and sign-in with %s → 400', async (_label, email) => {
    await refused(() => post('/api/auth/register', { name: 'Mallory', email, password: PASSWORD }), 400);
    await refused(() => post('/api/auth/login', { email, password: PASSWORD }), 400);
    await refused(() => post('/api/auth/forgot-password', { email }), 400);
  });

  it('the Latin admin address in another case is the same account: answered as for a new one, nothing created or changed', async () => {
    const admin = await adminDocument();
    const response = await post('/api/auth/register', { name: 'Mallory', email: 'ADMIN@Example.TEST', password: PASSWORD });
    expect(response.status).toBe(202);
    expect(await db.collection('users').countDocuments({ email: ADMIN_EMAIL })).toBe(1);
    expect(await adminDocument()).toEqual(admin);
  });

  it('the Kelvin sign (K, U+212A), which lower-cases to "k", cannot make a second kate@example.test', async () => {
    const response = await post('/api/auth/register', { name: 'Mallory', email: '\u212Aate@example.test', password: PASSWORD });
    expect([400, 202]).toContain(response.status);
    expect(await db.collection('users').countDocuments({ email: 'kate@example.test' })).toBe(1);
  });

  it.each([
    ['a Cyrillic "а" (U+0430)', '\u0430dmin@example.test'],
    ['a zero-width space before the TLD', 'admin@example.\u200btest'],
    ['a full-width "ａ"', '\uff41dmin@example.test'],
  ])('%s: signing in with the admin password fails and changes nothing', async (_label, email) => {
    await refused(() => post('/api/auth/login', { email, password: PASSWORD }), [400, 401]);
  });

  it.each([
    ['a Cyrillic "а" (U+0430)', '\u0430dmin@example.test'],
    ['a zero-width space before the TLD', 'admin@example.\u200btest'],
    ['a full-width "ａ"', '\uff41dmin@example.test'],
  ])('%s: registering is refused, or makes a separate, non-admin account', async (_label, email) => {
    const admin = await adminDocument();
    const before = await databaseState(db);
    const agent = request.agent(server());
    const token = await csrfToken(agent);
    const response = await agent
      .post('/api/auth/register')
      .set('x-csrf-token', token)
      .send({ name: 'Mallory', email, password: 'mallory own passphrase' });
    if (response.status === 202) {
      const created = await db.collection('users').findOne({ email: response.body.email });
      expect(created!._id.toString()).not.toBe(admin!._id.toString());
      expect(created!.role).toBe('user');
      expect(response.body.email).not.toBe(ADMIN_EMAIL);
      // Signing in as the real admin still gives the real admin; the look-alike's password does not.
      await people.anon.agent
        .post('/api/auth/login')
        .set('x-csrf-token', people.anon.token)
        .send({ email: ADMIN_EMAIL, password: 'mallory own passphrase' })
        .expect(401);
    } else {
      expectClientError(response);
      expect(await databaseState(db)).toEqual(before);
    }
    expect(await adminDocument()).toEqual(admin);
  });
});

describe('e-mail addresses: one rule and one normal form on every endpoint that takes one', () => {
  const post = (path: string, body: object) => people.anon.agent.post(path).set('x-csrf-token', people.anon.token).send(body);
  const MESSAGES = {
    hidden: 'The e-mail address contains an invisible or control character (such as a line break or a zero-width space): type it again',
    atLookAlike: 'The e-mail address contains a character that looks like @ but is not one: type the @ from your keyboard',
    oneAddress: 'Enter one e-mail address: a single @, and no quotes',
  };
  /** Every endpoint that takes an address, with a body it would otherwise accept. */
  const SENDERS: [string, (email: string) => PromiseLike<Response>][] = [
    ['register', (email) => post('/api/auth/register', { name: 'Mallory', email, password: PASSWORD })],
    ['sign-in', (email) => post('/api/auth/login', { email, password: PASSWORD })],
    ['forgot-password', (email) => post('/api/auth/forgot-password', { email })],
    [
      'e-mail change',
      (email) =>
        people.member.agent.post('/api/profile/email').set('x-csrf-token', people.member.token).send({ currentPassword: PASSWORD, email }),
    ],
  ];

  it.each([
    ['a fullwidth @ (U+FF20)', `admin\uff20example.test`, MESSAGES.atLookAlike],
    ['a small @ (U+FE6B)', `admin\ufe6bexample.test`, MESSAGES.atLookAlike],
    ['a fullwidth @ smuggling a second domain', `mallory@evil.example\uff20example.test`, MESSAGES.atLookAlike],
    ['a quoted local part holding the admin address', `"${ADMIN_EMAIL}"@evil.example`, MESSAGES.oneAddress],
    ['"a@b"@c.test', '"a@b"@c.test', MESSAGES.oneAddress],
    ['an @ inside the local part', `${ADMIN_EMAIL}@evil.example`, MESSAGES.oneAddress],
    ['a C1 control (NEL)', 'admin\u0085@example.test', MESSAGES.hidden],
    ['DEL', 'admin\u007f@example.test', MESSAGES.hidden],
    ['a zero-width space before the TLD (which IDN mapping would drop)', 'admin@example.\u200btest', MESSAGES.hidden],
    ['a soft hyphen in the domain (which IDN mapping would drop)', 'admin@exam\u00adple.test', MESSAGES.hidden],
    ['a left-to-right isolate', 'admin\u2066@example.test', MESSAGES.hidden],
  ])('%s: 400 on every endpoint, with the message on the e-mail field, nothing changed', async (_label, email, message) => {
    for (const [name, send] of SENDERS) {
      const response = await refused(() => send(email), 400);
      expect({ name, fields: response.body.fields }).toEqual({ name, fields: { email: [message] } });
    }
  });

  it('an internationalised domain and its punycode are one account, stored in ASCII', async () => {
    const word = `idn-${randomBytes(3).toString('hex')}`;
    const ascii = `${word}@xn--mnchen-3ya.de`;
    const first = await post('/api/auth/register', { name: 'Jörg', email: `${word}@münchen.de`, password: PASSWORD }).expect(202);
    expect(first.body.email).toBe(ascii);
    expect(await db.collection('users').countDocuments({ email: ascii })).toBe(1);
    expect(await db.collection('users').countDocuments({ email: `${word}@münchen.de` })).toBe(0);
    // Registering the other spelling is answered as for a taken address: nothing new is created.
    const before = await databaseState(db);
    const second = await post('/api/auth/register', { name: 'Jörg', email: ascii.toUpperCase(), password: PASSWORD }).expect(202);
    expect(second.body.email).toBe(ascii);
    expect((await databaseState(db)).counts.users).toBe(before.counts.users);
  });

  it('signs in with any spelling of an internationalised domain', async () => {
    const word = `idn-${randomBytes(3).toString('hex')}`;
    const person = await register(`${word}@xn--bcher-kva.example`);
    for (const email of [`${word}@bücher.example`, `${word.toUpperCase()}@BÜCHER.EXAMPLE`, `${word}@xn--bcher-kva.example`]) {
      const agent = request.agent(server());
      const token = await csrfToken(agent); // first: an agent attaches its cookies when a request is created
      const response = await agent.post('/api/auth/login').set('x-csrf-token', token).send({ email, password: PASSWORD });
      expect({ email, status: response.status, id: response.body.id }).toEqual({ email, status: 200, id: person.id });
    }
  });

  it('trims surrounding spaces instead of refusing them (register, sign-in, e-mail change)', async () => {
    const email = fresh('trim');
    const registered = await post('/api/auth/register', { name: 'Trim', email: `  ${email}\u00a0 `, password: PASSWORD }).expect(202);
    expect(registered.body.email).toBe(email);
    expect(await db.collection('users').countDocuments({ email })).toBe(1);
    const agent = request.agent(server());
    const token = await csrfToken(agent);
    const login = await agent
      .post('/api/auth/login')
      .set('x-csrf-token', token)
      .send({ email: `  ${people.user.email}  `, password: PASSWORD });
    expect(login.status).toBe(200);
    expect(login.body.id).toBe(people.user.id);
    const moved = await people.member.agent
      .post('/api/profile/email')
      .set('x-csrf-token', people.member.token)
      .send({ currentPassword: PASSWORD, email: ' Moved-Member@Bücher.Example ' })
      .expect(201);
    expect(moved.body.pendingEmail).toBe('moved-member@xn--bcher-kva.example');
  });

  it('an address stored before the rule with its domain as typed is rewritten to the normal form, and signs in', async () => {
    const word = `legacy-${randomBytes(3).toString('hex')}`;
    const person = await register(`${word}@xn--mnchen-3ya.de`);
    await db.collection('users').updateOne({ _id: new ObjectId(person.id) }, { $set: { email: `${word}@münchen.de` } });
    expect(await running.app.get(UsersService).normaliseStoredAddresses()).toBe(1);
    expect(await db.collection('users').findOne({ _id: new ObjectId(person.id) })).toMatchObject({ email: `${word}@xn--mnchen-3ya.de` });
    expect(await running.app.get(UsersService).normaliseStoredAddresses()).toBe(0);
    const agent = request.agent(server());
    const token = await csrfToken(agent);
    await agent
      .post('/api/auth/login')
      .set('x-csrf-token', token)
      .send({ email: `${word}@münchen.de`, password: PASSWORD })
      .expect(200);
  });
});

/* ------------------------------------------------------------------------------------------------
 * Forged session tokens
 * ---------------------------------------------------------------------------------------------- */

/** The `hs_session` Set-Cookie of a response, as `{ value, attributes }` (attributes lower-cased, without Expires). */
function sessionSetCookie(response: Response): { value: string; expires: string | null; attributes: string[] } | null {
  const cookie = cookieNamed(response.headers['set-cookie'], 'hs_session');
  if (!cookie) return null;
  const [pair, ...attributes] = cookie.split(/;\s*/);
  const expires = attributes.find((attribute) => /^expires=/i.test(attribute));
  return {
    value: pair.slice('hs_session='.length),
    expires: expires ? expires.slice('expires='.length) : null,
    attributes: attributes
      .filter((attribute) => attribute !== expires)
      .map((attribute) => attribute.toLowerCase())
      .sort(),
  };
}

/** Whether a response tells the browser to drop its `hs_session` cookie (empty and expired). */
function clearsSession(response: Response): boolean {
  const cookie = sessionSetCookie(response);
  return cookie !== null && cookie.value === '' && cookie.expires !== null && Date.parse(cookie.expires) < Date.now();
}

describe('forged, expired and mis-addressed session tokens are refused', () => {
  const now = () => Math.floor(Date.now() / 1000);
  /** Claims that would make the bearer the admin, on the admin's own live session. */
  const adminClaims = () => {
    const { payload } = decodeJwt(people.admin.session);
    return { sub: payload.sub as string, sid: payload.sid as string, iat: now(), exp: now() + 600, iss: PUBLIC_URL, aud: AUDIENCE };
  };
  const userSid = () => decodeJwt(people.user.session).payload.sid as string;

  /**
   * `attacker: true` — made without the server's secret; only those are also tried on logout.
   * `verifies: true` — passes verification (right secret, algorithm, issuer, audience, expiry), so it
   * is refused for its session, and its cookie is not cleared; every other one is.
   */
  const TOKENS: [string, () => string, { attacker: boolean; verifies?: boolean }][] = [
    ['HS256 signed with a wrong secret', () => signHmac(adminClaims(), 'not-the-secret-but-long-enough-0123456789'), { attacker: true }],
    ['HS256 signed with an empty secret', () => signHmac(adminClaims(), ''), { attacker: true }],
    ['RS256 signed with a fresh key', () => signRs256(adminClaims()), { attacker: true }],
    ['alg "none"', () => unsigned(adminClaims(), 'none'), { attacker: true }],
    ['alg "None"', () => unsigned(adminClaims(), 'None'), { attacker: true }],
    [
      'alg "NONE" with the real signature kept',
      () => `${unsigned(adminClaims(), 'NONE')}${people.admin.session.split('.')[2]}`,
      { attacker: true },
    ],
    ["the user's real token with the admin's claims pasted in", () => withPayload(people.user.session, adminClaims()), { attacker: true }],
    [
      "the user's real token with role: admin added",
      () => withPayload(people.user.session, { ...decodeJwt(people.user.session).payload, role: 'admin' }),
      { attacker: true },
    ],
    ['operator objects as claims', () => unsigned({ ...adminClaims(), sub: { $ne: null }, sid: { $ne: null } }), { attacker: true }],
    ['garbage', () => 'not-a-jwt', { attacker: true }],
    ['three empty segments', () => '..', { attacker: true }],
    ['HS512 with the right secret (the algorithm is pinned)', () => signHmac(adminClaims(), AUTH_SECRET, 'HS512'), { attacker: false }],
    ['expired (right secret)', () => signHmac({ ...adminClaims(), iat: now() - 3600, exp: now() - 60 }, AUTH_SECRET), { attacker: false }],
    [
      "no exp at all (right secret, the admin's live session)",
      () => signHmac({ ...adminClaims(), exp: undefined }, AUTH_SECRET),
      { attacker: false },
    ],
    [
      'not valid yet (right secret, nbf in an hour)',
      () => signHmac({ ...adminClaims(), nbf: now() + 3600 }, AUTH_SECRET),
      { attacker: false },
    ],
    ['wrong audience (right secret)', () => signHmac({ ...adminClaims(), aud: 'another-app' }, AUTH_SECRET), { attacker: false }],
    ['wrong issuer (right secret)', () => signHmac({ ...adminClaims(), iss: 'https://evil.example' }, AUTH_SECRET), { attacker: false }],
    [
      'no audience and no issuer (right secret)',
      () => signHmac({ sub: adminClaims().sub, sid: adminClaims().sid, exp: now() + 600 }, AUTH_SECRET),
      { attacker: false },
    ],
    [
      "the admin's id on the user's session (right secret)",
      () => signHmac({ ...adminClaims(), sid: userSid() }, AUTH_SECRET),
      { attacker: false, verifies: true },
    ],
    [
      'an unknown session id (right secret)',
      () => signHmac({ ...adminClaims(), sid: randomBytes(24).toString('base64url') }, AUTH_SECRET),
      { attacker: false, verifies: true },
    ],
    [
      'a sub that is not an ObjectId (right secret)',
      () => signHmac({ ...adminClaims(), sub: 'admin' }, AUTH_SECRET),
      { attacker: false, verifies: true },
    ],
  ];

  let csrf: { nonce: string; token: string };
  beforeAll(async () => {
    const response = await request(server()).get('/api/auth/csrf').expect(200);
    csrf = { nonce: cookieNamed(response.headers['set-cookie'], 'hs_csrf')!.split(';')[0].split('=')[1], token: response.body.token };
  });
  const withSession = (req: request.Test, jwt: string) =>
    req.set('Cookie', `hs_csrf=${csrf.nonce}; hs_session=${jwt}`).set('x-csrf-token', csrf.token);

  it.each(TOKENS)(
    '%s: 401 on every API endpoint, no change, and the pages treat the bearer as signed out',
    async (_label, make, { attacker, verifies }) => {
      const jwt = make();
      const http = () => request(server());
      /** A token that fails verification is cleared by every answer that verified it, API and page alike. */
      const expectClearedUnlessVerifies = (response: Response) => {
        const path = (response as Response & { req: { path: string } }).req.path;
        expect({ path, cleared: clearsSession(response) }).toEqual({ path, cleared: !verifies });
      };
      for (const send of [
        () => withSession(http().get('/api/auth/me'), jwt),
        () => withSession(http().get('/api/admin/users'), jwt),
        () => withSession(http().get('/api/profile'), jwt),
        () => withSession(http().put('/api/admin/route-rules'), jwt).send({ rules: [] }),
        () => withSession(http().patch(`/api/admin/users/${people.user.id}/role`), jwt).send({ role: 'admin' }),
        () => withSession(http().post(`/api/admin/users/${people.user.id}/sessions/revoke`), jwt),
        () => withSession(http().post('/api/auth/verify-email/resend'), jwt),
      ]) {
        const response = await refused(send, 401);
        expect(response.body.message).toBe('Sign in to continue');
        expectClearedUnlessVerifies(response);
      }
      // Sign-out with a token nobody could have signed must not end anybody's session.
      if (attacker) {
        const before = await databaseState(db);
        const response = await withSession(http().post('/api/auth/logout'), jwt);
        expect(response.status).toBe(204);
        expect(await databaseState(db)).toEqual(before);
      }
      for (const page of ['/admin', '/admin/users', '/dashboard/lounge']) {
        const response = await withSession(http().get(page), jwt);
        expect({ page, status: response.status, location: response.headers.location }).toEqual({
          page,
          status: 302,
          location: `/login?redirect=${encodeURIComponent(page)}`,
        });
        expectClearedUnlessVerifies(response);
      }
    },
  );

  it.each([
    ['malformed', 'x'],
    ['an unknown session with a well-formed secret', `${randomBytes(24).toString('base64url')}.${randomBytes(32).toString('base64url')}`],
    ['an operator object', '{"$ne":null}'],
    ['a huge value', 'x'.repeat(3000)],
  ])('a forged refresh cookie (%s) → 401, and nothing changes', async (_label, value) => {
    await refused(
      () =>
        request(server())
          .post('/api/auth/refresh')
          .set('Cookie', `hs_csrf=${csrf.nonce}; hs_refresh=${encodeURIComponent(value)}`)
          .set('x-csrf-token', csrf.token),
      401,
    );
  });
});

describe('a session cookie that fails verification is cleared, with the attributes it was set with', () => {
  const now = () => Math.floor(Date.now() / 1000);
  /** A fresh sign-in of its own (nobody else's session is touched): its cookies and its Set-Cookie. */
  async function signedIn() {
    const person = await register(fresh('cookie'));
    const agent = request.agent(server());
    const csrf = await csrfToken(agent);
    const login = await agent
      .post('/api/auth/login')
      .set('x-csrf-token', csrf)
      .send({ email: person.email, password: PASSWORD })
      .expect(200);
    const set = sessionSetCookie(login)!;
    const refresh = cookieNamed(login.headers['set-cookie'], 'hs_refresh')!.split(';')[0];
    const { payload } = decodeJwt(set.value);
    const expired = signHmac({ ...payload, iat: now() - 3600, exp: now() - 60 }, AUTH_SECRET);
    return { set, refresh, expired, valid: set.value, noExp: signHmac({ ...payload, exp: undefined }, AUTH_SECRET) };
  }

  it('an expired token on an API call: 401, and hs_session expired with Path, HttpOnly and SameSite as at sign-in', async () => {
    const { set, expired } = await signedIn();
    expect(set.attributes).toEqual(['httponly', 'path=/', 'samesite=lax']);
    const response = await request(server()).get('/api/auth/me').set('Cookie', `hs_session=${expired}`).expect(401);
    expect(clearsSession(response)).toBe(true);
    expect(sessionSetCookie(response)!.attributes).toEqual(set.attributes);
  });

  it('a token without exp on a page render: treated as signed out, and cleared', async () => {
    const { set, noExp } = await signedIn();
    const response = await request(server()).get('/dashboard/lounge').set('Cookie', `hs_session=${noExp}`).expect(302);
    expect(response.headers.location).toBe('/login?redirect=%2Fdashboard%2Flounge');
    expect(clearsSession(response)).toBe(true);
    expect(sessionSetCookie(response)!.attributes).toEqual(set.attributes);
  });

  it('a public page with a tampered token renders signed out and clears it', async () => {
    const { valid } = await signedIn();
    const tampered = `${valid.slice(0, -2)}${valid.endsWith('AA') ? 'BB' : 'AA'}`;
    const response = await request(server()).get('/').set('Cookie', `hs_session=${tampered}`).expect(200);
    expect(clearsSession(response)).toBe(true);
  });

  it('an expired token with a live refresh cookie on a page render: one new hs_session, not a clearing one', async () => {
    const { expired, refresh } = await signedIn();
    const response = await request(server()).get('/dashboard/lounge').set('Cookie', `hs_session=${expired}; ${refresh}`).expect(200);
    const cookies = (response.headers['set-cookie'] as unknown as string[]).filter((cookie) => cookie.startsWith('hs_session='));
    expect(cookies).toHaveLength(1);
    expect(clearsSession(response)).toBe(false);
    expect(sessionSetCookie(response)!.value).not.toBe('');
  });

  it('a valid token, or none, sets no hs_session cookie', async () => {
    const { valid } = await signedIn();
    for (const response of [
      await request(server()).get('/api/auth/me').set('Cookie', `hs_session=${valid}`).expect(200),
      await request(server()).get('/dashboard/lounge').set('Cookie', `hs_session=${valid}`).expect(200),
      await request(server()).get('/api/auth/me').expect(401),
      await request(server()).get('/dashboard/lounge').expect(302),
    ]) {
      expect(sessionSetCookie(response)).toBeNull();
    }
  });
});

/* ------------------------------------------------------------------------------------------------
 * Open redirects
 * ---------------------------------------------------------------------------------------------- */

describe('open redirects: /login and /register never link or send anybody off-site', () => {
  const UNSAFE = [
    'https://evil.example',
    'http://evil.example/dashboard',
    '//evil.example',
    '//evil.example/%2F..',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    ' //evil.example',
    'https:evil.example',
    '///evil.example',
    'javascript:alert(document.domain)',
    'JaVaScRiPt:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '/dashboard\r\nSet-Cookie: injected=1',
  ];
  const unescapeHtml = (text: string) =>
    text
      .replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"')
      .replace(/&#x27;|&#39;/g, "'")
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>');
  /** Every URL-carrying attribute of the page. */
  const urls = (html: string) =>
    [...html.matchAll(/\s(?:href|src|action|formaction|content)="([^"]*)"/gi)].map((match) => unescapeHtml(match[1]));
  /** Origins the pages may legitimately name (JSON-LD vocabulary). */
  const SAFE_ORIGINS = ['https://schema.org', 'http://schema.org'];
  const isSameSitePath = (value: string) =>
    value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/\\') && new URL(value, PUBLIC_URL).origin === PUBLIC_URL;

  /**
   * Links that leave the site: script URLs, protocol-relative or backslash paths, absolute URLs of
   * another origin, and links whose own `redirect=` parameter is not a same-site path.
   */
  function offSite(html: string): string[] {
    const bad: string[] = [];
    for (const value of urls(html)) {
      const trimmed = value.trim();
      if (/^(javascript|data|vbscript):/i.test(trimmed)) bad.push(value);
      if (/^(\/\/|\/\\|\\)/.test(trimmed)) bad.push(value);
      if (!/^(\/|https?:)/i.test(trimmed)) continue; // relative names, fragments, meta text
      const resolved = new URL(trimmed, PUBLIC_URL);
      if (resolved.origin !== PUBLIC_URL && !SAFE_ORIGINS.includes(resolved.origin)) bad.push(value);
      const nested = resolved.searchParams.get('redirect');
      if (nested !== null && !isSameSitePath(nested)) bad.push(value);
    }
    return bad;
  }
  const hrefsTo = (html: string, path: string) => urls(html).filter((value) => value === path || value.startsWith(`${path}?`));

  it.each(UNSAFE)('GET /login?redirect=%j: no off-site link, and the register link drops the target', async (target) => {
    const response = await request(server()).get(`/login?redirect=${encodeURIComponent(target)}`);
    expect(response.status).toBe(200);
    expect(offSite(response.text)).toEqual([]);
    expect(hrefsTo(response.text, '/register')).toEqual(['/register']);
    expect(response.headers['set-cookie'] ?? []).not.toEqual(expect.arrayContaining([expect.stringMatching(/^injected=/)]));
    expect(leakedInternals(response.text)).toBeNull();
  });

  it.each(UNSAFE)('GET /register?redirect=%j: no off-site link, and the sign-in link drops the target', async (target) => {
    const response = await request(server()).get(`/register?redirect=${encodeURIComponent(target)}`);
    expect(response.status).toBe(200);
    expect(offSite(response.text)).toEqual([]);
    expect(hrefsTo(response.text, '/login')).toEqual(['/login']);
  });

  it.each(UNSAFE)('a signed-in user opening /login?redirect=%j is sent to a same-site page', async (target) => {
    const response = await people.user.agent.get(`/login?redirect=${encodeURIComponent(target)}`);
    expect(response.status).toBeGreaterThanOrEqual(300);
    expect(response.status).toBeLessThan(400);
    expect(isSameSitePath(response.headers.location)).toBe(true);
  });

  it.each(UNSAFE)('provider sign-in started with redirect=%j never sends the browser to that target', async (target) => {
    const response = await request(server()).get(`/api/auth/oidc/start?redirect=${encodeURIComponent(target)}`);
    if (response.status === 404) return; // no provider sign-in in this build
    expect(response.status).toBeLessThan(500);
    const location = response.headers.location ?? '';
    expect(location).not.toMatch(/evil\.example|javascript:|data:/i);
    if (location) expect(isSameSitePath(location)).toBe(true); // no provider configured here: back to /login
  });

  it.each([
    ['/dashboard/user/orders?x=1&y=2', '/register?redirect=%2Fdashboard%2Fuser%2Forders%3Fx%3D1%26y%3D2'],
    ['/admin/users', '/register?redirect=%2Fadmin%2Fusers'],
  ])('keeps a same-site target (%s) on the register link', async (target, href) => {
    const response = await request(server())
      .get(`/login?redirect=${encodeURIComponent(target)}`)
      .expect(200);
    expect(hrefsTo(response.text, '/register')).toEqual([href]);
    expect(offSite(response.text)).toEqual([]);
  });

  it.each(['//evil.example', '//evil.example/login', '/\\evil.example', '/%5Cevil.example', '/%2F%2Fevil.example', '/.%2F%2Fevil.example'])(
    'GET %s neither redirects off-site nor links there',
    async (path) => {
      const response = await request(server()).get(path);
      expect(response.status).toBeLessThan(500);
      if (response.headers.location) expect(isSameSitePath(response.headers.location)).toBe(true);
      expect(offSite(response.text)).toEqual([]);
    },
  );

  it('the sign-in guard carries only the original same-site path to /login', async () => {
    const response = await request(server()).get('/dashboard/lounge?next=//evil.example').expect(302);
    const target = new URL(response.headers.location, PUBLIC_URL);
    expect(target.pathname).toBe('/login');
    expect(isSameSitePath(target.searchParams.get('redirect')!)).toBe(true);
  });
});

/* ------------------------------------------------------------------------------------------------
 * Names and request bodies (formerly known product bugs, fixed: plain tests now)
 * ---------------------------------------------------------------------------------------------- */

describe('names with control or bidi-override characters are refused', () => {
  const NAME_MESSAGE = 'Name cannot contain control characters (such as a line break) or text-direction marks: remove them';
  const NAMES = [
    ['NUL', 'Ada\u0000Lovelace'],
    ['an ANSI escape sequence', 'Ada \u001b[31mLovelace'],
    ['a right-to-left override', 'Ada \u202eecalevoL'],
    ['CRLF', 'Ada\r\nX-Injected: 1'],
  ];

  it.each(NAMES)('register refuses a name with %s (400, nothing created)', async (_label, name) => {
    const response = await refused(
      () =>
        people.anon.agent
          .post('/api/auth/register')
          .set('x-csrf-token', people.anon.token)
          .send({ name, email: fresh('ctrl'), password: PASSWORD }),
      400,
    );
    expect(response.body.fields).toEqual({ name: [NAME_MESSAGE] });
  });

  it.each(NAMES)('PATCH /api/profile refuses a name with %s (400, nothing changed)', async (_label, name) => {
    const response = await refused(
      () => people.member.agent.patch('/api/profile').set('x-csrf-token', people.member.token).send({ name }),
      400,
    );
    expect(response.body.fields).toEqual({ name: [NAME_MESSAGE] });
  });

  it('a name with accents, another script and an emoji joined by a zero-width joiner is kept as typed, trimmed', async () => {
    const name = 'Zoë محمد 👩\u200d💻';
    const response = await people.member.agent
      .patch('/api/profile')
      .set('x-csrf-token', people.member.token)
      .send({ name: `  ${name}\u00a0` })
      .expect(200);
    expect(response.body.name).toBe(name);
  });
});

describe('malformed request bodies', () => {
  it('invalid JSON is answered with the generic "Malformed request body", not the parser\'s message echoing the body', async () => {
    const response = await refused(
      () =>
        people.anon.agent
          .post('/api/auth/login')
          .set('x-csrf-token', people.anon.token)
          .set('content-type', 'application/json')
          .send('{"password":"hunter2-secret" x}'),
      400,
    );
    expect(response.body.message).toBe('Malformed request body');
    expect(response.text).not.toMatch(/hunter2|position|JSON/);
  });

  it('text/plain on a JSON endpoint is 415 "Unsupported content type", even when the text is valid JSON', async () => {
    const response = await refused(
      () =>
        people.anon.agent
          .post('/api/auth/forgot-password')
          .set('x-csrf-token', people.anon.token)
          .set('content-type', 'text/plain')
          .send(JSON.stringify({ email: 'user@example.test' })),
      415,
    );
    expect(response.body).toEqual({ statusCode: 415, error: 'Unsupported Media Type', message: 'Unsupported content type' });
  });

  /** Sends the head of a request and the first bytes of its body, never the rest; resolves with what the server answers. */
  async function answerToUnfinishedBody(path: string, contentType: string, contentLength: number): Promise<string> {
    const http = server();
    if (!http.listening) await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const socket = connect((http.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(
      [
        `POST ${path} HTTP/1.1`,
        'Host: hitscope.test',
        `Content-Type: ${contentType}`,
        `Content-Length: ${contentLength}`,
        '',
        '{"email":',
      ].join('\r\n'),
    );
    // The server closes the connection after its answer; had it waited for the body, this would never end.
    await new Promise<void>((resolve, reject) => socket.once('end', resolve).once('error', reject));
    socket.destroy();
    return Buffer.concat(chunks).toString();
  }

  it('a Content-Length over the limit is answered 413 at once, without waiting for the body', async () => {
    const answer = await answerToUnfinishedBody('/api/auth/login', 'application/json', 50 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toMatch(/^connection: close\r$/im);
    expect(answer).toContain('{"statusCode":413,"error":"Payload Too Large","message":"Request body is too large"}');
  });

  it('an avatar upload declaring more than the avatar limit is answered 413 at once too (its own limit, above the JSON one)', async () => {
    const answer = await answerToUnfinishedBody('/api/profile/avatar', 'multipart/form-data; boundary=x', 3 * 1024 * 1024);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
  });
});

/* ------------------------------------------------------------------------------------------------
 * The release upload: multipart, streamed to storage (not in the JSON table above)
 * ---------------------------------------------------------------------------------------------- */

describe('the release upload refuses hostile input and keeps nothing', () => {
  const fields = (overrides: Record<string, string> = {}) => ({
    product: APPS,
    platform: 'windows',
    arch: 'x64',
    channel: 'stable',
    version: '9.9.9',
    size: '32',
    ...overrides,
  });
  const send = (values: Record<string, string>, filename = 'hitscope.zip', file = Buffer.alloc(32, 7)) => {
    let req = people.admin.agent.post('/api/admin/releases').set('x-csrf-token', people.admin.token);
    for (const [name, value] of Object.entries(values)) req = req.field(name, value);
    return req.attach('file', file, filename);
  };

  it.each([
    ['an operator as a field name', { 'product[$ne]': 'x' }, 'product[$ne]'],
    ['__proto__ as a field name', { __proto__x: 'x' }, '__proto__x'],
    ['a NUL in the version', { version: '1.0.0\u0000' }, 'version'],
    ['a path as the version', { version: '../../../etc/passwd' }, 'version'],
    ['a path as the product', { product: '../../etc/passwd' }, 'product'],
    ['a path as the platform', { platform: '..%2F..%2Fetc' }, 'platform'],
    ['a negative size', { size: '-32' }, 'size'],
    ['a size in exponent notation', { size: '3.2e1' }, 'size'],
  ] as const)('%s: 400 naming the field', async (_label, overrides, field) => {
    const response = await refused(() => send(fields(overrides)), 400);
    expect(Object.keys(response.body.fields ?? {})).toContain(field);
  });

  it('a size over 512 MiB: 413', async () => {
    await refused(() => send(fields({ size: String(512 * 1024 * 1024 + 1) })), 413);
  });

  it('a JSON body: 400; text/plain: 415; no file: 400; two files: 400', async () => {
    await refused(() => people.admin.agent.post('/api/admin/releases').set('x-csrf-token', people.admin.token).send(fields()), 400);
    await refused(
      () =>
        people.admin.agent.post('/api/admin/releases').set('x-csrf-token', people.admin.token).set('content-type', 'text/plain').send('x'),
      415,
    );
    let noFile = people.admin.agent.post('/api/admin/releases').set('x-csrf-token', people.admin.token);
    for (const [name, value] of Object.entries(fields())) noFile = noFile.field(name, value);
    await refused(() => noFile, 400);
    await refused(() => send(fields()).attach('file', Buffer.alloc(32, 8), 'second.zip'), 400);
  });

  it('a Content-Length over the upload limit is answered 413 at once, without reading the body', async () => {
    const http = server();
    if (!http.listening) await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    const socket = connect((http.address() as AddressInfo).port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.write(
      [
        'POST /api/admin/releases HTTP/1.1',
        'Host: hitscope.test',
        'Content-Type: multipart/form-data; boundary=x',
        `Content-Length: ${600 * 1024 * 1024}`,
        '',
        '--x',
      ].join('\r\n'),
    );
    await new Promise<void>((resolve, reject) => socket.once('end', resolve).once('error', reject));
    socket.destroy();
    expect(Buffer.concat(chunks).toString()).toMatch(/^HTTP\/1\.1 413 /);
  });
});
