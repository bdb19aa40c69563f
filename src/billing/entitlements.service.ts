import { Inject, Injectable } from '@nestjs/common';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { BillingBatches } from './billing-batches.js';
import { orderEntitlement, subscriptionEntitlement } from './billing-state.js';
import { ENTITLEMENT_SINK, type EntitlementSink } from './entitlement-sink.js';

/**
 * Computes the complete current entitlement of a source from the stored state and hands it to the
 * sink. Called after every change; the sink is idempotent, so calling it again is harmless.
 */
@Injectable()
export class EntitlementsService {
  constructor(
    private readonly catalogue: CatalogueService,
    @Inject(ENTITLEMENT_SINK) private readonly sink: EntitlementSink,
    private readonly batches: BillingBatches,
  ) {}

  /** The subscription's entitlement; false when it cannot be computed yet (user or plan unknown). */
  async applySubscription(subscriptionId: string): Promise<boolean> {
    const subscription = await this.batches.subscription(subscriptionId);
    if (!subscription?.userId || !subscription.planId) return false;
    const [plan, payments] = await Promise.all([
      this.catalogue.recent(subscription.planId),
      this.batches.paymentsOf.findAll(subscriptionId),
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
    const order = await this.batches.order(orderId);
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
