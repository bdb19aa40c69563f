import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { customRangeProblem, type DayRange, presetRange, previousRange } from '../../lib/analytics/range.js';
import { addDays, eachDay, utcDay } from '../../lib/time/utc-day.js';
import {
  ANALYTICS_DIMENSIONS,
  type AnalyticsBusiness,
  type AnalyticsDashboard,
  type AnalyticsDay,
  type AnalyticsDimension,
  type AnalyticsKpis,
  type AnalyticsQuery,
  type AnalyticsRealtime,
  type AnalyticsRow,
  DROP_REASONS,
  type DropReason,
} from '../../lib/api/analytics.js';
import { BillingService } from '../billing/billing.service.js';
import { fieldError } from '../common/validation.js';
import { UsersService } from '../users/users.service.js';
import { ANALYTICS_CLOCK, type Clock } from './clock.js';
import { AnalyticsSettingsService } from './analytics-settings.service.js';
import { CLOSE_LOOKBACK_DAYS } from './analytics-maintenance.service.js';
import { type ClosedDay, ClosedDaysCache, type DayCount } from './closed-days-cache.js';
import { AnalyticsIngestService, LIVE_VISITORS } from './ingest.service.js';
import { AnalyticsCounter, AnalyticsDaySummary } from './schemas/analytics-counter.schema.js';
import { VisitorDay } from './schemas/visitor-day.schema.js';

/** Rows per dimension in the dashboard (the CSV export has them all). */
const TABLE_ROWS = 50;
const REALTIME_MS = 5 * 60_000;

interface Count {
  day: string;
  dim: string;
  value: string;
  n: number;
}

const emptyKpis = (): AnalyticsKpis => ({ pageviews: 0, visitors: 0, visits: 0, bounces: 0, bounceRate: null, viewsPerVisit: null });

function finishKpis(kpis: AnalyticsKpis): AnalyticsKpis {
  return {
    ...kpis,
    bounceRate: kpis.visits ? Math.min(1, Math.max(0, kpis.bounces / kpis.visits)) : null,
    viewsPerVisit: kpis.visits ? kpis.pageviews / kpis.visits : null,
  };
}

const parseClosedDay = (day: string, json: string): ClosedDay => ({ day, counts: JSON.parse(json) as DayCount[], bytes: json.length });

/** Everything counted over a range, in full: the dashboard keeps the top rows, the CSV all of them. */
export interface AnalyticsReport extends Omit<AnalyticsDashboard, 'tables'> {
  tables: Record<AnalyticsDimension, AnalyticsRow[]>;
}

/**
 * The dashboard, computed in app code from a few reads (FerretDB-safe: finds by `_id` and by day):
 * closed days as one summary document each (parsed once and kept in memory), open days' counters
 * (with their live unique-visitor counter), and this instance's counts not yet flushed.
 */
@Injectable()
export class AnalyticsDashboardService {
  private readonly logger = new Logger('AnalyticsDashboard');

  constructor(
    @InjectModel(AnalyticsCounter.name) private readonly counters: Model<AnalyticsCounter>,
    @InjectModel(AnalyticsDaySummary.name) private readonly summaries: Model<AnalyticsDaySummary>,
    @InjectModel(VisitorDay.name) private readonly visitorDays: Model<VisitorDay>,
    private readonly ingest: AnalyticsIngestService,
    private readonly users: UsersService,
    private readonly billing: BillingService,
    private readonly settings: AnalyticsSettingsService,
    @Inject(ANALYTICS_CLOCK) private readonly clock: Clock,
  ) {}

  /** Parsed summaries of closed days: they never change once written (see {@link ClosedDaysCache}). */
  readonly closedDays = new ClosedDaysCache();

  today(): string {
    return utcDay(this.clock.now());
  }

  /** The days of a query (validated by the DTO's formats): a preset, a custom range, or the last 30 days; a field error otherwise. */
  rangeOf(query: AnalyticsQuery): DayRange {
    const today = this.today();
    if (query.preset) {
      if (query.from || query.to) throw fieldError('preset', 'Give either a preset or from and to, not both');
      return presetRange(query.preset, Date.parse(`${today}T12:00:00Z`));
    }
    if (!query.from && !query.to) return presetRange('30d', Date.parse(`${today}T12:00:00Z`));
    const problem = customRangeProblem(query.from, query.to, today);
    if (problem) throw fieldError(query.from ? 'to' : 'from', problem);
    return { from: query.from!, to: query.to! };
  }

