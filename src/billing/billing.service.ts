import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type Stripe from 'stripe';
import type { SessionUser } from '../../lib/api/auth.js';
import type {
  AdminUserBilling,
  BillingStatus,
  CheckoutResponse,
  ManualOrderRequest,
  OrderList,
  OrderView,
  PortalFlow,
  RedirectResponse,
  SubscriptionChangeResponse,
  SubscriptionResponse,
  SubscriptionStatus,
} from '../../lib/api/billing.js';
import type { RevenueCurrencyView } from '../../lib/api/overview.js';
import { AuditService } from '../audit/audit.service.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { isDuplicateKey } from '../database/upsert.js';
import { UsersService } from '../users/users.service.js';
import { BillingErrorCode, BillingException } from './billing.exception.js';
import { EntitlementsService } from './entitlements.service.js';
import { newOrderId } from './order-id.js';
import { BillingCustomer, BillingSetting, Order, SubscriptionMirror } from './schemas/billing.schemas.js';
import { STRIPE_CLIENT } from './stripe-client.js';
import { SubscriptionReadCache } from './subscription-read-cache.js';

export const LIVE_STATUSES: SubscriptionStatus[] = ['trialing', 'active', 'past_due', 'unpaid', 'paused', 'incomplete'];

export function toOrderView(order: Order): OrderView {
  return {
    id: order._id,
    kind: order.kind,
    planId: order.planId,
    products: [...order.products],
    quantity: order.quantity,
    amountMinor: order.amountMinor,
    currency: order.currency,
    status: order.status,
    refundedMinor: order.refundedMinor,
    receiptUrl: order.kind === 'manual' ? `/api/billing/orders/${order._id}/receipt` : order.stripe.hostedInvoiceUrl,
    receiptNumber: order.receiptNumber,
    createdAt: order.createdAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
  };
}

/** A subscription as the overview's MRR reads it (see {@link BillingService.subscriptionsForMetrics}). */
export interface MetricsSubscription {
  id: string;
  customerId: string;
  planId: string | null;
  quantity: number;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  cancelAt: Date | null;
  currentPeriodEnd: Date | null;
  /** A recurring coupon: `percentOff` or `amountOffMinor` (+ `currency`), `duration`, `end`. */
  discount: {
    percentOff?: number | null;
    amountOffMinor?: number | null;
    currency?: string | null;
    duration: 'forever' | 'once' | 'repeating';
    end?: Date | null;
  } | null;
}

const iso = (value: Date | null) => value?.toISOString() ?? null;

