import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SubscriptionStatus } from '../../lib/api/billing.js';
import type { MrrCurrencyView, MrrOverviewResponse, MrrSnapshotRunResponse } from '../../lib/api/overview.js';
import {
  addMovements,
  classifyMovements,
  computeMrr,
  customersStarting,
  type MrrContribution,
  type MrrDay,
  type MrrPrice,
  type Movements,
  noMovements,
} from '../../lib/mrr/mrr-rules.js';
import { DAY_MS, utcDay } from '../../lib/time/utc-day.js';
import { BillingService } from '../billing/billing.service.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { isDuplicateKey, upsertWithRetry } from '../database/upsert.js';
import { MrrCustomer, MrrSnapshot } from './schemas/mrr-snapshot.schema.js';

/** How often an instance checks whether today's snapshot exists (0: never; the tests take them by hand). */
export const MRR_SNAPSHOT_POLL_MS = Symbol('MRR_SNAPSHOT_POLL_MS');

const HOUR_MS = 3_600_000;
/** The first check after start-up, so a fresh deployment has today's snapshot without waiting an hour. */
const FIRST_CHECK_MS = 60_000;
const WINDOW_DAYS = 30;

/** Read from the mirror: the statuses MRR counts, and trialing (shown beside it, never counted). */
const READ_STATUSES: readonly SubscriptionStatus[] = ['active', 'past_due', 'trialing'];

export const dayOf = (at: Date): string => utcDay(at);
const snapshotId = (day: string) => `mrr:${day}`;

type SnapshotSummary = Pick<MrrSnapshot, 'day' | 'previousDay' | 'totals' | 'movements'>;
const SUMMARY = { day: 1, previousDay: 1, totals: 1, movements: 1 } as const;

/**
 * Daily MRR snapshots and the overview's MRR figures. The snapshot of a UTC day is the mirror as
 * the first check of that day finds it (hourly on every instance, plus on demand); it is inserted
 * under `mrr:<day>`, so when several instances compute it at once exactly one insert wins and a
 * re-run for the day is a no-op. "Now" is always computed live, the same way.
 */