  /** Every count of the days `from`..`to`. */
  async counts(from: string, to: string): Promise<Count[]> {
    const counts: Count[] = [];
    await this.eachCount(from, to, (day, dim, value, n) => counts.push({ day, dim, value, n }));
    return counts;
  }

  /**
   * Calls `visit` for every count of the days `from`..`to`: closed days from their summaries
   * (parsed once and kept, see {@link ClosedDaysCache}; only the days not known yet are read), then
   * the counters of open days and late counters of closed ones, this instance's unflushed counts,
   * and the unique visitors of the days not closed yet (their live counter), all read now.
   */
  private async eachCount(from: string, to: string, visit: (day: string, dim: string, value: string, n: number) => void): Promise<void> {
    const now = this.clock.now();
    const today = utcDay(now);
    // Summaries before this are deleted by the retention sweep (or about to be): read, never kept.
    const oldest = addDays(today, -this.settings.current().retentionDays);
    // No day close writes a summary for a day before this any more.
    const settled = addDays(today, -CLOSE_LOOKBACK_DAYS);
    this.closedDays.forgetBefore(oldest);
    // Today has no summary in practice (a day closes after it ends), but asking for it by `_id` is cheap.
    const days = eachDay(from, to);
    const known: ClosedDay[] = [];
    const unknown: string[] = [];
    for (const day of days) {
      const cacheable = day >= oldest;
      const hit = cacheable ? this.closedDays.get(day) : undefined;
      if (hit) known.push(hit);
      else if (!cacheable || !this.closedDays.isKnownAbsent(day, now)) unknown.push(day);
    }
    const [stored, open] = await Promise.all([
      unknown.length
        ? this.summaries
            .find({ _id: unknown.length === 1 ? unknown[0] : { $in: unknown } }, { counts: 1 })
            .lean()
            .exec()
        : Promise.resolve([]),
      this.counters
        .find({ day: { $gte: from, $lte: to } }, { _id: 0, day: 1, dim: 1, value: 1, n: 1 })
        .lean()
        .exec(),
    ]);
    const closedDays = new Set<string>(known.map((entry) => entry.day));
    for (const summary of stored) {
      closedDays.add(summary._id);
      known.push(summary._id >= oldest ? this.closedDays.add(summary._id, summary.counts) : parseClosedDay(summary._id, summary.counts));
    }
    for (const day of unknown) if (!closedDays.has(day) && day >= oldest && day < settled) this.closedDays.markAbsent(day, now);
    for (const { day, counts } of known) for (const [dim, value, n] of counts) visit(day, dim, value, n);
    // New visitor-days as counted when inserted: the unique visitors of the days not closed yet.
    const liveVisitors = new Map<string, number>();
    const visitOpen = (day: string, dim: string, value: string, n: number) => {
      if (dim === 'total' && value === LIVE_VISITORS) liveVisitors.set(day, (liveVisitors.get(day) ?? 0) + n);
      else visit(day, dim, value, n);
    };
    for (const counter of open) visitOpen(counter.day, counter.dim, counter.value, counter.n);
    for (const pending of this.ingest.buffered())
      if (pending.day >= from && pending.day <= to) visitOpen(pending.day, pending.dim, pending.value, pending.n);
    // Unique visitors of days not closed yet: their live counter, or (none yet, e.g. visitor-days
    // written before the counter existed) their visitor-days, counted now.
    const openDays = eachDay(from, to).filter((day) => !closedDays.has(day) && day <= today && day >= addDays(today, -2));
    const visitors = await Promise.all(openDays.map((day) => liveVisitors.get(day) ?? this.visitorDays.countDocuments({ day }).exec()));
    openDays.forEach((day, index) => {
      if (visitors[index]) visit(day, 'total', 'visitors', visitors[index]);
    });
  }

