import { Inject, Injectable } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { orderEntitlement, subscriptionEntitlement } from './billing-state.js';
import { ENTITLEMENT_SINK, type EntitlementSink } from './entitlement-sink.js';
import { Order, SubscriptionMirror } from './schemas/billing.schemas.js';

/**
 * Computes the complete current entitlement of a source from the stored state and hands it to the
 * sink. Called after every change; the sink is idempotent, so calling it again is harmless.
 */
@Injectable()
export class EntitlementsService {
  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(SubscriptionMirror.name) private readonly subscriptions: Model<SubscriptionMirror>,
    private readonly catalogue: CatalogueService,
    @Inject(ENTITLEMENT_SINK) private readonly sink: EntitlementSink,
  ) {}

  /** The subscription's entitlement; false when it cannot be computed yet (user or plan unknown). */
  async applySubscription(subscriptionId: string): Promise<boolean> {
    const subscription = await this.subscriptions.findById(subscriptionId).lean<SubscriptionMirror>().exec();
    if (!subscription?.userId || !subscription.planId) return false;
    const [plan, payments] = await Promise.all([
      this.catalogue.recent(subscription.planId),
      this.orders.find({ 'stripe.subscriptionId': subscriptionId }, { status: 1, dispute: 1 }).lean<Order[]>().exec(),
    ]);
    await this.sink.apply(
      subscriptionEntitlement(
        { ...subscription, id: subscription._id, userId: subscription.userId },
        { ...plan, id: plan._id },
        payments.filter((payment) => payment.status !== 'pending'),
      ),
    );
    return true;
  }

  /** An order's own entitlement (lifetime and manual orders); those of subscriptions go through it. */
  async applyOrder(orderId: string): Promise<void> {
    const order = await this.orders.findById(orderId).lean<Order>().exec();
    if (!order?.userId) return;
    if (order.stripe.subscriptionId) {
      await this.applySubscription(order.stripe.subscriptionId);
      return;
    }
    const plan = await this.catalogue.recent(order.planId);
    // A checkout order of a recurring plan is paid through its subscription: nothing of its own.
    if (order.kind === 'checkout' && plan.interval !== 'lifetime') return;
    const entitlement = orderEntitlement({ ...order, id: order._id, userId: order.userId }, { ...plan, id: plan._id });
    if (entitlement) await this.sink.apply(entitlement);
  }
}
