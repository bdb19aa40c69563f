import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { type DayRange, previousRange } from '../../lib/analytics/range.js';
import { addDays, eachDay, utcDay } from '../../lib/time/utc-day.js';
import {
  ANALYTICS_DIMENSIONS,
  type AnalyticsBusiness,
  type AnalyticsDashboard,
  type AnalyticsDay,
  type AnalyticsDimension,
  type AnalyticsKpis,
  type AnalyticsRealtime,
  type AnalyticsRow,
  DROP_REASONS,
  type DropReason,
} from '../../lib/api/analytics.js';
import { BillingService } from '../billing/billing.service.js';
import { UsersService } from '../users/users.service.js';
import { ANALYTICS_CLOCK, type Clock } from './clock.js';
import { AnalyticsIngestService } from './ingest.service.js';
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

/** Everything counted over a range, in full: the dashboard keeps the top rows, the CSV all of them. */
export interface AnalyticsReport extends Omit<AnalyticsDashboard, 'tables'> {
  tables: Record<AnalyticsDimension, AnalyticsRow[]>;
}

/**
 * The dashboard, computed in app code from a few reads (FerretDB-safe: finds by `_id` range and by
 * day, a count per open day): closed days as one summary document each, open days' counters, the
 * unique visitors of days not closed yet, and this instance's counts not yet flushed.
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
    @Inject(ANALYTICS_CLOCK) private readonly clock: Clock,
  ) {}

  today(): string {
    return utcDay(this.clock.now());
  }

  /** Every count of the days `from`..`to`. */
  async counts(from: string, to: string): Promise<Count[]> {
    const [closed, open] = await Promise.all([
      this.summaries
        .find({ _id: { $gte: from, $lte: to } })
        .lean()
        .exec(),
      this.counters
        .find({ day: { $gte: from, $lte: to } }, { _id: 0, day: 1, dim: 1, value: 1, n: 1 })
        .lean()
        .exec(),
    ]);
    const counts: Count[] = [];
    const closedDays = new Set<string>();
    for (const summary of closed) {
      closedDays.add(summary._id);
      for (const [dim, value, n] of JSON.parse(summary.counts) as Array<[string, string, number]>)
        counts.push({ day: summary._id, dim, value, n });
    }
    for (const counter of open) counts.push({ day: counter.day, dim: counter.dim, value: counter.value, n: counter.n });
    for (const pending of this.ingest.buffered()) if (pending.day >= from && pending.day <= to) counts.push(pending);
    // Unique visitors of days not closed yet: their visitor-days, counted now.
    const openDays = eachDay(from, to).filter((day) => !closedDays.has(day) && day <= this.today() && day >= addDays(this.today(), -2));
    const visitors = await Promise.all(openDays.map((day) => this.visitorDays.countDocuments({ day }).exec()));
    openDays.forEach((day, index) => {
      if (visitors[index]) counts.push({ day, dim: 'total', value: 'visitors', n: visitors[index] });
    });
    return counts;
  }

  /** The dashboard of a range (at most 366 days, validated by the caller) and the period before it. */
  async report(range: DayRange): Promise<AnalyticsReport> {
    const started = performance.now();
    const previous = previousRange(range);
    const [counts, business] = await Promise.all([this.counts(previous.from, range.to), this.business(range, previous)]);

    const kpis = emptyKpis();
    const previousKpis = emptyKpis();
    const series = new Map<string, AnalyticsDay>(
      eachDay(range.from, range.to).map((day) => [day, { day, pageviews: 0, visitors: 0, visits: 0 }]),
    );
    const tables = new Map<string, Map<string, { count: number; previous: number }>>();
    const drops = new Map<string, { count: number; previous: number }>();
    for (const { day, dim, value, n } of counts) {
      const current = day >= range.from;
      if (dim === 'total') {
        const target = current ? kpis : previousKpis;
        if (value === 'pageviews' || value === 'visitors' || value === 'visits' || value === 'bounces') target[value] += n;
        const point = current ? series.get(day) : undefined;
        if (point && (value === 'pageviews' || value === 'visitors' || value === 'visits')) point[value] += n;
        continue;
      }
      const table = dim === 'drop' ? drops : (tables.get(dim) ?? tables.set(dim, new Map()).get(dim)!);
      const row = table.get(value) ?? { count: 0, previous: 0 };
      if (current) row.count += n;
      else row.previous += n;
      table.set(value, row);
    }
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
      const [{ createdAt }, revenue, previousRevenue] = await Promise.all([
        this.users.signupsSince(start(previous.from)),
        this.billing.revenueSince(from, end),
        this.billing.revenueSince(start(previous.from), from),
      ]);
      return {
        signups: createdAt.filter((at) => at >= from && at < end).length,
        previousSignups: createdAt.filter((at) => at < from).length,
        revenue,
        previousRevenue,
      };
    } catch (error) {
      this.logger.warn(`Sign-ups and revenue not read: ${(error as Error).message}`);
      return null;
    }
  }
}
