import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  BadRequestException,
  type INestApplication,
  PayloadTooLargeException,
  RequestMethod,
  SetMetadata,
  type PipeTransform,
  type Type,
} from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  INTERCEPTORS_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  PIPES_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import type { CorsOptions, CorsOptionsDelegate } from '@nestjs/common/interfaces/external/cors-options.interface.js';
import { ModulesContainer } from '@nestjs/core';
import type { Application, Request, RequestHandler, Response } from 'express';
import { isReservedPath } from '../../lib/routes/reserved-paths.js';
import { IS_PUBLIC_KEY } from '../auth/decorators/public.decorator.js';
import { READS_SESSION_KEY } from '../auth/decorators/optional-session.decorator.js';
import { ROLES_KEY } from '../auth/decorators/roles.decorator.js';
import { SKIP_CSRF_KEY } from '../auth/decorators/skip-csrf.decorator.js';
import { RATE_LIMIT_KEY, type RateLimitPolicy } from '../rate-limit/rate-limit.decorator.js';
import { RateLimitGuard } from '../rate-limit/rate-limit.guard.js';
import { findForbiddenKey, rejectOperatorKeys } from '../common/reject-operator-keys.middleware.js';
import { endJson } from '../common/json-response.js';
import { hasBody, mediaType } from '../common/request-body.middleware.js';
import { type ErrorResponder, requestDeadline, type RequestDeadlineOptions } from '../common/request-deadline.middleware.js';
import { pathOf, requestView } from '../common/request-view.js';

export const FAST_LANE_KEY = 'hitscope:fastLane';

export interface FastLaneOptions {
  /**
   * A handler that takes its body as bytes (`@RawBody()`, the Stripe webhook's signed body): the
   * most it reads, as its raw parser in the full pipeline (installRequestHandling) allows.
   */
  rawBodyLimitBytes?: number;
}

/**
 * Answers the handler before Express and Nest's per-request machinery (FastLaneRouter below). Only for a
 * public handler that reads no cookie: no session, no CSRF token, no role, at most a rate limit,
 * and only `@Body()` (or `@RawBody()`), `@Ip()` and `@Headers('name')` parameters. `fastLaneRoutes`
 * refuses at start-up anything else.
 */
export const FastLane = (options: FastLaneOptions = {}) => SetMetadata(FAST_LANE_KEY, options);

type Argument =
  { kind: 'body'; metatype: Type<unknown> | undefined } | { kind: 'rawBody' } | { kind: 'ip' } | { kind: 'header'; name: string };

export interface FastLaneRoute {
  /** `VERB /path`, for messages. */
  name: string;
  method: 'GET' | 'POST';
  path: string;
  call: (args: unknown[]) => unknown;
  args: Argument[];
  status: number;
  headers: Array<[string, string]>;
  rateLimit: RateLimitPolicy | undefined;
  /** Set for a handler of the raw body: the bytes are read up to this, never parsed as JSON. */
  rawBodyLimitBytes: number | null;
}

const PARAMETER_KINDS: Partial<Record<RouteParamtypes, Argument['kind']>> = {
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.RAW_BODY]: 'rawBody',
  [RouteParamtypes.IP]: 'ip',
  [RouteParamtypes.HEADERS]: 'header',
};

/**
 * Every handler marked `@FastLane()` in the application, checked: a handler the lane cannot answer
 * exactly as Nest would (a guard other than the rate limit, a role, a session, an interceptor, a
 * parameter other than the body and the address, a path parameter) stops the start with the reason.
 */
export function fastLaneRoutes(app: Pick<INestApplication, 'get'>): FastLaneRoute[] {
  const routes: FastLaneRoute[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type<unknown> | null;
      if (!controller || !wrapper.instance) continue;
      const instance = wrapper.instance as Record<string, (...args: unknown[]) => unknown>;
      for (const name of Object.getOwnPropertyNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, unknown>)[name];
        if (typeof handler !== 'function' || typeof Reflect.getMetadata(FAST_LANE_KEY, handler) !== 'object') continue;
        routes.push(describe(controller, name, handler as (...args: unknown[]) => unknown, instance));
      }
    }
  }
  return routes;
}

