import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { addDays, DAY_MS, utcDay } from '../../lib/time/utc-day.js';
import { isDuplicateKey } from '../database/upsert.js';
import { AnalyticsSettingsService } from './analytics-settings.service.js';
import { ANALYTICS_CLOCK, type Clock } from './clock.js';
import { AnalyticsIngestService, LIVE_VISITORS, VISIT_IDLE_MS } from './ingest.service.js';
import { AnalyticsSaltsService } from './salts.service.js';
import { AnalyticsCounter, AnalyticsDaySummary } from './schemas/analytics-counter.schema.js';
import { VisitorDay } from './schemas/visitor-day.schema.js';

/** How often an instance runs the day close and the sweeps (0: never; tests call {@link run}). */
export const ANALYTICS_MAINTENANCE_MS = Symbol('ANALYTICS_MAINTENANCE_MS');
const DEFAULT_MAINTENANCE_MS = 60_000;
/** Days looked at for closing: a day missed while every instance was down is still closed later. */
export const CLOSE_LOOKBACK_DAYS = 3;
/** A day is closed once every visit that could continue it has ended, and the flushes have landed. */
const CLOSE_AFTER_MS = VISIT_IDLE_MS + 60_000;

export interface MaintenanceResult {
  closed: string[];
  saltsDeleted: number;
  visitorDaysDeleted: number;
  countersDeleted: number;
}

/**
 * The jobs that keep analytics small and private, run by every instance (each step is idempotent):
 * - day close: a finished day's counters and unique visitors are folded into one summary document
 *   (a unique insert, so one instance wins), and the counters it folded deleted;
 * - salts older than yesterday are deleted (so no stored hash can be recomputed after 48 h);
 * - visitor-days are deleted 48 h after their day closed;
 * - summaries and counters older than the retention setting are deleted.
 */
@Injectable()
export class AnalyticsMaintenanceService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('AnalyticsMaintenance');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<MaintenanceResult> | null = null;

  constructor(
    @InjectModel(AnalyticsCounter.name) private readonly counters: Model<AnalyticsCounter>,
    @InjectModel(AnalyticsDaySummary.name) private readonly summaries: Model<AnalyticsDaySummary>,
    @InjectModel(VisitorDay.name) private readonly visitorDays: Model<VisitorDay>,
    private readonly ingest: AnalyticsIngestService,
    private readonly salts: AnalyticsSaltsService,
    private readonly settings: AnalyticsSettingsService,
    @Inject(ANALYTICS_CLOCK) private readonly clock: Clock,
    @Optional() @Inject(ANALYTICS_MAINTENANCE_MS) private readonly intervalMs: number = DEFAULT_MAINTENANCE_MS,
  ) {}

  onModuleInit(): void {
    if (this.intervalMs <= 0) return;
    this.timer = setInterval(
      () => void this.run().catch((error: Error) => this.logger.warn(`Analytics maintenance failed: ${error.message}`)),
      this.intervalMs,
    );
    this.timer.unref();
  }

  onModuleDestroy(): void {
    if (this.timer) clearInterval(this.timer);
  }

  run(): Promise<MaintenanceResult> {
    this.running ??= this.maintain().finally(() => (this.running = null));
    return this.running;
  }

  private async maintain(): Promise<MaintenanceResult> {
    const now = this.clock.now();
    const today = utcDay(now);
    await this.ingest.flush();
    const closed: string[] = [];
    for (let back = CLOSE_LOOKBACK_DAYS; back >= 1; back -= 1) {
      const day = addDays(today, -back);
      const dayEnd = Date.parse(`${day}T00:00:00Z`) + DAY_MS;
      if (now < dayEnd + CLOSE_AFTER_MS) continue;
      if (await this.close(day, now)) closed.push(day);
    }
    const saltsDeleted = await this.salts.sweep(today);
    // A day closes at its end; its visitor-days go 48 h after that.
    const { deletedCount: visitorDaysDeleted } = await this.visitorDays.deleteMany({ day: { $lt: addDays(today, -2) } }).exec();
    this.ingest.forgetBefore(addDays(today, -1));
    const { retentionDays } = await this.settings.refresh();
    const oldest = addDays(today, -retentionDays);
    const [oldSummaries, oldCounters] = await Promise.all([
      this.summaries.deleteMany({ _id: { $lt: oldest } }).exec(),
      this.counters.deleteMany({ day: { $lt: oldest } }).exec(),
    ]);
    return { closed, saltsDeleted, visitorDaysDeleted, countersDeleted: oldSummaries.deletedCount + oldCounters.deletedCount };
  }

  /** Folds a finished day into its summary; false when it was closed already. */
  private async close(day: string, now: number): Promise<boolean> {
    if (await this.summaries.exists({ _id: day })) return false;
    const [counters, visitors] = await Promise.all([
      this.counters.find({ day }, { _id: 1, dim: 1, value: 1, n: 1 }).lean().exec(),
      this.visitorDays.countDocuments({ day }).exec(),
    ]);
    const counts: Array<[string, string, number]> = counters
      .filter((counter) => counter.n !== 0 && !(counter.dim === 'total' && counter.value === LIVE_VISITORS))
      .map((counter) => [counter.dim, counter.value, counter.n]);
    if (visitors) counts.push(['total', 'visitors', visitors]);
    try {
      await this.summaries.create({ _id: day, counts: JSON.stringify(counts), closedAt: new Date(now) });
    } catch (error) {
      if (isDuplicateKey(error)) return false;
      throw error;
    }
    // Only the counters folded in: one written by a late flush after the read stays, and is read beside the summary.
    await this.counters.deleteMany({ _id: { $in: counters.map((counter) => counter._id) } }).exec();
    return true;
  }
}
