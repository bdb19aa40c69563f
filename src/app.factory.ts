import { Logger } from '@nestjs/common';
import { getConnectionToken } from '@nestjs/mongoose';
import type { Connection } from 'mongoose';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import express, { type NextFunction, type Request, type Response } from 'express';
import { AVATAR_MAX_BYTES } from '../lib/api/profile.js';
import { SPONSOR_LOGO_MAX_BYTES } from '../lib/api/site-settings.js';
import { RELEASE_MAX_BYTES } from '../lib/api/releases.js';
import { analyticsCollector } from './analytics/collector.js';
import { lazyCookies } from './common/lazy-cookies.js';
import { browserSecurityHeaders, reservedPathHeaders } from './common/security-headers.js';
import { AppModule } from './app.module.js';
import { AllExceptionsFilter } from './common/all-exceptions.filter.js';
import { answerBeforeTheFramework, type EarlyAnswer } from './common/before-the-framework.js';
import { FastLaneRouter, fastLaneRoutes } from './fast-lane/fast-lane.js';
import { createAppLogger } from './common/app-logger.js';
import { ERROR_PAGE_RENDERER, type ErrorPageRenderer } from './common/error-page-renderer.js';
import { exceptMachineApi, isMachinePath, machineApiHeaderList, machineApiHeaders } from './common/machine-api.middleware.js';
import { serveClientFiles } from './common/precompressed-static.js';
import { rejectOperatorKeys } from './common/reject-operator-keys.middleware.js';
import { checkRequestBody, type UploadRoute } from './common/request-body.middleware.js';
import { type ErrorResponder, requestDeadline, type RequestDeadlineOptions } from './common/request-deadline.middleware.js';
import { DatabaseAvailability, DatabaseUnavailableError } from './database/database-availability.js';
import { responseCompression } from './common/response-compression.js';
import { stopAcceptingRequests } from './common/stop-accepting.js';
import { createValidationPipe } from './common/validation.js';
import { RateLimitGuard } from './rate-limit/rate-limit.guard.js';
import type { AppConfig } from './config/app-config.js';
import { resolveDatabase } from './database/database-uri.js';
import type { EmbeddedDatabase } from './database/embedded-database.js';
import { STRIPE_WEBHOOK_LIMIT_BYTES, STRIPE_WEBHOOK_PATH } from './common/stripe-webhook-route.js';
import { licensingCors } from './licences/licensing-cors.js';
import { PageCache } from './ssr/page-cache.js';
import type { PageRenderer } from './ssr/page-renderer.js';
import { CLIENT_DIST_DIR, createProductionRenderer } from './ssr/production-renderer.js';
import { createViteDevRenderer } from './ssr/vite-dev-renderer.js';

export { STRIPE_WEBHOOK_PATH } from './common/stripe-webhook-route.js';

/** The largest JSON body any endpoint reads (100 KiB). */
export const BODY_LIMIT_BYTES = 100 * 1024;

/** Routes that read a file rather than JSON: their media type and limit (the file plus the multipart envelope). */
const UPLOAD_ROUTES: readonly UploadRoute[] = [
  { method: 'PUT', path: '/api/profile/avatar', types: ['multipart/form-data'], limitBytes: AVATAR_MAX_BYTES + 16 * 1024 },
  {
    method: 'POST',
    path: '/api/admin/site-settings/sponsor-logos',
    types: ['multipart/form-data'],
    limitBytes: SPONSOR_LOGO_MAX_BYTES + 16 * 1024,
  },
  // Stripe's events are JSON, read raw (the signature covers the exact bytes); a large invoice can pass 100 KiB.
  { method: 'POST', path: STRIPE_WEBHOOK_PATH, types: [], limitBytes: STRIPE_WEBHOOK_LIMIT_BYTES },
  // RFC 8058: the mailbox provider POSTs `List-Unsubscribe=One-Click` as a form; the token is in the
  // URL, so the body is accepted and never read.
  {
    method: 'POST',
    path: '/api/newsletter/unsubscribe',
    types: ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'],
    limitBytes: 4 * 1024,
  },
  // A build streams to storage as it arrives (src/releases/release-upload.ts): its own deadline, an hour.
  {
    method: 'POST',
    path: '/api/admin/releases',
    types: ['multipart/form-data'],
    limitBytes: RELEASE_MAX_BYTES + 128 * 1024,
    timeoutMs: 60 * 60 * 1000,
  },
];

