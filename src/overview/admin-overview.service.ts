import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
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
 * The 30 days' revenue is summed two days at a time, so that requests go in between
 * (revenueSince): a week's sum, read cold from disk at 100 000 users, held the one connection for
 * 57 ms, and the sign-in that waited behind it took 80 ms.
 */
const REVENUE_PART_DAYS = 2;

/**
 * After start-up, the first overview is computed in the background this much later (when the cache
 * is on): the first administrator to open /admin does not wait for live MRR over every subscription.
 */
const WARM_UP_MS = 5_000;

/**
 * The key figures of /admin, computed from our own data in a few reads (counts and projected finds;
 * FerretDB has no `$facet`, so each figure is its own query and the arithmetic happens here). The
 * answer is kept in memory for 30 s per instance: several admins (or one reloading) cost one
 * computation, and a figure is at most 30 s old. After that, the kept answer is still shown at once
 * (its `asOf` says when it was computed, and the page asks again until it is fresh) while the next
 * one is computed in the background: MRR is computed live from every subscription, which takes
 * 1.6 s at 100 000 users on the embedded database, and no admin should wait for that. The first
 * answer is computed a few seconds after start-up for the same reason. It is a cache, never the
 * only copy of anything; a partial answer (a section failed) is shown once and never kept.
 */
@Injectable()
export class AdminOverviewService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('AdminOverview');
  private warmUp: NodeJS.Timeout | null = null;
  /** The last complete answer and when its computation started. */
  private kept: { at: number; answer: AdminOverviewResponse } | null = null;
  private computing: Promise<AdminOverviewResponse> | null = null;

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

  onApplicationBootstrap(): void {
    if (this.cacheMs <= 0) return;
    this.warmUp = setTimeout(() => {
      if (!this.kept && !this.computing) this.start(Date.now());
    }, WARM_UP_MS);
    this.warmUp.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.warmUp) clearTimeout(this.warmUp);
    await this.computing?.catch(() => undefined);
  }

  /**
   * The kept answer: as it is while fresh; once older than the cache period, still at once while the
   * next one is computed. Without one, the computation under way (callers share it).
   */
  overview(): Promise<AdminOverviewResponse> {
    const now = Date.now();
    const kept = this.kept;
    if (kept && now - kept.at < this.cacheMs) return Promise.resolve(kept.answer);
    const computing = this.computing ?? this.start(now);
    return kept ? Promise.resolve(kept.answer) : computing;
  }

  private start(now: number): Promise<AdminOverviewResponse> {
    const computing = this.compute(new Date(now))
      .then((answer) => {
        if (this.cacheMs > 0 && !Object.values(answer).includes(null)) this.kept = { at: now, answer };
        return answer;
      })
      .finally(() => {
        if (this.computing === computing) this.computing = null;
      });
    this.computing = computing;
    // A refresh nobody waits for must not become an unhandled rejection.
    computing.catch((error: Error) => this.logger.warn(`Overview not computed: ${error.message}`));
    return computing;
  }

  async compute(now = new Date()): Promise<AdminOverviewResponse> {
    const today = utcDayStart(now);
    // One section after the other: the overview is computed in the background, and on the embedded
    // database's one connection every command of a person's request waits for the overview's
    // commands queued before it. All eight at once put a burst of some twenty ahead of a sign-in (98
    // ms instead of 20–37 at 100 000 users); one at a time, the sign-in waits for one.
    const users = await this.section('users', () => this.usersFigures(now));
    const subscriptions = await this.section('subscriptions', () => this.subscriptionFigures());
    const mrr = await this.section('mrr', () => this.mrr.overview(now));
    const revenue = await this.section('revenue', () =>
      this.billing.revenueSince(new Date(now.getTime() - REVENUE_DAYS * DAY_MS), undefined, REVENUE_PART_DAYS * DAY_MS),
    );
    const activationsToday = await this.section('licences', () => this.licences.activationsSince(today));
    const webhooks = await this.section('webhooks', () => this.webhooks.health());
    const subscribers = await this.section('newsletter', () => this.newsletter.counts());
    const traffic = await this.section('analytics', () => this.analytics.todayFigures());
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