  /** The dashboard of a range (at most 366 days, validated by the caller) and the period before it. */
  async report(range: DayRange): Promise<AnalyticsReport> {
    const started = performance.now();
    const previous = previousRange(range);
    const kpis = emptyKpis();
    const previousKpis = emptyKpis();
    const series = new Map<string, AnalyticsDay>(
      eachDay(range.from, range.to).map((day) => [day, { day, pageviews: 0, visitors: 0, visits: 0 }]),
    );
    const tables = new Map<string, Map<string, { count: number; previous: number }>>();
    const drops = new Map<string, { count: number; previous: number }>();
    const add = (day: string, dim: string, value: string, n: number) => {
      const current = day >= range.from;
      if (dim === 'total') {
        const target = current ? kpis : previousKpis;
        if (value === 'pageviews' || value === 'visitors' || value === 'visits' || value === 'bounces') target[value] += n;
        const point = current ? series.get(day) : undefined;
        if (point && (value === 'pageviews' || value === 'visitors' || value === 'visits')) point[value] += n;
        return;
      }
      let table = dim === 'drop' ? drops : tables.get(dim);
      if (!table) tables.set(dim, (table = new Map()));
      const row = table.get(value);
      if (!row) table.set(value, current ? { count: n, previous: 0 } : { count: 0, previous: n });
      else if (current) row.count += n;
      else row.previous += n;
    };
    const [business] = await Promise.all([this.business(range, previous), this.eachCount(previous.from, range.to, add)]);
    const rowsOf = (table: Map<string, { count: number; previous: number }> | undefined): AnalyticsRow[] =>
      [...(table ?? new Map<string, { count: number; previous: number }>())]
        .map(([value, row]) => ({ value, ...row }))
        .filter((row) => row.count > 0)
        .sort((a, b) => b.count - a.count || a.value.localeCompare(b.value));
    return {
      from: range.from,
      to: range.to,
      previousFrom: previous.from,
      previousTo: previous.to,
      kpis: finishKpis(kpis),
      previousKpis: finishKpis(previousKpis),
      series: [...series.values()],
      tables: Object.fromEntries(ANALYTICS_DIMENSIONS.map((dim) => [dim, rowsOf(tables.get(dim))])) as Record<
        AnalyticsDimension,
        AnalyticsRow[]
      >,
      drops: DROP_REASONS.map((reason: DropReason) => ({
        reason,
        count: drops.get(reason)?.count ?? 0,
        previous: drops.get(reason)?.previous ?? 0,
      })),
      business,
      tookMs: Math.round((performance.now() - started) * 10) / 10,
    };
  }

  async dashboard(range: DayRange): Promise<AnalyticsDashboard> {
    const report = await this.report(range);
    const tables = Object.fromEntries(Object.entries(report.tables).map(([dim, rows]) => [dim, rows.slice(0, TABLE_ROWS)])) as Record<
      AnalyticsDimension,
      AnalyticsRow[]
    >;
    return { ...report, tables };
  }

  /** Visitors with a page view in the last 5 minutes. */
  async realtime(): Promise<AnalyticsRealtime> {
    const now = this.clock.now();
    const since = now - REALTIME_MS;
    const days = [...new Set([utcDay(since), utcDay(now)])];
    const stored = await this.visitorDays
      .find({ day: { $in: days }, lastAt: { $gte: new Date(since) } }, { _id: 1 })
      .lean()
      .exec();
    const keys = new Set(stored.map((doc) => doc._id));
    for (const key of this.ingest.recentVisitorKeys(since)) keys.add(key);
    return { visitors: keys.size, asOf: new Date(now).toISOString() };
  }

  /** Today's page views and unique visitors, for the admin overview. */
  async todayFigures(): Promise<{ pageviews: number; visitors: number }> {
    const today = this.today();
    const counts = await this.counts(today, today);
    let pageviews = 0;
    let visitors = 0;
    for (const count of counts) {
      if (count.dim !== 'total') continue;
      if (count.value === 'pageviews') pageviews += count.n;
      if (count.value === 'visitors') visitors += count.n;
    }
    return { pageviews, visitors };
  }

  /** Sign-ups, orders and revenue from our own data; null when they could not be read. */
  private async business(range: DayRange, previous: DayRange): Promise<AnalyticsBusiness | null> {
    const start = (day: string) => new Date(`${day}T00:00:00Z`);
    try {
      const end = start(addDays(range.to, 1));
      const from = start(range.from);
      const [signups, previousSignups, revenue, previousRevenue] = await Promise.all([
        this.users.countCreatedBetween(from, end),
        this.users.countCreatedBetween(start(previous.from), from),
        this.billing.revenueSince(from, end),
        this.billing.revenueSince(start(previous.from), from),
      ]);
      return { signups, previousSignups, revenue, previousRevenue };
    } catch (error) {
      this.logger.warn(`Sign-ups and revenue not read: ${(error as Error).message}`);
      return null;
    }
  }
}
