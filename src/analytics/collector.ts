import type { IncomingMessage, ServerResponse } from 'node:http';
import type { INestApplication } from '@nestjs/common';
import type { Request } from 'express';
import { BEACON_MAX_BYTES, type Beacon, type DropReason } from '../../lib/api/analytics.js';
import type { EarlyAnswer } from '../common/before-the-framework.js';
import { mediaType } from '../common/request-body.middleware.js';
import { endJson } from '../common/json-response.js';
import { pathOf, requestView } from '../common/request-view.js';
import { reasonPhrase } from '../common/error-response.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { AdminDetector } from './admin-detector.js';
import { AnalyticsIngestService, type CollectRequest } from './ingest.service.js';

/** The collector's path: short, same-origin, and not under /api/v1 (the machine API). */
export const COLLECTOR_PATH = '/api/e';
/** Events per IP address per minute (times RATE_LIMIT_MULTIPLIER); a person browsing sends a handful. */
export const COLLECTOR_EVENTS_PER_MINUTE = 120;
/** Addresses counted at once; beyond, the window starts over early (memory stays bounded). */
const MAX_RATE_SUBJECTS = 50_000;

const BEACON_KEYS = new Set(['p', 'r', 'w', 'wd', 'nf', 'us', 'um', 'uc']);
const HEADERS: Array<[string, string]> = [
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['X-Content-Type-Options', 'nosniff'],
  ['Cache-Control', 'no-store'],
];

/** The beacon, or a message saying why it is not one (the collector answers 400 with it). */
export function parseBeacon(text: string): Beacon | string {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'The body must be JSON';
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return 'The body must be a JSON object';
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record)) if (!BEACON_KEYS.has(key)) return `Unknown field ${key}`;
  const { p, r, w, wd, nf, us, um, uc } = record;
  if (typeof p !== 'string' || !p.startsWith('/') || p.startsWith('//') || p.length > 2000 || /[\s\p{Cc}]/u.test(p)) {
    return 'p must be a path starting with /';
  }
  if (r !== undefined && (typeof r !== 'string' || r.length > 2000)) return 'r must be a URL';
  if (w !== undefined && (typeof w !== 'number' || !Number.isInteger(w) || w < 0 || w > 100_000)) return 'w must be a width in pixels';
  if (wd !== undefined && typeof wd !== 'boolean') return 'wd must be a boolean';
  if (nf !== undefined && typeof nf !== 'boolean') return 'nf must be a boolean';
  for (const [name, value] of [
    ['us', us],
    ['um', um],
    ['uc', uc],
  ] as const) {
    if (value !== undefined && (typeof value !== 'string' || value.length > 2000)) return `${name} must be a string`;
  }
  return body as Beacon;
}

/** A CDN's country header (Cloudflare, Vercel, CloudFront, Fastly-style), if it names a country. */
function countryOf(request: Request): string | null {
  const raw =
    request.headers['cf-ipcountry'] ??
    request.headers['x-vercel-ip-country'] ??
    request.headers['cloudfront-viewer-country'] ??
    request.headers['x-country-code'];
  const code = typeof raw === 'string' ? raw.trim().toUpperCase() : '';
  return /^[A-Z]{2}$/.test(code) && code !== 'XX' && code !== 'T1' ? code : null;
}

/** Whether the request came from one of our own pages: `Origin` (sent by browsers on every POST) or fetch metadata. */
function sameOrigin(request: Request, publicOrigin: string): boolean {
  const origin = request.headers.origin;
  const site = request.headers['sec-fetch-site'];
  if (origin !== undefined) return origin === publicOrigin && (site === undefined || site === 'same-origin');
  return site === 'same-origin';
}