function describe(
  controller: Type<unknown>,
  name: string,
  handler: (...args: unknown[]) => unknown,
  instance: Record<string, (...args: unknown[]) => unknown>,
): FastLaneRoute {
  const verb = RequestMethod[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
  const path = `/${[Reflect.getMetadata(PATH_METADATA, controller) as string, Reflect.getMetadata(PATH_METADATA, handler) as string]
    .map((part) => (part ?? '').replace(/^\/+|\/+$/g, ''))
    .filter(Boolean)
    .join('/')}`;
  const label = `${verb} ${path} (${controller.name}.${name})`;
  const refuse = (reason: string): never => {
    throw new Error(`@FastLane() on ${label}: ${reason}`);
  };
  if (verb !== 'GET' && verb !== 'POST') refuse('only GET and POST handlers are answered in the fast lane');
  if (/[:*{]/.test(path)) refuse('a path with parameters is not answered in the fast lane');
  if (!isReservedPath(path)) refuse('only paths that are never a page (lib/routes/reserved-paths.ts) are answered in the fast lane');
  const meta = (key: string) => Reflect.getMetadata(key, handler) ?? Reflect.getMetadata(key, controller);
  if (meta(IS_PUBLIC_KEY) !== true) refuse('it must be @Public(): the fast lane reads no session');
  if (meta(READS_SESSION_KEY) === true) refuse('it reads the session, which the fast lane does not');
  if ((meta(ROLES_KEY) as string[] | undefined)?.length) refuse('it has roles: the fast lane reads no session');
  if (verb !== 'GET' && meta(SKIP_CSRF_KEY) !== true) refuse('a write must be @SkipCsrf(): the fast lane checks no CSRF token');
  const guards = (meta(GUARDS_METADATA) as unknown[] | undefined) ?? [];
  if (guards.some((guard) => guard !== RateLimitGuard)) refuse('its only guard may be the rate limit');
  for (const key of [INTERCEPTORS_METADATA, PIPES_METADATA, EXCEPTION_FILTERS_METADATA]) {
    if ((meta(key) as unknown[] | undefined)?.length) refuse(`it has its own ${key.replace(/_/g, '')}, which the fast lane does not run`);
  }
  const rateLimit = meta(RATE_LIMIT_KEY) as RateLimitPolicy | undefined;
  if (rateLimit?.rules.some((rule) => rule.scope === 'user')) refuse('a per-user rate limit needs the session');

  const declared = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<string, { index: number; data?: unknown }>;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, name) ?? []) as Array<Type<unknown> | undefined>;
  const args: Argument[] = [];
  for (const [key, { index, data }] of Object.entries(declared)) {
    const kind = PARAMETER_KINDS[Number(key.split(':')[0]) as RouteParamtypes];
    if (!kind || key.split(':').length !== 2) refuse(`parameter ${index} is neither @Body(), @RawBody(), @Ip() nor @Headers('name')`);
    if (kind === 'header') {
      if (typeof data !== 'string' || !data) refuse(`parameter ${index} takes every header: name the one it reads (@Headers('name'))`);
      args[index] = { kind, name: (data as string).toLowerCase() };
      continue;
    }
    if (data !== undefined) refuse(`parameter ${index} names a property (@Body('…')): take the whole body`);
    args[index] = kind === 'body' ? { kind, metatype: types[index] } : { kind: kind as 'ip' | 'rawBody' };
  }
  if (args.length !== handler.length || args.some((arg) => !arg))
    refuse("every parameter must be @Body(), @RawBody(), @Ip() or @Headers('name')");
  const { rawBodyLimitBytes } = meta(FAST_LANE_KEY) as FastLaneOptions;
  const raw = args.some((arg) => arg.kind === 'rawBody');
  if (raw && args.some((arg) => arg.kind === 'body')) refuse('it takes the body both parsed and raw');
  if (raw !== (rawBodyLimitBytes !== undefined))
    refuse('a handler of the raw body, and only one, says how much it reads: @FastLane({ rawBodyLimitBytes })');

  const code = Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined;
  const headers = ((Reflect.getMetadata(HEADERS_METADATA, handler) ?? []) as Array<{ name: string; value: string }>).map(
    ({ name: header, value }): [string, string] => [header, value],
  );
  return {
    name: label,
    method: verb as 'GET' | 'POST',
    path,
    call: (values) => instance[name](...values),
    args,
    status: code ?? (verb === 'POST' ? 201 : 200),
    headers,
    rateLimit,
    rawBodyLimitBytes: rawBodyLimitBytes ?? null,
  };
}

