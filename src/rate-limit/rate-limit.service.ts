import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { InsertBatcher } from '../database/insert-batcher.js';
import { KeyedTurns } from '../database/keyed-turns.js';
import type { RateLimitRule } from './rate-limit.decorator.js';
import { RateLimitCounter } from './schemas/rate-limit-counter.schema.js';

export class TooManyRequestsException extends HttpException {
  constructor(readonly retryAfterSeconds: number) {
    super(
      { statusCode: 429, error: 'Too Many Requests', message: `Too many attempts. Try again in ${retryAfterSeconds} seconds.` },
      HttpStatus.TOO_MANY_REQUESTS,
    );
  }
}

/** How often buffered hits are written to the shared counters (and other instances' counts read back). */
export const BUFFERED_FLUSH_MS = 1000;
/**
 * Subjects counted in memory at once (about 200 bytes each). Beyond this (many addresses within one
 * window, as a botnet has), a new subject is counted in the database per hit like {@link hit}: no
 * limit is ever skipped, and memory stays bounded.
 */
export const MAX_BUFFERED_COUNTERS = 10_000;
/** Counters per bulk write of a flush, so that other queries get the connection in between. */
const FLUSH_BATCH = 500;

interface BufferedCounter {
  /** The shared counter's id (the subject hashed, computed once per window). */
  key: string;
  /** The shared count as of the last flush, this instance's flushed hits included. */
  synced: number;
  /** Hits taken here since then. */
  pending: number;
  /** Hits being written by the flush under way. */
  inFlight: number;
  expiresAt: Date;
}

