import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type Stripe from 'stripe';
import { type AccountDataContributor, AccountDataPart } from '../account-data/account-data.contributor.js';
import { LIVE_STATUSES, toOrderView } from './billing.service.js';
import { BillingCustomer, Order, SubscriptionMirror } from './schemas/billing.schemas.js';
import { STRIPE_CLIENT } from './stripe-client.js';
import { SubscriptionReadCache } from './subscription-read-cache.js';

/**
 * Orders are accounting records and stay (tax law asks for them), detached from the person: the
 * user id and the admin's note go, the amounts and dates remain. Running subscriptions are
 * cancelled at Stripe first (so nobody is charged for a deleted account; a Stripe outage fails
 * the deletion with a retryable error before anything changed here), then the mirrors and the
 * customer link are deleted. The Stripe customer itself stays at Stripe with the invoices.
 */
@AccountDataPart('data')
@Injectable()
export class BillingAccountData implements AccountDataContributor {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(SubscriptionMirror.name) private readonly subscriptions: Model<SubscriptionMirror>,
    @InjectModel(BillingCustomer.name) private readonly customers: Model<BillingCustomer>,
    @Inject(STRIPE_CLIENT) private readonly stripe: Stripe | null,
    private readonly latestSubscription: SubscriptionReadCache,
  ) {}

  async exportFor(userId: string) {
    const [orders, subscriptions] = await Promise.all([
      this.orders.find({ userId }).sort({ createdAt: 1 }).lean<Order[]>().exec(),
      this.subscriptions.find({ userId }).lean<SubscriptionMirror[]>().exec(),
    ]);
    return {
      billing: {
        orders: orders.map(toOrderView),
        subscriptions: subscriptions.map((subscription) => ({
          id: subscription._id,
          planId: subscription.planId,
          quantity: subscription.quantity,
          status: subscription.status,
          currentPeriodEnd: subscription.currentPeriodEnd?.toISOString() ?? null,
        })),
      },
    };
  }

  async deleteFor(userId: string): Promise<void> {
    const running = await this.subscriptions
      .find({ userId, status: { $in: LIVE_STATUSES } }, { _id: 1 })
      .lean<SubscriptionMirror[]>()
      .exec();
    if (running.length && this.stripe) {
      for (const subscription of running)
        await this.stripe.subscriptions.cancel(subscription._id, {}, { idempotencyKey: `sub:${subscription._id}:cancel-on-delete` });
    }
    await this.orders.updateMany({ userId }, { $set: { userId: null, note: null, updatedAt: new Date() } }).exec();
    try {
      await this.subscriptions.deleteMany({ userId }).exec();
    } finally {
      this.latestSubscription.forget(userId);
    }
    await this.customers.deleteOne({ _id: userId }).exec();
  }
}