@Injectable()
export class MrrSnapshotService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('MrrSnapshots');
  private timers: NodeJS.Timeout[] = [];
  private running: Promise<unknown> | null = null;

  constructor(
    @InjectModel(MrrSnapshot.name) private readonly snapshots: Model<MrrSnapshot>,
    @InjectModel(MrrCustomer.name) private readonly customers: Model<MrrCustomer>,
    private readonly billing: BillingService,
    private readonly catalogue: CatalogueService,
    @Optional() @Inject(MRR_SNAPSHOT_POLL_MS) private readonly pollMs: number = HOUR_MS,
  ) {}

  onApplicationBootstrap(): void {
    if (this.pollMs === 0) return;
    const check = () => {
      this.running ??= this.runDaily()
        .catch((error: Error) => this.logger.warn(`MRR snapshot failed: ${error.message}`))
        .finally(() => (this.running = null));
    };
    this.timers = [setTimeout(check, Math.min(FIRST_CHECK_MS, this.pollMs)), setInterval(check, this.pollMs)];
    for (const timer of this.timers) timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    await this.running;
  }

  /** Every subscription the mirror holds, valued at `asOf` with its plan's price from the catalogue. */
  async compute(asOf = new Date()): Promise<MrrDay> {
    const [rows, { plans }] = await Promise.all([this.billing.subscriptionsForMetrics(READ_STATUSES), this.catalogue.list()]);
    const prices = new Map<string, MrrPrice>(
      plans.map((plan) => [plan.id, { amountMinor: plan.amountMinor, currency: plan.currency, interval: plan.interval }]),
    );
    return computeMrr(
      rows.map((row) => ({ ...row, price: (row.planId && prices.get(row.planId)) || null })),
      asOf,
    );
  }

  /** Today's snapshot (UTC), unless it exists: never rewritten, so running this again changes nothing. */
  async runDaily(now = new Date()): Promise<MrrSnapshotRunResponse> {
    const day = dayOf(now);
    const _id = snapshotId(day);
    if (await this.snapshots.exists({ _id }).exec()) return { day, created: false };
    const computed = await this.compute(now);
    const previous = await this.snapshots
      .findOne({ _id: { $lt: _id } }, { day: 1, subscriptions: 1 })
      .sort({ _id: -1 })
      .lean<Pick<MrrSnapshot, 'day' | 'subscriptions'>>()
      .exec();
    let movements: MrrSnapshot['movements'] = null;
    if (previous) {
      await this.repairFirstDays(previous);
      const hadMrr = await this.hadMrrBefore(previous.subscriptions, computed.contributions, day);
      movements = [...classifyMovements(previous.subscriptions, computed.contributions, hadMrr)]
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([currency, moved]) => ({ currency, ...moved }));
    }
    try {
      await this.snapshots.create({
        _id,
        day,
        asOf: now,
        previousDay: previous?.day ?? null,
        totals: computed.totals,
        movements,
        counts: computed.counts,
        subscriptions: computed.contributions,
      });
    } catch (error) {
      if (isDuplicateKey(error)) return { day, created: false };
      throw error;
    }
    // Only the winner records first days, so a losing instance's (possibly different) reading of the
    // mirror leaves no trace; a crash before this line is repaired by the next day's run.
    await this.recordFirstDays(customersStarting(previous?.subscriptions ?? [], computed.contributions), day);
    this.logger.log(`MRR snapshot ${day}: ${computed.contributions.length} paying subscriptions`);
    return { day, created: true };
  }

  /**
   * MRR now, its change since the baseline snapshot (the newest at least 30 days old, else the
   * oldest) and the movements in between: the stored daily movements along the chain of snapshots,
   * plus the movements from the newest snapshot to now. Per currency they add up to the change.
   */
  async overview(now = new Date()): Promise<MrrOverviewResponse> {
    const live = await this.compute(now);
    const latest = await this.snapshots.findOne({}).sort({ _id: -1 }).lean<MrrSnapshot>().exec();
    const base = {
      asOf: now.toISOString(),
      latestSnapshotDay: latest?.day ?? null,
      counts: { counted: live.counts.counted, pastDue: live.counts.pastDue, trialing: live.counts.trialing },
      unpricedSubscriptions: live.counts.unpriced,
    };
    if (!latest) {
      const currencies = live.totals.map((total) => ({ ...total, change30dMinor: null, movements: null }));
      return { ...base, baselineDay: null, currencies };
    }

    const windowStart = snapshotId(dayOf(new Date(now.getTime() - WINDOW_DAYS * DAY_MS)));
    const baseline = (await this.summary({ _id: { $lte: windowStart } }, -1)) ?? (await this.summary({}, 1)) ?? (latest as SnapshotSummary);
    const chain = await this.snapshots
      .find({ _id: { $gt: snapshotId(baseline.day), $lte: snapshotId(latest.day) } }, SUMMARY)
      .lean<SnapshotSummary[]>()
      .exec();
    const byDay = new Map(chain.map((snapshot) => [snapshot.day, snapshot]));

    // Walk back from the newest snapshot along `previousDay` links. A link that jumps past the
    // baseline makes the snapshot it leaves from the baseline, so the sum stays exact.
    let from: SnapshotSummary = baseline;
    const steps: SnapshotSummary[] = [];
    for (let step = byDay.get(latest.day); step;) {
      if (step.previousDay === baseline.day) {
        steps.push(step);
        break;
      }
      const earlier = step.previousDay ? byDay.get(step.previousDay) : undefined;
      if (!earlier || !step.movements) {
        from = step;
        break;
      }
      steps.push(step);
      step = earlier;
    }
    const moved = new Map<string, Movements>();
    const add = (currency: string, movements: Movements) => {
      if (!moved.has(currency)) moved.set(currency, noMovements());
      addMovements(moved.get(currency)!, movements);
    };
    for (const step of steps) for (const { currency, ...movements } of step.movements ?? []) add(currency, movements);
    const hadMrr = await this.hadMrrBefore(latest.subscriptions, live.contributions, dayOf(now));
    for (const [currency, movements] of classifyMovements(latest.subscriptions, live.contributions, hadMrr)) add(currency, movements);

    const nowTotals = new Map(live.totals.map((total) => [total.currency, total]));
    const fromTotals = new Map(from.totals.map((total) => [total.currency, total.mrrMinor]));
    const currencies: MrrCurrencyView[] = [...new Set([...nowTotals.keys(), ...fromTotals.keys(), ...moved.keys()])]
      .sort()
      .map((currency) => {
        const mrrMinor = nowTotals.get(currency)?.mrrMinor ?? 0;
        return {
          currency,
          mrrMinor,
          subscriptions: nowTotals.get(currency)?.subscriptions ?? 0,
          change30dMinor: mrrMinor - (fromTotals.get(currency) ?? 0),
          movements: moved.get(currency) ?? noMovements(),
        };
      });
    return { ...base, baselineDay: from.day, currencies };
  }

  private summary(filter: Record<string, unknown>, order: 1 | -1): Promise<SnapshotSummary | null> {
    return this.snapshots.findOne(filter, SUMMARY).sort({ _id: order }).lean<SnapshotSummary>().exec();
  }

  /** Had the customer MRR before `day`: in `before`, or on record with an earlier first day. */
  private async hadMrrBefore(before: readonly MrrContribution[], after: readonly MrrContribution[], day: string) {
    const had = new Set(before.map((entry) => entry.customerId));
    const starting = customersStarting(before, after);
    if (starting.length) {
      const known = await this.customers
        .find({ _id: { $in: starting }, firstDay: { $lt: day } }, { _id: 1 })
        .lean<Pick<MrrCustomer, '_id'>[]>()
        .exec();
      for (const { _id } of known) had.add(_id);
    }
    return (customerId: string) => had.has(customerId);
  }

  /**
   * Records the first days of the customers who started in `snapshot`, as its own run did unless it
   * stopped between its insert and that write. Idempotent (`$setOnInsert`): usually it writes nothing.
   */
  private async repairFirstDays(snapshot: Pick<MrrSnapshot, 'day' | 'subscriptions'>): Promise<void> {
    const before = await this.snapshots
      .findOne({ _id: { $lt: snapshotId(snapshot.day) } }, { subscriptions: 1 })
      .sort({ _id: -1 })
      .lean<Pick<MrrSnapshot, 'subscriptions'>>()
      .exec();
    await this.recordFirstDays(customersStarting(before?.subscriptions ?? [], snapshot.subscriptions), snapshot.day);
  }

  private async recordFirstDays(customerIds: string[], day: string): Promise<void> {
    if (!customerIds.length) return;
    const operations = customerIds.map((_id) => ({
      updateOne: { filter: { _id }, update: { $setOnInsert: { firstDay: day } }, upsert: true },
    }));
    // Another instance recording the same customers at once can win an insert: the retry finds theirs.
    await upsertWithRetry(() => this.customers.bulkWrite(operations, { ordered: true }));
  }
}