/** Reads at most `limit` bytes; null when the body is longer. */
function readBody(request: IncomingMessage, limit: number): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      request.resume();
      resolve(null);
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    request.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        request.removeAllListeners('data');
        request.resume();
        resolve(null);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => resolve(size > limit ? null : Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

/** A fixed one-minute window per address, in memory only (addresses never leave the process). */
class CollectorRateLimit {
  private window = 0;
  private readonly counts = new Map<string, number>();

  constructor(private readonly limit: number) {}

  allow(ip: string, now: number): boolean {
    const window = Math.floor(now / 60_000);
    if (window !== this.window || this.counts.size >= MAX_RATE_SUBJECTS) {
      this.window = window;
      this.counts.clear();
    }
    const count = (this.counts.get(ip) ?? 0) + 1;
    this.counts.set(ip, count);
    return count <= this.limit;
  }
}

function reply(response: ServerResponse, status: number, message?: string): void {
  for (const [name, value] of HEADERS) response.setHeader(name, value);
  response.statusCode = status;
  if (message === undefined) response.end();
  else endJson(response, { statusCode: status, error: reasonPhrase(status), message });
}

/** The collector's path as sent, without the query: `/api/e`, or `/api/e/`. */
function isCollectorPath(url: string): boolean {
  const path = pathOf(url);
  return path === COLLECTOR_PATH || path === `${COLLECTOR_PATH}/`;
}

/**
 * `POST /api/e`, answered from the HTTP server's request event ahead of Express, helmet, the CSP
 * nonce, compression, the cookie parser and Nest's routing (src/common/before-the-framework.ts):
 * none of them does anything for a bodiless 202, and Express's own per-request work would be most
 * of the cost of an event. It carries no credential and writes nothing but counters, so it needs
 * no CSRF token; it accepts `text/plain` (what `sendBeacon` sends without a preflight) and JSON.
 * Accepted and dropped events alike get 202 before any database work; a malformed one gets 400.
 */
export function analyticsCollector(app: INestApplication): EarlyAnswer {
  const config = app.get<AppConfig>(APP_CONFIG);
  const ingest = app.get(AnalyticsIngestService);
  const admins = app.get(AdminDetector);
  const limiter = new CollectorRateLimit(COLLECTOR_EVENTS_PER_MINUTE * config.rateLimitMultiplier);
  const publicOrigin = new URL(config.publicUrl).origin;
  // Express's request getters (`ip` with the TRUST_PROXY setting), read through a view (request-view.ts).
  const expressRequest = (app.getHttpAdapter().getInstance() as { request: object }).request;

  return (incoming: IncomingMessage, response: ServerResponse): boolean => {
    if (!isCollectorPath(incoming.url ?? '')) return false;
    if (incoming.method !== 'POST') {
      response.setHeader('Allow', 'POST');
      reply(response, 405, 'Use POST');
      return true;
    }
    const request = requestView(incoming, expressRequest);
    const type = mediaType(request);
    if (type !== 'text/plain' && type !== 'application/json') {
      reply(response, 400, 'Send the beacon as text/plain or application/json');
      return true;
    }
    readBody(incoming, BEACON_MAX_BYTES).then(
      (text) => {
        if (text === null) return reply(response, 413, `The beacon must be at most ${BEACON_MAX_BYTES} bytes`);
        const beacon = parseBeacon(text);
        if (typeof beacon === 'string') return reply(response, 400, beacon);
        // request.ip honours X-Forwarded-For only as far as the TRUST_PROXY setting allows.
        const ip = request.ip ?? incoming.socket.remoteAddress ?? 'unknown';
        if (!limiter.allow(ip, Date.now())) {
          ingest.drop('rate');
          response.setHeader('Retry-After', '60');
          return reply(response, 429, 'Too many events from this address');
        }
        const event: CollectRequest = {
          beacon,
          ip,
          userAgent: incoming.headers['user-agent'] ?? '',
          privacySignal: incoming.headers['sec-gpc'] === '1' || incoming.headers.dnt === '1',
          country: countryOf(request),
        };
        let reason: DropReason | null = sameOrigin(request, publicOrigin) ? null : 'origin';
        reason ??= ingest.dropReason(event, admins.isAdminRequest(incoming.headers.cookie));
        reply(response, 202);
        if (reason) ingest.drop(reason);
        else ingest.accept(event);
      },
      // The body could not be read (the client went away mid-body): nobody is left to answer.
      () => {
        if (!response.headersSent) reply(response, 400, 'The beacon could not be read');
      },
    );
    return true;
  };
}