@Injectable()
export class RateLimitService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimitService.name);
  private sweeper: NodeJS.Timeout | null = null;
  private flusher: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly buffered = new Map<string, BufferedCounter>();
  /** Per counter, the slot this instance tries first (see {@link take}). */
  private readonly slotHints = new Map<string, number>();
  /** Hits of this instance on one counter take their turns. */
  private readonly turns = new KeyedTurns();
  /**
   * Slot claims of different counters made at the same moment (the four limits of a sign-in, a
   * burst of requests) are inserted together: one command instead of one each on the embedded
   * database's one connection.
   */
  private readonly slotWrites: InsertBatcher<RateLimitCounter>;

  constructor(
    @InjectModel(RateLimitCounter.name) private readonly counters: Model<RateLimitCounter>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {
    this.slotWrites = new InsertBatcher(counters);
  }

  onModuleInit(): void {
    this.sweeper = setInterval(
      () => {
        this.counters
          .deleteMany({ expiresAt: { $lt: new Date() } })
          .exec()
          .catch((error: Error) => this.logger.warn(`Sweep failed: ${error.message}`));
      },
      10 * 60 * 1000,
    );
    this.sweeper.unref();
    this.flusher = setInterval(() => void this.flushBuffered(), BUFFERED_FLUSH_MS);
    this.flusher.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.sweeper) clearInterval(this.sweeper);
    if (this.flusher) clearInterval(this.flusher);
    await this.flushBuffered();
  }

  /**
   * Counts one hit against `rule` for `subject`; throws 429 when the window's limit is exceeded.
   * Subjects are hashed so counters never hold raw e-mail addresses or IPs.
   */
  async hit(bucket: string, rule: RateLimitRule, subject: string, now = Date.now()): Promise<void> {
    const { allowed, retryAfterSeconds } = await this.take(bucket, rule, subject, now);
    if (!allowed) throw new TooManyRequestsException(retryAfterSeconds);
  }

  /**
   * Counts one hit and answers whether it is within the limit, for callers that skip work rather than
   * refuse; `claim` names the hit, for {@link refund}.
   *
   * The k-th hit of a window claims slot k by inserting `<counter id>#<k>` (a unique `_id`): of
   * hits racing for one slot exactly one insert succeeds and the others go on to the next slot, so
   * exactly `limit` hits pass however many instances, connections or databases take part. A counter
   * incremented with `$inc` would need the database to apply concurrent updates of one document
   * atomically, which FerretDB does not do over several connections (docs/database.md). The search
   * for a free slot starts where this instance last claimed one, and hits of this instance on one
   * counter take their turns, so a hit costs one insert unless other instances took slots meanwhile.
   * Past the limit nothing is written: the window refuses until it ends (`expiresAt`, Retry-After).
   */
  async take(
    bucket: string,
    rule: RateLimitRule,
    subject: string,
    now = Date.now(),
  ): Promise<{ allowed: boolean; retryAfterSeconds: number; claim: string | null }> {
    const limit = Math.max(1, Math.round(rule.limit * this.config.rateLimitMultiplier));
    const { key, expiresAt } = this.counterOf(bucket, rule, subject, now);
    const retryAfterSeconds = Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000));
    const claim = await this.turns.run(key, () => this.claimSlot(key, limit, expiresAt));
    return { allowed: claim !== null, retryAfterSeconds, claim };
  }

  /** Inserts the lowest free slot from this instance's hint on; null when all `limit` are taken. */
  private async claimSlot(key: string, limit: number, expiresAt: Date): Promise<string | null> {
    for (let slot = this.slotHints.get(key) ?? 1; slot <= limit; slot += 1) {
      if ((await this.slotWrites.insert({ _id: `${key}#${slot}`, count: 1, expiresAt })) === 'duplicate') continue;
      this.rememberHint(key, slot + 1);
      return `${key}#${slot}`;
    }
    this.rememberHint(key, limit + 1);
    return null;
  }

  private rememberHint(key: string, slot: number): void {
    if (this.slotHints.size >= MAX_BUFFERED_COUNTERS) this.slotHints.clear(); // hints only save inserts
    this.slotHints.set(key, slot);
  }

  /**
   * Counts one hit like {@link hit}, without a database round trip: for hot public endpoints (the
   * licensing API) where a limit a second late costs nothing. Hits are counted here and added to the
   * shared counter once a second, which answers the count of every instance; the limit applies to
   * that count plus this instance's hits since. So one instance is exact, and N instances together
   * can exceed a limit by at most what they take in the same second. Refused hits are not counted.
   */
  async hitBuffered(bucket: string, rule: RateLimitRule, subject: string, now = Date.now()): Promise<void> {
    const limit = Math.max(1, Math.round(rule.limit * this.config.rateLimitMultiplier));
    // In memory the subject is not hashed (it never leaves the process); the shared counter's id is.
    const local = `${bucket}:${rule.scope}:${Math.floor(now / (rule.windowSeconds * 1000))}:${subject}`;
    let counter = this.buffered.get(local);
    if (!counter && this.buffered.size >= MAX_BUFFERED_COUNTERS) return this.hit(bucket, rule, subject, now);
    if (!counter) {
      const { key, expiresAt } = this.counterOf(bucket, rule, subject, now);
      counter = { key, synced: 0, pending: 0, inFlight: 0, expiresAt };
      this.buffered.set(local, counter);
    }
    if (counter.synced + counter.inFlight + counter.pending >= limit) {
      throw new TooManyRequestsException(Math.max(1, Math.ceil((counter.expiresAt.getTime() - now) / 1000)));
    }
    counter.pending += 1;
  }

  /**
   * Adds the buffered hits to the shared counters in one bulk write and reads their totals back.
   * Runs once a second and at shutdown; while the database is away the hits stay buffered (and keep
   * counting here) until a flush succeeds.
   */
  flushBuffered(): Promise<void> {
    this.flushing ??= this.writeBuffered().finally(() => (this.flushing = null));
    return this.flushing;
  }

  private async writeBuffered(): Promise<void> {
    const now = Date.now();
    const due: Array<{ key: string; counter: BufferedCounter; hits: number }> = [];
    for (const [local, counter] of this.buffered) {
      if (counter.expiresAt.getTime() <= now)
        this.buffered.delete(local); // a window that is over is never read again
      else if (counter.pending > 0) due.push({ key: counter.key, counter, hits: counter.pending });
    }
    for (let start = 0; start < due.length; start += FLUSH_BATCH) await this.writeBatch(due.slice(start, start + FLUSH_BATCH));
  }

  private async writeBatch(batch: Array<{ key: string; counter: BufferedCounter; hits: number }>): Promise<void> {
    for (const item of batch) {
      item.counter.pending -= item.hits;
      item.counter.inFlight = item.hits;
    }
    let failed = new Set<number>();
    try {
      await this.counters.bulkWrite(
        batch.map(({ key, counter, hits }) => ({
          updateOne: {
            filter: { _id: key },
            update: { $inc: { count: hits }, $setOnInsert: { expiresAt: counter.expiresAt } },
            upsert: true,
          },
        })),
        { ordered: false },
      );
    } catch (error) {
      // Some writes may have failed (two instances inserting one new counter at once) and the rest
      // applied; when the error does not say which, all are tried again (counting twice errs on the safe side).
      const writeErrors = (error as { writeErrors?: Array<{ index: number }> }).writeErrors;
      failed = new Set(writeErrors ? writeErrors.map((writeError) => writeError.index) : batch.map((_, index) => index));
      this.logger.warn(`Buffered rate-limit counts not all written (${failed.size} of ${batch.length}): ${(error as Error).message}`);
    }
    const written = batch.filter((_, index) => !failed.has(index));
    for (const [index, item] of batch.entries()) {
      if (!failed.has(index)) continue;
      item.counter.pending += item.hits;
      item.counter.inFlight = 0;
    }
    if (!written.length) return;
    try {
      const totals = await this.counters
        .find({ _id: { $in: written.map((item) => item.key) } }, { count: 1 })
        .lean()
        .exec();
      const byKey = new Map(totals.map((total) => [String(total._id), total.count]));
      for (const item of written) item.counter.synced = byKey.get(item.key) ?? item.counter.synced + item.hits;
    } catch (error) {
      // Written but not read back: count what this instance added, and read the totals next time.
      for (const item of written) item.counter.synced += item.hits;
      this.logger.warn(`Buffered rate-limit totals not read back: ${(error as Error).message}`);
    } finally {
      for (const item of written) item.counter.inFlight = 0;
    }
  }

  /**
   * Gives back a hit {@link take} answered `claim` for (an attempt that turned out not to count, such
   * as a correct password): its slot is free again, and this instance looks there first.
   */
  async refund(claim: string | null): Promise<void> {
    await this.refundAll([claim]);
  }

  /** Gives several hits back in one command (a sign-in's four limits). */
  async refundAll(claims: ReadonlyArray<string | null>): Promise<void> {
    const given = claims.filter((claim): claim is string => claim !== null);
    if (!given.length) return;
    const { deletedCount } = await this.counters.deleteMany({ _id: { $in: given } }).exec();
    if (!deletedCount) return;
    // The freed slots are searched first next time (a slot still taken only costs one insert more).
    for (const claim of given) {
      const separator = claim.lastIndexOf('#');
      const key = claim.slice(0, separator);
      const slot = Number(claim.slice(separator + 1));
      if (slot < (this.slotHints.get(key) ?? Number.POSITIVE_INFINITY)) this.rememberHint(key, slot);
    }
  }

  /** The counter of `subject` in the fixed window of `rule` that contains `now`. Subjects are hashed. */
  private counterOf(bucket: string, rule: RateLimitRule, subject: string, now: number): { key: string; expiresAt: Date } {
    const windowMs = rule.windowSeconds * 1000;
    const window = Math.floor(now / windowMs);
    const hashed = createHash('sha256').update(subject).digest('base64url').slice(0, 22);
    return { key: `${bucket}:${rule.scope}:${hashed}:${window}`, expiresAt: new Date((window + 1) * windowMs) };
  }
}
