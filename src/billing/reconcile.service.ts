import { Inject, Injectable, Logger, type OnModuleDestroy, type OnModuleInit, Optional } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type Stripe from 'stripe';
import { isDuplicateKey } from '../database/upsert.js';
import { LIVE_STATUSES } from './billing.service.js';
import { BillingSetting, SubscriptionMirror } from './schemas/billing.schemas.js';
import { STRIPE_CLIENT } from './stripe-client.js';
import { StripeEventsService } from './stripe-events.service.js';
import { BILLING_POLL_MS } from './billing-poll.js';

const HOUR_MS = 3_600_000;

/**
 * Once a day, every running subscription is fetched from Stripe and written to the mirror: what a
 * lost webhook (an endpoint down for longer than Stripe retries, a misconfigured secret) left
 * stale is corrected within a day. One instance does it per day: the day is claimed by inserting
 * `reconcile:<yyyy-mm-dd>` (P1); an instance that dies half-way leaves the rest to the next day.
 */
@Injectable()
export class ReconcileService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('StripeReconcile');
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<unknown> | null = null;

  constructor(
    @InjectModel(SubscriptionMirror.name) private readonly subscriptions: Model<SubscriptionMirror>,
    @InjectModel(BillingSetting.name) private readonly settings: Model<BillingSetting>,
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    private readonly events: StripeEventsService,
    @Optional() @Inject(BILLING_POLL_MS) private readonly pollMs?: number,
  ) {}

  onModuleInit(): void {
    if (!this.stripe || this.pollMs === 0) return;
    this.timer = setInterval(() => {
      this.running ??= this.reconcile()
        .catch((error: Error) => this.logger.warn(`Reconcile failed: ${error.message}`))
        .finally(() => (this.running = null));
    }, HOUR_MS);
    this.timer.unref();
  }

  async onModuleDestroy(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** Answers how many subscriptions were refreshed; 0 when today's run is another instance's (or done). */
  async reconcile(now = new Date()): Promise<number> {
    if (!this.stripe) return 0;
    try {
      await this.settings.create({ _id: `reconcile:${now.toISOString().slice(0, 10)}`, value: now.toISOString() });
    } catch (error) {
      if (isDuplicateKey(error)) return 0;
      throw error;
    }
    const running = await this.subscriptions
      .find({ status: { $in: LIVE_STATUSES } }, { _id: 1 })
      .lean<SubscriptionMirror[]>()
      .exec();
    let refreshed = 0;
    for (const { _id } of running) {
      try {
        const subscription = await this.stripe.subscriptions.retrieve(_id);
        await this.events.syncFromApi(subscription as unknown as Record<string, unknown>, Math.floor(now.getTime() / 1000));
        refreshed += 1;
      } catch (error) {
        this.logger.warn(`Reconcile of ${_id} failed: ${(error as Error).message}`);
      }
    }
    if (refreshed) this.logger.log(`Reconciled ${refreshed} of ${running.length} running subscriptions with Stripe`);
    return refreshed;
  }
}