export interface FastLaneRouterOptions {
  routes: readonly FastLaneRoute[];
  /** The Express application: its request getters (through a view) and, for an error answer, its response methods. */
  express: Application & { request: object; response: object };
  /** The one error responder (AllExceptionsFilter.respond). */
  respond: ErrorResponder;
  /** The global validation pipe. */
  pipe: PipeTransform;
  limits: RateLimitGuard;
  /** The security headers of a path: the machine API's set, or the reserved paths' one. */
  securityHeaders: (path: string) => ReadonlyArray<[string, string]>;
  /** The same delegate `app.enableCors()` is given. */
  cors: CorsOptionsDelegate<Request>;
  /** The request deadline (REQUEST_TIMEOUT_MS), answered 503 like every other request's. */
  deadlineMs: number;
  /** Ends a request in flight at once (the database going down), as the full pipeline's deadline does. */
  breaksWhen?: RequestDeadlineOptions['breaksWhen'];
  bodyLimitBytes: number;
}

/**
 * Answers a few hot, public, cookie-less handlers (the licensing API the apps call, the liveness
 * probe) from the HTTP server's `request` event, before Express routes the request through its
 * middleware stack and Nest through its guards, which cost about twice the handler itself (see
 * docs/performance.md). It keeps every rule of the full pipeline those handlers are subject to,
 * in the same order: CORS, the security headers, the request deadline, the body's size, type and
 * syntax, operator keys, the rate limit, the route's status and headers, the global validation pipe,
 * the one error responder. Whatever it is not sure to answer exactly as the full pipeline would
 * (another method or spelling of the path, a preflight, a compressed body, a charset other than
 * UTF-8, a body declared over the limit) it leaves to Express, which answers as before.
 */
export class FastLaneRouter {
  private readonly routes: Map<string, FastLaneRoute>;
  private readonly deadline: RequestHandler;

  constructor(private readonly options: FastLaneRouterOptions) {
    this.deadline = requestDeadline(options.deadlineMs, () => (exception, request, response) => this.fail(exception, request, response), {
      breaksWhen: options.breaksWhen,
    });
    this.routes = new Map(options.routes.map((route) => [`${route.method} ${route.path}`, route]));
    for (const route of options.routes) if (route.method === 'GET') this.routes.set(`HEAD ${route.path}`, route);
  }

  get size(): number {
    return this.options.routes.length;
  }

  /** Answers `request` when it is one of the lane's; false leaves it to Express. */
  answer(request: IncomingMessage, response: ServerResponse): boolean {
    const route = this.routes.get(`${request.method} ${pathOf(request.url ?? '')}`);
    if (!route || !this.acceptsBody(request, route)) return false;
    void this.dispatch(route, request, response);
    return true;
  }