export interface RunningApp {
  app: NestExpressApplication;
  mongodbUri: string;
  embeddedDatabase: EmbeddedDatabase | null;
  close(): Promise<void>;
}

export interface CreateAppOptions {
  /** Wraps the page renderer (tests use it to simulate render failures). */
  decorateRenderer?: (renderer: PageRenderer) => PageRenderer;
}

/**
 * What every request goes through after the static files: the deadline, the body's size and type, cookies, body parsing,
 * operator-key rejection, validation and the one exception filter. Shared with the test suites
 * that assemble an app around a replaced provider, so they answer exactly as production does.
 * Answers that filter's responder, for what is answered before Express (the fast lane).
 */
/**
 * The breaker of the app's database connection (database/database-availability.ts), to end requests
 * in flight when the database goes down; none when the app has no database connection.
 */
function databaseBreaker(app: NestExpressApplication): RequestDeadlineOptions['breaksWhen'] {
  let connection: Connection;
  try {
    connection = app.get<Connection>(getConnectionToken(), { strict: false });
  } catch {
    return undefined;
  }
  const availability = DatabaseAvailability.watch(connection);
  return (fail) => availability.onDown(() => fail(new DatabaseUnavailableError()));
}

export function installRequestHandling(app: NestExpressApplication, config: AppConfig): ErrorResponder {
  const filter = new AllExceptionsFilter(app.get<ErrorPageRenderer>(ERROR_PAGE_RENDERER));
  const uploadDeadlines = new Map(
    UPLOAD_ROUTES.filter((route) => route.timeoutMs).map((route) => [`${route.method} ${route.path}`, route.timeoutMs!]),
  );
  app.use(
    requestDeadline(
      (request) => uploadDeadlines.get(`${request.method} ${request.path}`) ?? config.requestTimeoutMs,
      () => filter.respond.bind(filter),
      { breaksWhen: databaseBreaker(app) },
    ),
  );
  app.use(checkRequestBody({ jsonLimitBytes: BODY_LIMIT_BYTES, uploads: UPLOAD_ROUTES }, () => filter.respond.bind(filter)));
  // The machine API reads no cookie (its credential is the licence key in the body), so it parses none.
  app.use(exceptMachineApi(lazyCookies));
  // Stripe signs the exact bytes it sends: the webhook's body is kept raw (on `rawBody`) and never
  // parsed as JSON here. body-parser skips a request whose body was read, so the JSON parser below
  // leaves it alone; `body` stays empty for the middleware that follows.
  app.use(
    STRIPE_WEBHOOK_PATH,
    express.raw({ type: () => true, limit: STRIPE_WEBHOOK_LIMIT_BYTES }),
    (request: Request, _response: Response, next: NextFunction) => {
      (request as Request & { rawBody?: Buffer }).rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      request.body = {};
      next();
    },
  );
  app.useBodyParser('json', { limit: BODY_LIMIT_BYTES });
  app.use(rejectOperatorKeys);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(filter);
  return (exception, request, response) => filter.respond(exception, request, response);
}

/** The fast lane over the handlers marked `@FastLane()`, with the same rules as the pipeline above. */
function createFastLane(app: NestExpressApplication, config: AppConfig, respond: ErrorResponder): FastLaneRouter {
  const https = config.publicUrl.startsWith('https:');
  const machine = machineApiHeaderList({ https });
  const reserved = reservedPathHeaders({ dev: config.nodeEnv === 'development', https });
  return new FastLaneRouter({
    routes: fastLaneRoutes(app),
    express: app.getHttpAdapter().getInstance(),
    respond,
    pipe: createValidationPipe(),
    limits: app.get(RateLimitGuard),
    securityHeaders: (path) => (isMachinePath(path) ? machine : reserved),
    cors: licensingCors(config),
    deadlineMs: config.requestTimeoutMs,
    breaksWhen: databaseBreaker(app),
    bodyLimitBytes: BODY_LIMIT_BYTES,
  });
}

