import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { AnalyticsDashboardService } from '../analytics/analytics-dashboard.service.js';
import type { BillingService } from '../billing/billing.service.js';
import type { NewsletterService } from '../newsletter/newsletter.service.js';
import type { WebhookService } from '../billing/webhook.service.js';
import type { UsersService } from '../users/users.service.js';
import { AdminOverviewService } from './admin-overview.service.js';
import type { LicenceActivity } from './licence-activity.js';
import type { MrrSnapshotService } from './mrr-snapshot.service.js';

function makeService(cacheMs: number, failing: { webhooks?: boolean } = {}) {
  const calls = { users: 0, webhooks: 0 };
  const users = {
    signupsSince: async () => {
      calls.users += 1;
      return { total: 3, createdAt: [new Date()] };
    },
  } as unknown as UsersService;
  const billing = {
    subscriptionStatusCounts: async () => ({ active: 4, past_due: 1 }),
    revenueSince: async () => [],
  } as unknown as BillingService;
  const webhooks = {
    health: async () => {
      calls.webhooks += 1;
      if (failing.webhooks) throw new Error('inbox unreadable');
      return { configured: false, lastReceivedAt: null, failed: 0, dead: 0, unprocessed: 0 };
    },
  } as unknown as WebhookService;
  const mrr = {
    overview: async () => ({
      asOf: '',
      baselineDay: null,
      latestSnapshotDay: null,
      currencies: [],
      counts: { counted: 0, pastDue: 0, trialing: 0 },
      unpricedSubscriptions: 0,
    }),
  } as unknown as MrrSnapshotService;
  const licences: LicenceActivity = { activationsSince: async () => 2 };
  const newsletter = {
    counts: async () => ({ pending: 1, confirmed: 5, unsubscribed: 0, bounced: 0, complained: 0 }),
  } as unknown as NewsletterService;
  const analytics = { todayFigures: async () => ({ pageviews: 12, visitors: 5 }) } as unknown as AnalyticsDashboardService;
  return { service: new AdminOverviewService(users, billing, webhooks, mrr, licences, newsletter, analytics, cacheMs), calls };
}

describe('AdminOverviewService', () => {
  // The failing-figure case logs a warning by design.
  beforeAll(() => Logger.overrideLogger(false));
  afterAll(() => Logger.overrideLogger(['log', 'error', 'warn']));

  it('computes once per cache period, and concurrent callers share the computation', async () => {
    const { service, calls } = makeService(30_000);
    const [first, second] = await Promise.all([service.overview(), service.overview()]);
    const third = await service.overview();
    expect(calls.users).toBe(1);
    expect(second).toBe(first);
    expect(third).toBe(first);
    expect(first.subscriptions).toEqual({ active: 4, trialing: 0, pastDue: 1 });
    expect(first.users).toMatchObject({ total: 3, newToday: 1, new7d: 1 });
    expect(first.pageViewsToday).toBe(12);
    expect(first.visitorsToday).toBe(5);
  });

  it('computes afresh when the cache is off', async () => {
    const { service, calls } = makeService(0);
    await service.overview();
    await service.overview();
    expect(calls.users).toBe(2);
  });

  it('shows the kept answer at once however old, while it computes the next one; the next caller gets that one', async () => {
    const { service, calls } = makeService(20);
    const first = await service.overview();
    await new Promise((resolve) => setTimeout(resolve, 40));
    const stale = await service.overview();
    expect(stale).toBe(first); // at once, without waiting for the computation it started
    expect(calls.users).toBe(2);
    await new Promise((resolve) => setImmediate(resolve));
    const refreshed = await service.overview();
    expect(refreshed).not.toBe(first);
    expect(calls.users).toBe(2);
    // Long after (an idle evening): still at once, and refreshed behind it.
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await service.overview()).toBe(refreshed);
    expect(calls.users).toBe(3);
    await new Promise((resolve) => setImmediate(resolve));
    expect(await service.overview()).not.toBe(refreshed);
  });

  it('computes the first answer a few seconds after start-up, so the first admin does not wait; not when the cache is off', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate', 'nextTick'] });
    try {
      const { service, calls } = makeService(30_000);
      service.onApplicationBootstrap();
      jest.advanceTimersByTime(4_000);
      expect(calls.users).toBe(0);
      jest.advanceTimersByTime(1_000);
      expect(calls.users).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      await service.overview();
      expect(calls.users).toBe(1);
      await service.onModuleDestroy();

      const off = makeService(0);
      off.service.onApplicationBootstrap();
      jest.advanceTimersByTime(60_000);
      expect(off.calls.users).toBe(0);
      await off.service.onModuleDestroy();
    } finally {
      jest.useRealTimers();
    }
  });

  it('answers null for a figure that failed, keeps the others, and does not keep the partial answer', async () => {
    const { service, calls } = makeService(30_000, { webhooks: true });
    const answer = await service.overview();
    expect(answer.webhooks).toBeNull();
    expect(answer.licences).toEqual({ activationsToday: 2 });
    await new Promise((resolve) => setImmediate(resolve));
    await service.overview();
    expect(calls.webhooks).toBe(2);
  });
});
