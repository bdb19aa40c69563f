import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type { AdminOverviewResponse, OverviewSubscriptions, OverviewUsers } from '../../lib/api/overview.js';
import { signupSeries, utcDayStart } from '../../lib/overview/signups.js';
import { AnalyticsDashboardService } from '../analytics/analytics-dashboard.service.js';
import { BillingService } from '../billing/billing.service.js';
import { WebhookService } from '../billing/webhook.service.js';
import { UsersService } from '../users/users.service.js';
import { NewsletterService } from '../newsletter/newsletter.service.js';
import { LICENCE_ACTIVITY, type LicenceActivity } from './licence-activity.js';
import { MrrSnapshotService } from './mrr-snapshot.service.js';
import { DAY_MS } from '../../lib/time/utc-day.js';

/** How long an instance reuses a computed overview (0: never; the e2e suite asks for fresh figures). */
export const OVERVIEW_CACHE_MS = Symbol('OVERVIEW_CACHE_MS');

const DEFAULT_CACHE_MS = 30_000;
const SIGNUP_DAYS = 14;
const REVENUE_DAYS = 30;

/**
 * The key figures of /admin, computed from our own data in a few reads (counts and projected finds;
 * FerretDB has no `$facet`, so each figure is its own query and the arithmetic happens here). The
 * answer is kept in memory for 30 s per instance: several admins (or one reloading) cost one
 * computation, and a figure is at most 30 s old. It is a cache, never the only copy of anything.
 */
@Injectable()
export class AdminOverviewService {
  private readonly logger = new Logger('AdminOverview');
  private cached: { until: number; answer: Promise<AdminOverviewResponse> } | null = null;

  constructor(
    private readonly users: UsersService,
    private readonly billing: BillingService,
    private readonly webhooks: WebhookService,
    private readonly mrr: MrrSnapshotService,
    @Inject(LICENCE_ACTIVITY) private readonly licences: LicenceActivity,
    private readonly newsletter: NewsletterService,
    private readonly analytics: AnalyticsDashboardService,
    @Optional() @Inject(OVERVIEW_CACHE_MS) private readonly cacheMs: number = DEFAULT_CACHE_MS,
  ) {}

  /** The cached answer while it is fresh; concurrent callers share one computation. */
  overview(): Promise<AdminOverviewResponse> {
    const now = Date.now();
    if (this.cached && this.cached.until > now) return this.cached.answer;
    const answer = this.compute(new Date(now));
    const entry = { until: now + this.cacheMs, answer };
    this.cached = entry;
    // A partial answer (a section failed) is not kept: the next request tries again.
    void answer.then(
      (result) => {
        if (Object.values(result).includes(null) && this.cached === entry) this.cached = null;
      },
      () => {
        if (this.cached === entry) this.cached = null;
      },
    );
    return answer;
  }

  async compute(now = new Date()): Promise<AdminOverviewResponse> {
    const today = utcDayStart(now);
    const [users, subscriptions, mrr, revenue, activationsToday, webhooks, subscribers, traffic] = await Promise.all([
      this.section('users', () => this.usersFigures(now)),
      this.section('subscriptions', () => this.subscriptionFigures()),
      this.section('mrr', () => this.mrr.overview(now)),
      this.section('revenue', () => this.billing.revenueSince(new Date(now.getTime() - REVENUE_DAYS * DAY_MS))),
      this.section('licences', () => this.licences.activationsSince(today)),
      this.section('webhooks', () => this.webhooks.health()),
      this.section('newsletter', () => this.newsletter.counts()),
      this.section('analytics', () => this.analytics.todayFigures()),
    ]);
    return {
      asOf: now.toISOString(),
      users,
      subscriptions,
      mrr,
      revenue30d: revenue && { since: new Date(now.getTime() - REVENUE_DAYS * DAY_MS).toISOString(), currencies: revenue },
      licences: activationsToday === null ? null : { activationsToday },
      webhooks,
      newsletter: subscribers && { confirmed: subscribers.confirmed, pending: subscribers.pending },
      pageViewsToday: traffic && traffic.pageviews,
      visitorsToday: traffic && traffic.visitors,
    };
  }

  private async usersFigures(now: Date): Promise<OverviewUsers> {
    const { total, createdAt } = await this.users.signupsSince(utcDayStart(now, SIGNUP_DAYS - 1));
    const signups = signupSeries(createdAt, now, SIGNUP_DAYS);
    return {
      total,
      newToday: signups[signups.length - 1].count,
      new7d: signups.slice(-7).reduce((sum, day) => sum + day.count, 0),
      signups,
    };
  }

  private async subscriptionFigures(): Promise<OverviewSubscriptions> {
    const counts = await this.billing.subscriptionStatusCounts();
    return { active: counts.active ?? 0, trialing: counts.trialing ?? 0, pastDue: counts.past_due ?? 0 };
  }

  /** One failing figure must not blank the page: it answers null (its card shows an error) and is logged. */
  private async section<T>(name: string, compute: () => Promise<T>): Promise<T | null> {
    try {
      return await compute();
    } catch (error) {
      this.logger.warn(`Overview figure "${name}" failed: ${error instanceof Error ? error.message : String(error)}`);
      return null;
    }
  }
}
