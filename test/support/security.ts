import { createHmac, createSign, generateKeyPairSync } from 'node:crypto';
import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import type { Db } from 'mongodb';
import type { Response } from 'supertest';
import type { RunningApp } from '../../src/app.factory.js';
import { IS_PUBLIC_KEY } from '../../src/auth/decorators/public.decorator.js';
import { ROLES_KEY } from '../../src/auth/decorators/roles.decorator.js';

/* ------------------------------------------------------------------------------------------------
 * Route inventory from Nest metadata (the approach of route-inventory.e2e-spec.ts)
 * ---------------------------------------------------------------------------------------------- */

export interface Handler {
  /** `VERB /path` as Nest registers it, e.g. `PATCH /api/admin/users/:id/role`. */
  route: string;
  verb: string;
  path: string;
  isPublic: boolean;
  roles: string[] | undefined;
}

/** Every HTTP handler of the running app, with its access metadata. */
export function inventory(running: RunningApp): Handler[] {
  const handlers: Handler[] = [];
  for (const module of running.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (!controller) continue;
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
      // Walk the prototype chain too: a handler inherited from a base controller is still a handler.
      const seen = new Set<string>();
      for (
        let proto = controller.prototype as object | null;
        proto && proto !== Object.prototype;
        proto = Object.getPrototypeOf(proto) as object | null
      ) {
        for (const name of Object.getOwnPropertyNames(proto)) {
          if (name === 'constructor' || seen.has(name)) continue;
          seen.add(name);
          const method = (proto as Record<string, unknown>)[name];
          if (typeof method !== 'function') continue;
          const paths = Reflect.getMetadata(PATH_METADATA, method) as string | string[] | undefined;
          if (paths === undefined) continue;
          const verb = RequestMethod[Reflect.getMetadata(METHOD_METADATA, method) as number];
          const isPublic = Reflect.getMetadata(IS_PUBLIC_KEY, method) === true || Reflect.getMetadata(IS_PUBLIC_KEY, controller) === true;
          const roles = (Reflect.getMetadata(ROLES_KEY, method) ?? Reflect.getMetadata(ROLES_KEY, controller)) as string[] | undefined;
          const bases = Array.isArray(base) ? (base as string[]) : [base];
          for (const prefix of bases) {
            for (const path of Array.isArray(paths) ? paths : [paths]) {
              const full = `/${[prefix, path]
                .map((part) => part.replace(/^\/+|\/+$/g, ''))
                .filter(Boolean)
                .join('/')}`;
              handlers.push({ route: `${verb} ${full}`, verb, path: full, isPublic, roles });
            }
          }
        }
      }
    }
  }
  return handlers;
}

/** The routes Express actually serves (`GET /api/auth/me`), to cross-check the metadata walk. */
export function expressRoutes(running: RunningApp): string[] {
  const express = running.app.getHttpAdapter().getInstance() as { router?: { stack: unknown[] }; _router?: { stack: unknown[] } };
  const stack = (express.router ?? express._router)?.stack ?? [];
  const routes: string[] = [];
  for (const layer of stack as { route?: { path: string | string[]; methods: Record<string, boolean> } }[]) {
    if (!layer.route) continue;
    for (const method of Object.keys(layer.route.methods)) {
      for (const path of Array.isArray(layer.route.path) ? layer.route.path : [layer.route.path]) {
        routes.push(`${method === '_all' ? 'ALL' : method.toUpperCase()} ${path}`);
      }
    }
  }
  return routes;
}