/** What a signed-in person does with billing, and the admins' manual orders. */
@Injectable()
export class BillingService {
  private readonly logger = new Logger(BillingService.name);

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(SubscriptionMirror.name) private readonly subscriptions: Model<SubscriptionMirror>,
    @InjectModel(BillingCustomer.name) private readonly customers: Model<BillingCustomer>,
    @InjectModel(BillingSetting.name) private readonly settings: Model<BillingSetting>,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(STRIPE_CLIENT) private readonly client: Stripe | null,
    private readonly catalogue: CatalogueService,
    private readonly entitlements: EntitlementsService,
    private readonly users: UsersService,
    private readonly audit: AuditService,
    private readonly latestSubscription: SubscriptionReadCache,
  ) {}

  status(): BillingStatus {
    return { configured: this.client !== null };
  }

  private get stripe(): Stripe {
    if (!this.client) throw BillingException.notConfigured();
    return this.client;
  }

  /** Stripe errors become one 502 (logged with Stripe's message, which may name our request). */
  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (error) {
      this.logger.warn(`Stripe ${what} failed: ${(error as Error).message}`);
      throw BillingException.provider();
    }
  }

  /** The person's Stripe customer, made once: the idempotency key makes a double click one customer. */
  async customerFor(user: SessionUser): Promise<string> {
    const known = await this.customers.findById(user.id).lean<BillingCustomer>().exec();
    if (known) return known.stripeCustomerId;
    const customer = await this.call('customers.create', () =>
      this.stripe.customers.create(
        { email: user.email, name: user.name, metadata: { userId: user.id } },
        { idempotencyKey: `user:${user.id}:customer` },
      ),
    );
    try {
      await this.customers.create({ _id: user.id, stripeCustomerId: customer.id, createdAt: new Date() });
      return customer.id;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      return (await this.customers.findById(user.id).lean<BillingCustomer>().exec())!.stripeCustomerId;
    }
  }

  async checkout(user: SessionUser, planId: string, quantity = 1): Promise<CheckoutResponse> {
    const stripe = this.stripe;
    const plan = await this.catalogue.getForSale(planId);
    const recurring = plan.interval !== 'lifetime';
    if (recurring && (await this.subscriptions.exists({ userId: user.id, status: { $in: LIVE_STATUSES } }).exec())) {
      throw new BillingException(
        BillingErrorCode.AlreadySubscribed,
        'You already have a subscription: change its plan or seats in the billing portal instead',
      );
    }
    const customerId = await this.customerFor(user);
    // The order first: whatever Stripe answers (or not), the attempt is on record under this id.
    const orderId = newOrderId();
    const now = new Date();
    await this.orders.create({
      _id: orderId,
      userId: user.id,
      planId: plan._id,
      products: plan.products,
      quantity,
      amountMinor: plan.amountMinor * quantity,
      currency: plan.currency,
      status: 'pending',
      kind: 'checkout',
      stripe: {
        checkoutSessionId: null,
        customerId,
        subscriptionId: null,
        invoiceId: null,
        paymentIntentId: null,
        chargeId: null,
        hostedInvoiceUrl: null,
      },
      createdAt: now,
      updatedAt: now,
    });
    const metadata = { orderId, planId: plan._id, userId: user.id };
    const lineItem: Stripe.Checkout.SessionCreateParams.LineItem = plan.stripePriceId
      ? { price: plan.stripePriceId, quantity }
      : {
          quantity,
          price_data: {
            currency: plan.currency,
            unit_amount: plan.amountMinor,
            product_data: { name: plan.name },
            ...(recurring ? { recurring: { interval: plan.interval as 'month' | 'year' } } : {}),
          },
        };
    const base = this.config.publicUrl;
    const session = await this.call('checkout.sessions.create', () =>
      stripe.checkout.sessions.create(
        {
          mode: recurring ? 'subscription' : 'payment',
          customer: customerId,
          client_reference_id: orderId,
          line_items: [lineItem],
          metadata,
          success_url: `${base}/dashboard/user/subscription?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
          cancel_url: `${base}/dashboard/user/subscription?checkout=cancelled`,
          ...(recurring
            ? { subscription_data: { metadata, ...(plan.trialDays > 0 ? { trial_period_days: plan.trialDays } : {}) } }
            : { payment_intent_data: { metadata } }),
        },
        { idempotencyKey: `order:${orderId}:checkout` },
      ),
    );
    await this.orders.updateOne({ _id: orderId }, { $set: { 'stripe.checkoutSessionId': session.id, updatedAt: new Date() } }).exec();
    if (!session.url) throw BillingException.provider();
    return { orderId, url: session.url };
  }

  /**
   * The portal configuration is made by API (cancel at period end with a reason, card updates,
   * invoices; plan and seat changes among the plans sold through a Stripe price) and its id kept in
   * `billing_settings`, keyed by a hash of what it allows: when admins price another plan, the next
   * portal visit makes a new configuration, once (the same key makes the same configuration).
   */
  private async portalConfiguration(): Promise<string> {
    const stripe = this.stripe;
    const priced = (await this.catalogue.list()).plans
      .filter((plan) => plan.active && plan.stripePriceId && plan.interval !== 'lifetime')
      .map((plan) => plan.stripePriceId!)
      .sort();
    const key = `portal-configuration:v1:${createHash('sha256').update(priced.join(',')).digest('hex').slice(0, 16)}`;
    const stored = await this.settings.findById(key).lean<BillingSetting>().exec();
    if (stored) return stored.value;
    // The portal lists updates per Stripe product: group the prices by theirs.
    const products = new Map<string, string[]>();
    for (const priceId of priced) {
      const price = await this.call('prices.retrieve', () => stripe.prices.retrieve(priceId));
      const product = typeof price.product === 'string' ? price.product : price.product.id;
      products.set(product, [...(products.get(product) ?? []), priceId]);
    }
    const configuration = await this.call('billingPortal.configurations.create', () =>
      stripe.billingPortal.configurations.create(
        {
          business_profile: { headline: 'Manage your Hitscope subscription' },
          default_return_url: `${this.config.publicUrl}/dashboard/user/subscription`,
          features: {
            invoice_history: { enabled: true },
            payment_method_update: { enabled: true },
            subscription_cancel: {
              enabled: true,
              mode: 'at_period_end',
              cancellation_reason: { enabled: true, options: ['too_expensive', 'missing_features', 'unused', 'other'] },
            },
            // Stripe offers updates only for the products listed; plans priced inline have none.
            subscription_update: products.size
              ? {
                  enabled: true,
                  default_allowed_updates: ['price', 'quantity'],
                  products: [...products].map(([product, prices]) => ({ product, prices })),
                  proration_behavior: 'create_prorations',
                }
              : { enabled: false },
          },
        },
        { idempotencyKey: key },
      ),
    );
    try {
      await this.settings.create({ _id: key, value: configuration.id });
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    return configuration.id;
  }

  async portal(user: SessionUser, flow?: PortalFlow): Promise<RedirectResponse> {
    const stripe = this.stripe;
    const customerId = await this.customerFor(user);
    const configuration = await this.portalConfiguration();
    let flowData: Stripe.BillingPortal.SessionCreateParams.FlowData | undefined;
    if (flow === 'payment_method_update') flowData = { type: 'payment_method_update' };
    else if (flow) {
      const subscription = await this.current(user.id);
      if (!subscription) throw new BillingException(BillingErrorCode.NoSubscription, 'You have no subscription');
      flowData =
        flow === 'subscription_cancel'
          ? { type: 'subscription_cancel', subscription_cancel: { subscription: subscription._id } }
          : { type: 'subscription_update', subscription_update: { subscription: subscription._id } };
    }
    const session = await this.call('billingPortal.sessions.create', () =>
      stripe.billingPortal.sessions.create({
        customer: customerId,
        configuration,
        return_url: `${this.config.publicUrl}/dashboard/user/subscription`,
        ...(flowData ? { flow_data: flowData } : {}),
      }),
    );
    return { url: session.url };
  }

  private current(userId: string): Promise<SubscriptionMirror | null> {
    return this.subscriptions.findOne({ userId }).sort({ updatedAt: -1 }).lean<SubscriptionMirror>().exec();
  }

  private async live(userId: string): Promise<SubscriptionMirror> {
    const subscription = await this.subscriptions
      .findOne({ userId, status: { $in: LIVE_STATUSES } })
      .sort({ updatedAt: -1 })
      .lean<SubscriptionMirror>()
      .exec();
    if (!subscription) throw new BillingException(BillingErrorCode.NoSubscription, 'You have no running subscription');
    return subscription;
  }

  /** Stripe makes the change; the mirror follows with customer.subscription.updated. */
  async setCancelAtPeriodEnd(user: SessionUser, cancel: boolean): Promise<SubscriptionChangeResponse> {
    const stripe = this.stripe;
    const subscription = await this.live(user.id);
    await this.call('subscriptions.update', () =>
      stripe.subscriptions.update(
        subscription._id,
        { cancel_at_period_end: cancel },
        { idempotencyKey: `sub:${subscription._id}:cancel:${cancel}:${Date.now()}` },
      ),
    );
    return { requested: cancel ? 'cancel_at_period_end' : 'resume', subscriptionId: subscription._id };
  }

  async changePlan(user: SessionUser, planId: string, quantity?: number): Promise<SubscriptionChangeResponse> {
    const stripe = this.stripe;
    const subscription = await this.live(user.id);
    const plan = await this.catalogue.getForSale(planId);
    if (plan.interval === 'lifetime' || !plan.stripePriceId) {
      throw new BillingException(
        BillingErrorCode.PlanNotPriced,
        'This plan cannot replace a subscription (it has no recurring Stripe price)',
      );
    }
    const current = await this.call('subscriptions.retrieve', () => stripe.subscriptions.retrieve(subscription._id));
    const item = current.items.data[0];
    await this.call('subscriptions.update', () =>
      stripe.subscriptions.update(subscription._id, {
        items: [{ id: item.id, price: plan.stripePriceId!, quantity: quantity ?? subscription.quantity }],
        proration_behavior: 'create_prorations',
        metadata: { planId: plan._id, userId: user.id },
      }),
    );
    return { requested: 'change_plan', subscriptionId: subscription._id };
  }

  async listOrders(userId: string): Promise<OrderList> {
    const orders = await this.orders.find({ userId }).sort({ createdAt: -1 }).limit(200).lean<Order[]>().exec();
    return { orders: orders.map(toOrderView) };
  }

  /** What the pages show; read through SubscriptionReadCache (one database read fewer per dashboard page). */
  async subscription(userId: string): Promise<SubscriptionResponse> {
    const subscription = await this.latestSubscription.latest(userId, () => this.current(userId));
    if (!subscription) return { subscription: null };
    const plan = subscription.planId ? await this.catalogue.get(subscription.planId).catch(() => null) : null;
    return {
      subscription: {
        id: subscription._id,
        planId: subscription.planId ?? '',
        quantity: subscription.quantity,
        seats: (plan?.seats ?? 1) * subscription.quantity,
        status: subscription.status,
        cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
        cancelAt: iso(subscription.cancelAt),
        currentPeriodEnd: iso(subscription.currentPeriodEnd),
        trialEnd: iso(subscription.trialEnd),
      },
    };
  }

  /**
   * Read-only, for the admin overview's MRR (src/overview): the mirrored subscriptions in `statuses`,
   * with only the fields MRR needs. `discount` is passed on when a row has one; the webhook reducer
   * does not record discounts yet, so today it is always null (docs/mrr.md says what that means).
   */
  async subscriptionsForMetrics(statuses: readonly SubscriptionStatus[]): Promise<MetricsSubscription[]> {
    const rows = await this.subscriptions
      .find(
        { status: { $in: [...statuses] } },
        { _id: 1, customerId: 1, planId: 1, quantity: 1, status: 1, cancelAtPeriodEnd: 1, cancelAt: 1, currentPeriodEnd: 1, discount: 1 },
      )
      .lean<(SubscriptionMirror & { discount?: MetricsSubscription['discount'] })[]>()
      .exec();
    return rows.map((row) => ({
      id: row._id,
      customerId: row.customerId,
      planId: row.planId,
      quantity: row.quantity,
      status: row.status,
      cancelAtPeriodEnd: row.cancelAtPeriodEnd,
      cancelAt: row.cancelAt,
      currentPeriodEnd: row.currentPeriodEnd,
      discount: row.discount ?? null,
    }));
  }

  /** The overview's subscription counts: the mirror's rows by status, one `$group` (FerretDB has `$sum`). */
  async subscriptionStatusCounts(): Promise<Partial<Record<SubscriptionStatus, number>>> {
    const groups = await this.subscriptions
      .aggregate<{ _id: SubscriptionStatus; n: number }>([{ $group: { _id: '$status', n: { $sum: 1 } } }])
      .exec();
    return Object.fromEntries(groups.map((group) => [group._id, group.n]));
  }

  /**
   * Revenue of the orders paid from `since` (and before `until`, when given), per currency, in minor
   * units. Refunds are subtracted from the order they refund (a refund in full takes the whole
   * amount), so an order paid in the window and refunded later lowers the window's revenue when the
   * refund arrives.
   */
  async revenueSince(since: Date, until?: Date): Promise<RevenueCurrencyView[]> {
    const orders = await this.orders
      .find(
        { paidAt: until ? { $gte: since, $lt: until } : { $gte: since } },
        { _id: 0, amountMinor: 1, currency: 1, refundedMinor: 1, refundedInFull: 1 },
      )
      .lean<Array<Pick<Order, 'amountMinor' | 'currency' | 'refundedMinor' | 'refundedInFull'>>>()
      .exec();
    const byCurrency = new Map<string, RevenueCurrencyView>();
    for (const order of orders) {
      const view = byCurrency.get(order.currency) ?? { currency: order.currency, orders: 0, grossMinor: 0, refundedMinor: 0, netMinor: 0 };
      const refunded = order.refundedInFull ? order.amountMinor : Math.min(order.refundedMinor ?? 0, order.amountMinor);
      view.orders += 1;
      view.grossMinor += order.amountMinor;
      view.refundedMinor += refunded;
      view.netMinor += order.amountMinor - refunded;
      byCurrency.set(order.currency, view);
    }
    return [...byCurrency.values()].sort((a, b) => a.currency.localeCompare(b.currency));
  }

  async forAdmin(userId: string): Promise<AdminUserBilling> {
    const [{ orders }, { subscription }, customer] = await Promise.all([
      this.listOrders(userId),
      this.subscription(userId),
      this.customers.findById(userId).lean<BillingCustomer>().exec(),
    ]);
    return { orders, subscription, stripeCustomerId: customer?.stripeCustomerId ?? null };
  }

  /** An order paid outside Stripe (works without Stripe configured); audited, entitlement applied. */
  async recordManualOrder(actor: SessionUser, input: ManualOrderRequest): Promise<OrderView> {
    const user = await this.users.findById(input.userId);
    if (!user) throw new BillingException(BillingErrorCode.UserNotFound, 'No user with this id');
    const plan = await this.catalogue.get(input.planId);
    const quantity = input.quantity ?? 1;
    const orderId = newOrderId();
    const now = new Date();
    const order: Order = {
      _id: orderId,
      userId: input.userId,
      planId: plan._id,
      products: plan.products,
      quantity,
      amountMinor: input.amountMinor ?? plan.amountMinor * quantity,
      currency: plan.currency,
      status: 'paid',
      kind: 'manual',
      refundedMinor: 0,
      refundedInFull: false,
      dispute: null,
      stripe: {
        checkoutSessionId: null,
        customerId: null,
        subscriptionId: null,
        invoiceId: null,
        paymentIntentId: null,
        chargeId: null,
        hostedInvoiceUrl: null,
      },
      // Unique by construction (the order id's random tail), no counter document needed.
      receiptNumber: `HS-${now.toISOString().slice(0, 10).replaceAll('-', '')}-${orderId.slice(-8).toUpperCase()}`,
      note: input.note ?? null,
      createdAt: now,
      paidAt: now,
      failedAt: null,
      expiredAt: null,
      updatedAt: now,
    };
    await this.orders.create(order);
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: 'billing.order.manual',
      target: { type: 'order', id: orderId, label: user.email },
      before: null,
      after: { userId: input.userId, planId: plan._id, quantity, amountMinor: order.amountMinor, currency: order.currency },
    });
    await this.entitlements.applyOrder(orderId);
    return toOrderView(order);
  }

  /** Our own receipt of a manual order: the owner's or any for an admin; 404 otherwise (no leak). */
  async receipt(viewer: SessionUser, orderId: string): Promise<string> {
    const order = await this.orders.findById(orderId).lean<Order>().exec();
    if (!order || order.kind !== 'manual' || (order.userId !== viewer.id && viewer.role !== 'admin')) {
      throw new BillingException(BillingErrorCode.OrderNotFound, 'No receipt with this id');
    }
    const plan = await this.catalogue.get(order.planId).catch(() => null);
    const amount = new Intl.NumberFormat('en', { style: 'currency', currency: order.currency.toUpperCase() }).format(
      order.amountMinor / 100,
    );
    const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Receipt ${escape(order.receiptNumber ?? order._id)}</title></head><body>
<h1>Receipt ${escape(order.receiptNumber ?? order._id)}</h1>
<p>Date: ${escape(order.paidAt?.toISOString().slice(0, 10) ?? '')}</p>
<p>${escape(plan?.name ?? order.planId)} × ${order.quantity}</p>
<p>Amount paid: ${escape(amount)}</p>
<p>Status: ${escape(order.status)}</p>
${order.note ? `<p>${escape(order.note)}</p>` : ''}
</body></html>`;
  }
}