/** Builds the whole application: database, Nest, security middleware, page rendering. */
export async function createApp(config: AppConfig, options: CreateAppOptions = {}): Promise<RunningApp> {
  // Set before anything logs, so the lines written while the database starts honour LOG_LEVEL too.
  const appLogger = createAppLogger(config.logLevel);
  Logger.overrideLogger(appLogger);
  const logger = new Logger('Bootstrap');
  const { uri: mongodbUri, embedded: embeddedDatabase } = await resolveDatabase(config, (message) => logger.log(message));

  let renderer: PageRenderer | null = null;
  try {
    const dev = config.nodeEnv === 'development';
    const decorate = options.decorateRenderer ?? ((plain: PageRenderer) => plain);
    if (!dev) renderer = decorate(await createProductionRenderer());
    const lazyRenderer: PageRenderer = {
      get mode() {
        return renderer!.mode;
      },
      entry: () => renderer!.entry(),
      template: (url) => renderer!.template(url),
      preloadLinks: (modules) => renderer!.preloadLinks(modules),
      buildManifest: () => renderer!.buildManifest(),
      close: () => renderer?.close() ?? Promise.resolve(),
    };

    const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot({ config, mongodbUri, renderer: lazyRenderer }), {
      bodyParser: false,
      logger: appLogger,
    });

    // Order matters: everything registered here runs before Nest's routes, in this order.
    app.set('trust proxy', config.trustProxy);
    app.disable('x-powered-by');
    // No automatic ETag (a SHA-1 of every JSON answer): answers are per person and mostly no-store,
    // pages carry a nonce of their own; what benefits from validators (files, avatars) sets its own.
    app.set('etag', false);
    // CORS headers for the licensing API only (the browser extension); every other path gets none.
    app.enableCors(licensingCors(config));
    // Pages and the browser-facing API get the nonce, helmet's headers and compression; the machine
    // API (/api/v1/, the apps' calls) a fixed, cheaper set (machine-api.middleware.ts).
    app.use(machineApiHeaders({ https: config.publicUrl.startsWith('https:') }));
    app.use(exceptMachineApi(browserSecurityHeaders({ dev, https: config.publicUrl.startsWith('https:') })));
    if (config.compression) app.use(exceptMachineApi(responseCompression()));

    if (dev) {
      const vite = await createViteDevRenderer(app.getHttpServer());
      renderer = decorate(vite.renderer);
      app.use(vite.middlewares);
    } else {
      // Hashed assets for a year, other files for an hour, precompressed siblings when accepted;
      // never the raw template, .vite/manifest.json or a dotfile (precompressed-static.ts).
      app.use(serveClientFiles(CLIENT_DIST_DIR));
    }

    const respond = installRequestHandling(app, config);
    await app.init();
    // Answered before Express and Nest, in this order: analytics events (src/analytics/collector.ts),
    // the fast lane's handlers (src/fast-lane/fast-lane.ts), anonymous pages already rendered
    // (src/ssr/page-cache.ts).
    const early: EarlyAnswer[] = [analyticsCollector(app)];
    const lane = createFastLane(app, config, respond);
    if (lane.size) early.push((request, response) => lane.answer(request, response));
    const pageCache = app.get(PageCache);
    if (pageCache.enabled) early.push((request, response) => pageCache.answer(request, response));
    answerBeforeTheFramework(app.getHttpServer(), early);

    let closed: Promise<void> | null = null;
    return {
      app,
      mongodbUri,
      embeddedDatabase,
      close() {
        closed ??= (async () => {
          await stopAcceptingRequests(app.getHttpServer());
          await app.close();
          await lazyRenderer.close();
          await embeddedDatabase?.stop();
        })();
        return closed;
      },
    };
  } catch (error) {
    await renderer?.close().catch(() => undefined);
    await embeddedDatabase?.stop();
    throw error;
  }
}
