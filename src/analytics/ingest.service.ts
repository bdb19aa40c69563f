import { createHmac } from 'node:crypto';
import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { AnyBulkWriteOperation, Model } from 'mongoose';
import { classifyChannel } from '../../lib/analytics/channel.js';
import { ipInRanges } from '../../lib/analytics/cidr.js';
import { addDays, DAY_MS, utcDay } from '../../lib/time/utc-day.js';
import { isSpamReferrer } from '../../lib/analytics/referrer-spam.js';
import { automationReason, parseUserAgent } from '../../lib/analytics/user-agent.js';
import { type Beacon, type DropReason, NOT_FOUND_ENTRY, VALUE_MAX_CHARS } from '../../lib/api/analytics.js';
import { PRODUCT } from '../../lib/product.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDuplicateKey } from '../database/upsert.js';
import { AnalyticsSaltsService } from './salts.service.js';
import { AnalyticsSettingsService } from './analytics-settings.service.js';
import { ANALYTICS_CLOCK, type Clock } from './clock.js';
import { AnalyticsCounter } from './schemas/analytics-counter.schema.js';
import { VisitorDay } from './schemas/visitor-day.schema.js';
import { DatabaseAvailability } from '../database/database-availability.js';

/** How often buffered counters and visitor updates are written (and at shutdown). */
/**
 * `total|visitors_live`: new visitor-days counted as they are inserted, so an open day's unique
 * visitors are a counter read instead of a count of its visitor-days. The day close ignores it (the
 * summary's `visitors` counts the visitor-days themselves) and deletes it with the other counters.
 */
export const LIVE_VISITORS = 'visitors_live';
export const ANALYTICS_FLUSH_MS = Symbol('ANALYTICS_FLUSH_MS');
const DEFAULT_FLUSH_MS = 5_000;
/** A visit ends after this long without a page view. */
export const VISIT_IDLE_MS = 30 * 60_000;
/** Distinct values per day and dimension counted by name on one instance; the rest become `(other)`. */
export const VALUES_PER_DAY_DIMENSION = 1_000;
export const OTHER_VALUE = '(other)';
/** Visitor states kept in memory (about 150 bytes each); beyond, the oldest are forgotten (and re-read on their next page view). */
const MAX_VISITOR_STATES = 200_000;
/**
 * Documents per write command: small enough that other queries get the one connection in between
 * and that a command finishes well within the socket timeout (4 s) on a loaded machine (FerretDB
 * runs each update as a read and a write; measured in `npm run bench`).
 */
const WRITE_BATCH = 25;
/** Visitor updates per flush at most; the rest wait for the next flush (realtime reads memory first). */
const VISITOR_UPDATES_PER_FLUSH = 300;
/** How stale a visitor's stored last-seen time may get while the visit goes on (realtime on other instances). */
const VISITOR_WRITE_MS = 4 * 60_000;

/** What the collector knows about one request, besides the beacon. */
export interface CollectRequest {
  beacon: Beacon;
  ip: string;
  userAgent: string;
  /** Privacy signals: `Sec-GPC: 1` or `DNT: 1`. */
  privacySignal: boolean;
  /** ISO country code from a CDN header, or null. */
  country: string | null;
}

interface VisitorState {
  key: string;
  day: string;
  lastAt: number;
  /** `lastAt` as last written: a visitor's document is rewritten at most once a minute while a visit goes on. */
  storedAt: number;
  pages: number;
  visits: number;
  visitPages: number;
}

/** Per-visit facts, counted when a visit starts. */
interface VisitFacts {
  path: string;
  referrerHost: string;
  utmSource: string;
  utmMedium: string;
  utmCampaign: string;
}

const cut = (value: string) => (value.length > VALUE_MAX_CHARS ? value.slice(0, VALUE_MAX_CHARS) : value);

/** The external referrer's host (lower case, without `www.`), or '' for none or our own site. */
export function referrerHostOf(referrer: string | undefined, siteHost: string): string {
  if (!referrer) return '';
  try {
    const url = new URL(referrer);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return '';
    const host = url.hostname.toLowerCase().replace(/^www\./, '');
    return host === siteHost.replace(/^www\./, '') ? '' : host;
  } catch {
    return '';
  }
}

/**
 * The visitor id of a day: HMAC-SHA256 keyed with the day's random salt over the site, the IP
 * address, the user agent and the host, truncated to 96 bits. Without the salt (deleted after 48 h)
 * it cannot be linked back to an address.
 */