  /** The bodies the lane reads exactly as the JSON parser would; anything else goes to Express. */
  private acceptsBody(request: IncomingMessage, route: FastLaneRoute): boolean {
    if (!hasBody(request)) return true;
    if (request.method === 'GET' || request.method === 'HEAD') return false;
    const { headers } = request;
    const declared = Number(headers['content-length']);
    if (Number.isFinite(declared) && declared > (route.rawBodyLimitBytes ?? this.options.bodyLimitBytes)) return false;
    const encoding = headers['content-encoding'];
    if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') return false;
    const type = headers['content-type'] ?? '';
    if (mediaType(request as Request) !== 'application/json') return false;
    const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1]?.toLowerCase();
    return charset === undefined || charset === 'utf-8';
  }

  private async dispatch(route: FastLaneRoute, incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    // Express gives every request and response its own prototypes (`app.handle` in express/lib/application.js);
    // an object whose prototype changed is slower for Node to read and write. The lane keeps Node's
    // and reads Express's getters (`ip` with the trust-proxy setting, `query`, `path`) through a view
    // of the request; only an error answer gives the response Express's prototype (`fail`).
    const request = requestView(incoming, this.options.express.request);
    (response as ServerResponse & { locals: object }).locals = {};
    try {
      this.corsHeaders(request, response);
      for (const [name, value] of this.options.securityHeaders(route.path)) response.setHeader(name, value);
      this.deadline(request, response as Response, () => undefined);
      const bytes = await this.readBytes(incoming, response, route.rawBodyLimitBytes ?? this.options.bodyLimitBytes);
      // A raw body is the handler's to read (as the full pipeline's raw parser leaves `body` empty).
      request.body = route.rawBodyLimitBytes === null ? parseJson(bytes) : {};
      if (findForbiddenKey(request.body) ?? (request.url.includes('?') ? findForbiddenKey(request.query) : null)) {
        rejectOperatorKeys(request, this.expressResponse(request, response), () => undefined);
        return;
      }
      if (route.rateLimit) await this.options.limits.count(route.rateLimit, request);
      response.statusCode = route.status;
      for (const [name, value] of route.headers) response.setHeader(name, value);
      const args: unknown[] = [];
      for (const arg of route.args) {
        if (arg.kind === 'ip') args.push(request.ip);
        else if (arg.kind === 'rawBody') args.push(bytes ?? Buffer.alloc(0));
        else if (arg.kind === 'header') args.push(incoming.headers[arg.name]);
        else args.push(await this.options.pipe.transform(request.body, { type: 'body', metatype: arg.metatype }));
      }
      const result = await route.call(args);
      if (response.headersSent) return;
      endJson(response, result, request.method === 'HEAD');
    } catch (error) {
      await this.fail(error, request, response);
    }
  }

  /** Answers `exception` through the one error responder, which writes with Express's response. */
  private fail(exception: unknown, request: Request, response: ServerResponse): Promise<void> | void {
    return this.options.respond(exception, request, this.expressResponse(request, response));
  }

  private expressResponse(request: Request, response: ServerResponse): Response {
    const express = Object.setPrototypeOf(response, this.options.express.response) as Response;
    (request as { res: Response }).res = express;
    (express as { req: Request }).req = request;
    return express;
  }

  /** The CORS headers of an actual (not preflight) request, as the `cors` middleware writes them. */
  private corsHeaders(request: Request, response: ServerResponse): void {
    this.options.cors(request, (error, options) => {
      if (error || !options) return;
      const { origin, credentials, exposedHeaders } = options as CorsOptions;
      if (typeof origin !== 'string') return;
      response.setHeader('Access-Control-Allow-Origin', origin);
      response.setHeader('Vary', 'Origin');
      if (credentials === true) response.setHeader('Access-Control-Allow-Credentials', 'true');
      const exposed = Array.isArray(exposedHeaders) ? exposedHeaders.join(',') : exposedHeaders;
      if (exposed) response.setHeader('Access-Control-Expose-Headers', exposed);
    });
  }

  /** The body's bytes, read up to `limit` (413 past it): undefined without a body. */
  private readBytes(request: IncomingMessage, response: ServerResponse, limit: number): Promise<Buffer | undefined> {
    if (!hasBody(request)) return Promise.resolve(undefined);
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let length = 0;
      const fail = (error: Error) => {
        request.removeAllListeners('data');
        reject(error);
      };
      request.on('data', (chunk: Buffer) => {
        length += chunk.length;
        if (length > limit) {
          response.setHeader('Connection', 'close');
          fail(new PayloadTooLargeException());
          return;
        }
        chunks.push(chunk);
      });
      request.on('error', fail);
      // A client gone before the end of its body: nobody is left to answer, but the call settles.
      request.on('close', () => {
        if (!request.complete) fail(new BadRequestException('The request ended before its body'));
      });
      request.on('end', () => {
        if (length > limit) return;
        resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, length));
      });
    });
  }
}

/**
 * The JSON body: undefined without one, `{}` for an empty one (as the JSON parser answers), 400
 * "Malformed request body" unless it is an object or an array.
 */
function parseJson(bytes: Buffer | undefined): unknown {
  if (bytes === undefined) return undefined;
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.length === 0) return {};
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') throw malformed();
  try {
    return JSON.parse(text);
  } catch {
    throw malformed();
  }
}

const malformed = () => new BadRequestException('Malformed request body');
