import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { createApp, type RunningApp } from '../../src/app.factory.js';
import { IS_PUBLIC_KEY } from '../../src/auth/decorators/public.decorator.js';
import { ROLES_KEY } from '../../src/auth/decorators/roles.decorator.js';
import { loadConfig } from '../../src/config/app-config.js';
import { testDatabaseUri } from '../support/test-database.js';

interface Handler {
  route: string;
  isPublic: boolean;
  roles: string[] | undefined;
}

/** Every HTTP handler of the running app, with its access metadata. */
function inventory(running: RunningApp): Handler[] {
  const handlers: Handler[] = [];
  for (const module of running.app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: unknown[]) => unknown) | null;
      if (!controller) continue;
      const base = (Reflect.getMetadata(PATH_METADATA, controller) as string | undefined) ?? '';
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const method = (controller.prototype as Record<string, unknown>)[name];
        if (name === 'constructor' || typeof method !== 'function') continue;
        const path = Reflect.getMetadata(PATH_METADATA, method) as string | undefined;
        if (path === undefined) continue;
        const verb = RequestMethod[Reflect.getMetadata(METHOD_METADATA, method) as number];
        handlers.push({
          route: `${verb} /${[base, path].filter((part) => part && part !== '/').join('/')}`,
          isPublic: Reflect.getMetadata(IS_PUBLIC_KEY, method) === true || Reflect.getMetadata(IS_PUBLIC_KEY, controller) === true,
          roles: (Reflect.getMetadata(ROLES_KEY, method) ?? Reflect.getMetadata(ROLES_KEY, controller)) as string[] | undefined,
        });
      }
    }
  }
  return handlers;
}

describe('route inventory (deny by default)', () => {
  let running: RunningApp;
  let handlers: Handler[];

  beforeAll(async () => {
    running = await createApp(loadConfig({ NODE_ENV: 'test', MONGODB_URI: testDatabaseUri('inventory'), LOG_LEVEL: 'error', PORT: '0' }));
    handlers = inventory(running);
  });
  afterAll(() => running?.close());

  it('finds the handlers', () => {
    expect(handlers.map((handler) => handler.route)).toEqual(
      expect.arrayContaining([
        'GET /api/auth/me',
        'POST /api/auth/login',
        'PUT /api/admin/route-rules',
        'GET /api/admin/overview',
        'GET /api/admin/overview/mrr',
        'GET /{*path}',
        'POST /api/admin/releases',
        'GET /api/admin/releases',
        'POST /api/admin/releases/:id/yank',
        'POST /api/admin/releases/:id/unyank',
        'GET /api/releases/latest',
        'GET /api/releases/:id/download',
        'GET /api/v1/releases/latest',
        'GET /api/v1/releases/:id/download',
      ]),
    );
  });

  it('marks every handler either @Public() or with the roles it allows', () => {
    const undecided = handlers.filter((handler) => !handler.isPublic && !handler.roles?.length).map((handler) => handler.route);
    expect(undecided).toEqual([]);
  });

  it('decides the releases routes as designed: admin uploads, public listings, downloads checked in the handler (free, licence or key)', () => {
    const access = (route: string) => {
      const handler = handlers.find((candidate) => candidate.route === route)!;
      return handler.isPublic ? 'public' : handler.roles!.join(',');
    };
    expect(
      Object.fromEntries(
        [
          'POST /api/admin/releases',
          'POST /api/admin/releases/:id/yank',
          'GET /api/releases/latest',
          'GET /api/releases/:id/download',
          'GET /api/v1/releases/latest',
          'GET /api/v1/releases/:id/download',
        ].map((route) => [route, access(route)]),
      ),
    ).toEqual({
      'POST /api/admin/releases': 'admin',
      'POST /api/admin/releases/:id/yank': 'admin',
      'GET /api/releases/latest': 'public',
      // @OptionalSession(): free downloads need nobody; the service answers 401/403 otherwise.
      'GET /api/releases/:id/download': 'public',
      'GET /api/v1/releases/latest': 'public',
      'GET /api/v1/releases/:id/download': 'public',
    });
  });

  it('decides the newsletter routes as designed: public sign-up, confirm and one-click unsubscribe (token-checked), admin list and CSV', () => {
    const access = (route: string) => {
      const handler = handlers.find((candidate) => candidate.route === route)!;
      return handler.isPublic ? 'public' : handler.roles!.join(',');
    };
    expect(
      Object.fromEntries(
        [
          'POST /api/newsletter/subscribe',
          'POST /api/newsletter/confirm',
          'GET /api/newsletter/unsubscribe',
          'POST /api/newsletter/unsubscribe',
          'GET /api/admin/newsletter/subscribers',
          'GET /api/admin/newsletter/subscribers.csv',
        ].map((route) => [route, access(route)]),
      ),
    ).toEqual({
      'POST /api/newsletter/subscribe': 'public',
      'POST /api/newsletter/confirm': 'public',
      'GET /api/newsletter/unsubscribe': 'public',
      // RFC 8058: the mailbox provider's POST carries no cookie; the signed token is the credential.
      'POST /api/newsletter/unsubscribe': 'public',
      'GET /api/admin/newsletter/subscribers': 'admin',
      'GET /api/admin/newsletter/subscribers.csv': 'admin',
    });
  });

  it('restricts every /api/admin handler to admins only', () => {
    const admin = handlers.filter((handler) => handler.route.includes(' /api/admin/'));
    expect(admin.length).toBeGreaterThan(0);
    for (const handler of admin)
      expect({ route: handler.route, isPublic: handler.isPublic, roles: handler.roles }).toEqual({
        route: handler.route,
        isPublic: false,
        roles: ['admin'],
      });
  });

  it('registers the page catch-all after every other GET route, so it never shadows one', () => {
    // Nest registers routes module by module; a controller in a module nested under another module
    // can land after SsrModule's `{*path}` and its GETs then answer "Cannot GET" (this happened).
    const router = (
      running.app.getHttpAdapter().getInstance() as {
        router: { stack: Array<{ route?: { path: string; methods: Record<string, boolean> } }> };
      }
    ).router;
    const gets = router.stack.filter((layer) => layer.route?.methods.get).map((layer) => layer.route!.path);
    expect(gets.length).toBeGreaterThan(10);
    expect(gets.indexOf('/{*path}')).toBe(gets.length - 1);
  });
});