export function visitorHash(salt: Buffer, site: string, ip: string, userAgent: string, host: string): string {
  return createHmac('sha256', salt).update(`${site}\0${ip}\0${userAgent}\0${host}`).digest().subarray(0, 12).toString('base64url');
}

/**
 * The collector's work after it has answered: drops counted by reason, page views counted in
 * memory by day, dimension and value, and visitor-days claimed by a unique insert (P1). Counters are
 * written by a flush every few seconds with one bulk write of `$inc` upserts, so database writes
 * grow with new visitors and distinct values, not with page views.
 */
@Injectable()
export class AnalyticsIngestService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AnalyticsIngest');
  private counters = new Map<string, number>();
  /**
   * The counts the flush under way is writing, until their batch is acknowledged: the dashboard still
   * sees them meanwhile (they are in neither the buffer nor the database while the write travels).
   */
  private writing = new Map<string, number>();
  private readonly valuesSeen = new Map<string, Set<string>>();
  private readonly visitors = new Map<string, VisitorState>();
  private readonly pendingVisitors = new Map<string, Promise<VisitorState | null>>();
  private dirtyVisitors = new Map<string, VisitorState>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly claimQueue: Array<{ doc: VisitorDay; resolve: (inserted: boolean) => void; reject: (error: Error) => void }> = [];
  private claimWriting = false;
  private flusher: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly siteHost: string;
  /** Database writes made (bulk writes count their operations): the bench reports them. */
  writes = 0;

  constructor(
    @InjectModel(AnalyticsCounter.name) private readonly counterModel: Model<AnalyticsCounter>,
    @InjectModel(VisitorDay.name) private readonly visitorDays: Model<VisitorDay>,
    private readonly salts: AnalyticsSaltsService,
    private readonly settings: AnalyticsSettingsService,
    @Inject(APP_CONFIG) config: AppConfig,
    @Inject(ANALYTICS_CLOCK) private readonly clock: Clock,
    @Optional() @Inject(ANALYTICS_FLUSH_MS) private readonly flushMs: number = DEFAULT_FLUSH_MS,
  ) {
    this.siteHost = new URL(config.publicUrl).hostname.toLowerCase();
  }

  onModuleInit(): void {
    void this.settings.refresh().catch(() => undefined);
    if (this.flushMs > 0) {
      this.flusher = setInterval(() => void this.flush().catch(() => undefined), this.flushMs);
      this.flusher.unref();
    }
  }

  async onModuleDestroy(): Promise<void> {
    if (this.flusher) clearInterval(this.flusher);
    await this.settle();
    await this.flush().catch((error: Error) => this.logger.warn(`Final analytics flush failed: ${error.message}`));
  }

  /**
   * Decides, in memory, whether the event counts: the reason it is dropped, or null. Cheap checks
   * first. Called before the collector answers; the counting itself happens in {@link accept}.
   */
  dropReason(request: CollectRequest, isAdmin: boolean): DropReason | null {
    const settings = this.settings.current();
    const automation = automationReason(request.userAgent);
    if (automation) return automation;
    if (request.beacon.wd) return 'headless';
    if (settings.respectPrivacySignals && request.privacySignal) return 'privacy';
    if (isAdmin && !settings.countAdmins) return 'admin';
    if (ipInRanges(request.ip, settings.ipRanges)) return 'ignored';
    if (settings.ignorePaths.some((prefix) => request.beacon.p.startsWith(prefix))) return 'ignored';
    const referrerHost = referrerHostOf(request.beacon.r, this.siteHost);
    if (referrerHost && isSpamReferrer(referrerHost)) return 'spam';
    return null;
  }

  /** Counts a dropped event by its reason. */
  drop(reason: DropReason): void {
    this.count(utcDay(this.clock.now()), 'drop', reason);
  }

  /** Counts an accepted page view. Runs after the 202; the only immediate write is a new visitor-day. */
  accept(request: CollectRequest): void {
    const work = this.record(request).catch((error: Error) => this.logger.warn(`A page view was not counted: ${error.message}`));
    this.inFlight.add(work);
    void work.finally(() => this.inFlight.delete(work));
  }

  /** Waits for the page views being recorded (tests, shutdown). */
  async settle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private async record(request: CollectRequest): Promise<void> {
    const now = this.clock.now();
    const day = utcDay(now);
    const { beacon } = request;
    const path = cut(beacon.p);
    const families = parseUserAgent(request.userAgent);
    this.count(day, 'total', 'pageviews');
    this.count(day, beacon.nf ? 'notfound' : 'page', path);
    this.count(day, 'browser', families.browser);
    this.count(day, 'os', families.os);
    this.count(day, 'device', families.device);
    this.count(day, 'country', request.country ?? 'unknown');

    const facts: VisitFacts = {
      path: beacon.nf ? NOT_FOUND_ENTRY : path,
      referrerHost: referrerHostOf(beacon.r, this.siteHost),
      utmSource: cut(beacon.us?.trim().toLowerCase() ?? ''),
      utmMedium: cut(beacon.um?.trim().toLowerCase() ?? ''),
      utmCampaign: cut(beacon.uc?.trim() ?? ''),
    };
    const salt = this.salts.cached(day) ?? (await this.salts.saltOf(day, new Date(now)));
    const key = `${day}:${visitorHash(salt, PRODUCT.slug, request.ip, request.userAgent, this.siteHost)}`;

    const known = this.visitors.get(key) ?? (await this.pendingVisitors.get(key));
    if (known) {
      this.hit(known, now, facts);
      return;
    }
    const claim = this.claim(key, day, now, facts, request);
    this.pendingVisitors.set(key, claim);
    try {
      await claim;
    } finally {
      this.pendingVisitors.delete(key);
    }
  }

  /**
   * A visitor not in memory: claims the visitor-day by a unique insert. When it already exists
   * (another instance, or this one forgot it), its stored state is read and the page view applied.
   */
  private async claim(key: string, day: string, now: number, facts: VisitFacts, request: CollectRequest): Promise<VisitorState | null> {
    const state: VisitorState = { key, day, lastAt: now, storedAt: now, pages: 1, visits: 1, visitPages: 1 };
    const inserted = await this.insertVisitorDay({
      _id: key,
      day,
      entry: facts.path,
      firstAt: new Date(now),
      lastAt: new Date(now),
      pages: 1,
      visits: 1,
      visitPages: 1,
    });
    if (inserted) {
      // A new unique visitor of the day: the dashboard reads open days' uniques from this counter.
      this.count(day, 'total', LIVE_VISITORS);
      this.remember(state);
      if (!(await this.continuesYesterday(request, now))) this.startVisit(day, facts);
      return state;
    }
    const stored = await this.visitorDays.findById(key).lean().exec();
    if (!stored) return null;
    const existing: VisitorState = {
      key,
      day,
      lastAt: stored.lastAt.getTime(),
      storedAt: stored.lastAt.getTime(),
      pages: stored.pages,
      visits: stored.visits,
      visitPages: stored.visitPages,
    };
    this.remember(existing);
    this.hit(existing, now, facts);
    return existing;
  }

  /**
   * Inserts a visitor-day; false when it exists already. New visitors arriving together share one
   * unordered `insertMany` (one at a time over the connection, so a burst of new visitors queues here
   * rather than in the driver's pool, where it would time out).
   */
  private insertVisitorDay(doc: VisitorDay): Promise<boolean> {
    return new Promise((resolve, reject) => {
      this.claimQueue.push({ doc, resolve, reject });
      if (!this.claimWriting) void this.writeClaims();
    });
  }

  private async writeClaims(): Promise<void> {
    this.claimWriting = true;
    try {
      while (this.claimQueue.length) {
        const batch = this.claimQueue.splice(0, WRITE_BATCH);
        this.writes += batch.length;
        try {
          DatabaseAvailability.assertReachable(this.visitorDays.db); // a driver call: the breaker's plugin does not see it
          await this.visitorDays.collection.insertMany(
            batch.map((item) => item.doc as never),
            { ordered: false },
          );
          for (const item of batch) item.resolve(true);
        } catch (error) {
          const writeErrors = (error as { writeErrors?: Array<{ index: number; code?: number }> }).writeErrors;
          if (!writeErrors) {
            for (const item of batch) item.reject(error as Error);
            continue;
          }
          const failed = new Map(writeErrors.map((writeError) => [writeError.index, writeError]));
          batch.forEach((item, index) => {
            const writeError = failed.get(index);
            if (!writeError) item.resolve(true);
            else if (isDuplicateKey(writeError)) item.resolve(false);
            else item.reject(new Error(`visitor-day not stored (code ${writeError.code ?? '?'})`));
          });
        }
      }
    } finally {
      this.claimWriting = false;
    }
  }

  /**
   * A visit that started before 00:00 UTC and goes on after it: yesterday's visitor (yesterday's
   * salt, kept for this) seen within the idle window. It is not a new visit; a bounce it seemed to
   * be is taken back on yesterday's counters.
   */
  private async continuesYesterday(request: CollectRequest, now: number): Promise<boolean> {
    const dayStart = Math.floor(now / DAY_MS) * DAY_MS;
    if (now - dayStart > VISIT_IDLE_MS) return false;
    const yesterday = addDays(utcDay(now), -1);
    const salt = this.salts.cached(yesterday);
    if (!salt) return false;
    const key = `${yesterday}:${visitorHash(salt, PRODUCT.slug, request.ip, request.userAgent, this.siteHost)}`;
    const state = this.visitors.get(key);
    if (!state || now - state.lastAt > VISIT_IDLE_MS) return false;
    if (state.visitPages === 1) this.count(yesterday, 'total', 'bounces', -1);
    state.visitPages += 1;
    state.lastAt = now;
    this.dirtyVisitors.set(key, state);
    return true;
  }

  /** A page view of a visitor whose state is known. */
  private hit(state: VisitorState, now: number, facts: VisitFacts): void {
    state.pages += 1;
    let changed = false;
    if (now - state.lastAt > VISIT_IDLE_MS) {
      state.visits += 1;
      state.visitPages = 1;
      changed = true;
      this.startVisit(state.day, facts);
    } else {
      state.visitPages += 1;
      // The visit's second page: it is not a bounce after all.
      if (state.visitPages === 2) this.count(state.day, 'total', 'bounces', -1);
    }
    state.lastAt = Math.max(state.lastAt, now);
    // Written when a visit starts, or when its last-seen time moved 4 minutes (realtime on other
    // instances reads it): a busy visitor costs a write every few minutes, not one per page view.
    if (changed || state.lastAt - state.storedAt >= VISITOR_WRITE_MS) this.dirtyVisitors.set(state.key, state);
  }

  /** Counted once per visit: a visit, a bounce until a second page, the entry page and the source. */
  private startVisit(day: string, facts: VisitFacts): void {
    this.count(day, 'total', 'visits');
    this.count(day, 'total', 'bounces');
    this.count(day, 'entry', facts.path);
    this.count(
      day,
      'channel',
      classifyChannel({ referrerHost: facts.referrerHost, utmSource: facts.utmSource, utmMedium: facts.utmMedium }),
    );
    if (facts.referrerHost) this.count(day, 'referrer', facts.referrerHost);
    if (facts.utmSource) this.count(day, 'utm_source', facts.utmSource);
    if (facts.utmMedium) this.count(day, 'utm_medium', facts.utmMedium);
    if (facts.utmCampaign) this.count(day, 'utm_campaign', facts.utmCampaign);
  }

  private remember(state: VisitorState): void {
    if (this.visitors.size >= MAX_VISITOR_STATES) {
      // Forget the oldest tenth (insertion order); a forgotten visitor is read back on its next page view.
      let drop = Math.ceil(MAX_VISITOR_STATES / 10);
      for (const key of this.visitors.keys()) {
        if (drop-- <= 0) break;
        this.visitors.delete(key);
      }
    }
    this.visitors.set(state.key, state);
  }

  /** Adds to a buffered counter; a day's values beyond the cap are counted as `(other)`. */
  private count(day: string, dim: string, value: string, by = 1): void {
    let counted = value;
    if (dim !== 'total' && dim !== 'drop') {
      const bucket = `${day}|${dim}`;
      let seen = this.valuesSeen.get(bucket);
      if (!seen) this.valuesSeen.set(bucket, (seen = new Set()));
      if (!seen.has(value)) {
        if (seen.size >= VALUES_PER_DAY_DIMENSION) counted = OTHER_VALUE;
        else seen.add(value);
      }
    }
    const key = `${day}|${dim}|${counted}`;
    this.counters.set(key, (this.counters.get(key) ?? 0) + by);
  }

  /**
   * This instance's counts not yet written, as `(day, dim, value, n)`: the dashboard adds them. A
   * batch leaves `writing` when the database acknowledges it; over the app's one connection the
   * database answers in order, so a dashboard read sees each count exactly once, in the database or here.
   */
  buffered(): Array<{ day: string; dim: string; value: string; n: number }> {
    return [...this.counters, ...this.writing].map(([key, n]) => ({ ...splitKey(key), n }));
  }

  /** Visitors this instance has seen since `since` (realtime: their stored last-seen time may lag a minute). */
  recentVisitorKeys(since: number): string[] {
    return [...this.visitors.values()].filter((state) => state.lastAt >= since).map((state) => state.key);
  }

  /**
   * Writes the buffered counters and visitor updates. Flushes run one after another, and the one a
   * call starts covers everything counted before the call.
   */
  flush(): Promise<void> {
    const run = (this.flushing ?? Promise.resolve()).catch(() => undefined).then(() => this.write());
    const tracked: Promise<void> = run.finally(() => {
      if (this.flushing === tracked) this.flushing = null;
    });
    this.flushing = tracked;
    return tracked;
  }

  private async write(): Promise<void> {
    const counters = this.counters;
    const visitors = this.dirtyVisitors;
    this.counters = new Map();
    this.dirtyVisitors = new Map();
    const entries = [...counters].filter(([, n]) => n !== 0);
    this.writing = new Map(entries);
    let failed: Error | null = null;
    for (let start = 0; start < entries.length; start += WRITE_BATCH) {
      const batch = entries.slice(start, start + WRITE_BATCH);
      try {
        await this.counterModel.bulkWrite(
          batch.map(([key, n]): AnyBulkWriteOperation<AnalyticsCounter> => {
            const { day, dim, value } = splitKey(key);
            return { updateOne: { filter: { _id: key }, update: { $inc: { n }, $setOnInsert: { day, dim, value } }, upsert: true } };
          }),
          { ordered: true },
        );
        for (const [key] of batch) this.writing.delete(key);
        this.writes += batch.length;
      } catch (error) {
        // Ordered: the operations before the failing one were applied, the rest are counted again
        // by the next flush. A connection error says nothing: the batch is tried again whole.
        const done = (error as { writeErrors?: Array<{ index: number }> }).writeErrors?.[0]?.index ?? 0;
        for (const [key, n] of batch.slice(done)) this.counters.set(key, (this.counters.get(key) ?? 0) + n);
        for (const [key, n] of entries.slice(start + WRITE_BATCH)) this.counters.set(key, (this.counters.get(key) ?? 0) + n);
        failed = error as Error;
        break;
      }
    }
    // What failed is counted in the buffer again (above): nothing is being written any more.
    this.writing = new Map();
    const all = [...visitors.values()];
    const states = all.slice(0, VISITOR_UPDATES_PER_FLUSH);
    for (const state of all.slice(VISITOR_UPDATES_PER_FLUSH))
      if (!this.dirtyVisitors.has(state.key)) this.dirtyVisitors.set(state.key, state);
    for (const state of states) state.storedAt = state.lastAt;
    for (let start = 0; start < states.length && !failed; start += WRITE_BATCH) {
      const batch = states.slice(start, start + WRITE_BATCH);
      try {
        await this.visitorDays.bulkWrite(
          batch.map((state) => ({
            updateOne: {
              filter: { _id: state.key },
              update: {
                $set: { pages: state.pages, visits: state.visits, visitPages: state.visitPages },
                $max: { lastAt: new Date(state.lastAt) },
              },
            },
          })),
          { ordered: false },
        );
        this.writes += batch.length;
      } catch (error) {
        for (const state of states.slice(start)) if (!this.dirtyVisitors.has(state.key)) this.dirtyVisitors.set(state.key, state);
        failed = error as Error;
      }
    }
    if (failed) {
      this.logger.warn(`Analytics flush incomplete, will retry: ${failed.message}`);
      throw failed;
    }
  }

  /** Forgets in-memory state of days that are closed (called by the day-close job). */
  forgetBefore(day: string): void {
    for (const [key, state] of this.visitors) if (state.day < day) this.visitors.delete(key);
    for (const bucket of this.valuesSeen.keys()) if (bucket.slice(0, 10) < day) this.valuesSeen.delete(bucket);
  }
}

export function splitKey(key: string): { day: string; dim: string; value: string } {
  const first = key.indexOf('|');
  const second = key.indexOf('|', first + 1);
  return { day: key.slice(0, first), dim: key.slice(first + 1, second), value: key.slice(second + 1) };
}
