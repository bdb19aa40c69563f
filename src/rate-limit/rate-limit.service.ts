import { createHash } from 'node:crypto';
import { HttpException, HttpStatus, Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { upsertWithRetry } from '../database/upsert.js';
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

@Injectable()
export class RateLimitService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger(RateLimitService.name);
  private sweeper: NodeJS.Timeout | null = null;

  constructor(
    @InjectModel(RateLimitCounter.name) private readonly counters: Model<RateLimitCounter>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

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
  }

  onModuleDestroy(): void {
    if (this.sweeper) clearInterval(this.sweeper);
  }

  /**
   * Counts one hit against `rule` for `subject`; throws 429 when the window's limit is exceeded.
   * Subjects are hashed so counters never hold raw e-mail addresses or IPs.
   *
   * One counter document per window, incremented with an atomic `$inc` upsert that returns the new
   * count: the k-th request of a window reads k, so exactly `limit` requests pass, on MongoDB (atomic
   * updates) and on FerretDB (one connection; see database-server.ts) alike. The window index is part
   * of the counter's id, so an expired window is never read again: that is the expiry check, and
   * `expiresAt` serves the sweep and Retry-After.
   */
  async hit(bucket: string, rule: RateLimitRule, subject: string, now = Date.now()): Promise<void> {
    const { allowed, retryAfterSeconds } = await this.take(bucket, rule, subject, now);
    if (!allowed) throw new TooManyRequestsException(retryAfterSeconds);
  }

  /** Counts one hit and answers whether it is within the limit, for callers that skip work rather than refuse. */
  async take(
    bucket: string,
    rule: RateLimitRule,
    subject: string,
    now = Date.now(),
  ): Promise<{ allowed: boolean; retryAfterSeconds: number }> {
    const limit = Math.max(1, Math.round(rule.limit * this.config.rateLimitMultiplier));
    const { key, expiresAt } = this.counterOf(bucket, rule, subject, now);
    // An upsert that returns the document after the update always finds or makes one.
    const counter = await upsertWithRetry(() =>
      this.counters
        .findOneAndUpdate({ _id: key }, { $inc: { count: 1 }, $setOnInsert: { expiresAt } }, { upsert: true, returnDocument: 'after' })
        .lean()
        .exec(),
    );
    return { allowed: counter!.count <= limit, retryAfterSeconds: Math.max(1, Math.ceil((expiresAt.getTime() - now) / 1000)) };
  }

  /**
   * Gives back a hit taken at `now` (an attempt that turned out not to count, such as a correct
   * password). Counters never go below zero in effect: a refund only follows a take.
   */
  async refund(bucket: string, rule: RateLimitRule, subject: string, now: number): Promise<void> {
    const { key } = this.counterOf(bucket, rule, subject, now);
    await this.counters.updateOne({ _id: key, count: { $gt: 0 } }, { $inc: { count: -1 } }).exec();
  }

  /** The counter of `subject` in the fixed window of `rule` that contains `now`. Subjects are hashed. */
  private counterOf(bucket: string, rule: RateLimitRule, subject: string, now: number): { key: string; expiresAt: Date } {
    const windowMs = rule.windowSeconds * 1000;
    const window = Math.floor(now / windowMs);
    const hashed = createHash('sha256').update(subject).digest('base64url').slice(0, 22);
    return { key: `${bucket}:${rule.scope}:${hashed}:${window}`, expiresAt: new Date((window + 1) * windowMs) };
  }
}