/** The names of a path's parameters: `:id`, `*rest`, `{*rest}`, `{/:id}` (path-to-regexp 8 syntax). */
export function pathParams(path: string): string[] {
  return [...path.matchAll(/[:*]([A-Za-z_$][\w$]*|"[^"]*")/g)].map((match) => match[1].replace(/^"|"$/g, ''));
}

/**
 * Replaces every parameter with its value from `values`; throws when one cannot be filled, so a new
 * endpoint with a parameter nobody thought about fails loudly instead of being skipped.
 */
export function fillPath(path: string, values: Record<string, string>): string {
  const missing = pathParams(path).filter((name) => !(name in values));
  if (missing.length) throw new Error(`No test value for the path parameter(s) ${missing.join(', ')} of ${path}`);
  return path
    .replace(/\{([^{}]*)\}/g, '$1') // optional groups are filled, not dropped
    .replace(/[:*]([A-Za-z_$][\w$]*|"[^"]*")/g, (_, name: string) => encodeURIComponent(values[name.replace(/^"|"$/g, '')]));
}

/* ------------------------------------------------------------------------------------------------
 * The error shape (docs/errors.md) without internals
 * ---------------------------------------------------------------------------------------------- */

const STACK_TRACE = [/\n\s*at /, /\bat [^\s()]+ \(/, /node_modules/, /\.(ts|js|mjs):\d+(:\d+)?/, /\/(src|dist|srv|home|usr)\//];

/** Text that only a stack trace or an internal path would put into a response. */
export function leakedInternals(text: string): string | null {
  for (const pattern of STACK_TRACE) if (pattern.test(text)) return pattern.source;
  return null;
}

/** A describable summary of a response for failure messages. */
export const summary = (response: Response) =>
  `${response.status} ${response.headers['content-type'] ?? ''} ${response.text?.slice(0, 300) ?? ''}`;

/**
 * Asserts a clear JSON client error: the status (or any 4xx), `{ statusCode, error, message }` with
 * statusCode equal to the HTTP status, and no stack trace or internal path in the body.
 */
export function expectClientError(response: Response, status?: number | number[]): void {
  // superagent exposes the request on the response at run time; its typings do not declare it.
  const request = (response as Response & { req?: { method?: string; path?: string } }).req;
  const context = `${request?.method ?? ''} ${request?.path ?? ''} → ${summary(response)}`;
  const allowed = status === undefined ? null : Array.isArray(status) ? status : [status];
  if (allowed) {
    if (!allowed.includes(response.status)) throw new Error(`expected ${allowed.join(' or ')}, got ${context}`);
  } else if (response.status < 400 || response.status >= 500) {
    throw new Error(`expected a 4xx, got ${context}`);
  }
  if (!/^application\/json/.test(String(response.headers['content-type']))) throw new Error(`expected JSON, got ${context}`);
  const body = response.body as Record<string, unknown>;
  if (
    body.statusCode !== response.status ||
    typeof body.error !== 'string' ||
    !body.error ||
    typeof body.message !== 'string' ||
    !body.message
  ) {
    throw new Error(`expected { statusCode, error, message }, got ${context}`);
  }
  const leak = leakedInternals(response.text);
  if (leak) throw new Error(`the body leaks internals (${leak}): ${context}`);
}

/* ------------------------------------------------------------------------------------------------
 * Database state: what a refused request must leave untouched
 * ---------------------------------------------------------------------------------------------- */

const stable = (value: unknown): unknown =>
  JSON.parse(JSON.stringify(value, (_key, inner: unknown) => (inner instanceof Date ? inner.toISOString() : inner))) as unknown;

/**
 * Counts of users, sessions, route rules and licences (with their seats, devices and activation events), plus every
 * document of them (role, status, password hash, revocation, refresh hash, rules, licence state…),
 * and counts of what a write could have queued.
 */
export async function databaseState(db: Db) {
  const all = async (name: string) => stable(await db.collection(name).find({}).sort({ _id: 1 }).toArray()) as unknown[];
  const [
    users,
    sessions,
    routeRules,
    accountTokens,
    outbox,
    licences,
    licenceSeats,
    licenceActivations,
    licenceActivationEvents,
    plans,
    orders,
    releases,
    releaseFiles,
  ] = await Promise.all([
    all('users'),
    all('sessions'),
    all('route_rules'),
    db.collection('account_tokens').countDocuments(),
    db.collection('mail_outbox').countDocuments(),
    all('licences'),
    all('licence_seats'),
    all('licence_activations'),
    all('licence_activation_events'),
    all('plans'),
    all('orders'),
    all('releases'),
    db.collection('releases.files').countDocuments(),
  ]);
  return {
    counts: {
      users: users.length,
      sessions: sessions.length,
      route_rules: routeRules.length,
      account_tokens: accountTokens,
      mail_outbox: outbox,
      licences: licences.length,
      licence_seats: licenceSeats.length,
      licence_activations: licenceActivations.length,
      licence_activation_events: licenceActivationEvents.length,
      plans: plans.length,
      orders: orders.length,
      releases: releases.length,
      release_files: releaseFiles,
    },
    users,
    sessions,
    routeRules,
    licences,
    licenceSeats,
    licenceActivations,
    licenceActivationEvents,
    plans,
    orders,
    releases,
  };
}

/* ------------------------------------------------------------------------------------------------
 * Session tokens crafted by hand (node:crypto only)
 * ---------------------------------------------------------------------------------------------- */

const segment = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

export function decodeJwt(token: string): { header: Record<string, unknown>; payload: Record<string, unknown>; signature: string } {
  const [header, payload, signature] = token.split('.');
  return {
    header: JSON.parse(Buffer.from(header, 'base64url').toString()) as Record<string, unknown>,
    payload: JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>,
    signature,
  };
}

export function signHmac(payload: object, secret: string, alg: 'HS256' | 'HS384' | 'HS512' = 'HS256'): string {
  const data = `${segment({ alg, typ: 'JWT' })}.${segment(payload)}`;
  return `${data}.${createHmac(`sha${alg.slice(2)}`, secret)
    .update(data)
    .digest('base64url')}`;
}

/** RS256 with a key pair made for the occasion (the server knows nothing about it). */
export function signRs256(payload: object): string {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const data = `${segment({ alg: 'RS256', typ: 'JWT' })}.${segment(payload)}`;
  return `${data}.${createSign('RSA-SHA256').update(data).sign(privateKey).toString('base64url')}`;
}

export function unsigned(payload: object, alg = 'none'): string {
  return `${segment({ alg, typ: 'JWT' })}.${segment(payload)}.`;
}

/** The claims of a real token with someone else's payload glued in front of its signature. */
export function withPayload(token: string, payload: object): string {
  const [header, , signature] = token.split('.');
  return `${header}.${segment(payload)}.${signature}`;
}
