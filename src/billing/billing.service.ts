import { createHash } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type Stripe from 'stripe';
import type { SessionUser } from '../../lib/api/auth.js';
import type {
  AdminUserBilling,
  BillingStatus,
  ChangePlanRequest,
  CheckoutProgress,
  CheckoutResponse,
  CheckoutStage,
  ManualOrderRequest,
  OrderList,
  OrderView,
  PlanChangePreview,
  PortalFlow,
  PurchaseView,
  RedirectResponse,
  SubscriptionChangeResponse,
  SubscriptionResponse,
  SubscriptionStatus,
  SubscriptionView,
} from '../../lib/api/billing.js';
import type { CataloguePlan } from '../../lib/api/catalogue.js';
import type { RevenueCurrencyView } from '../../lib/api/overview.js';
import { type PlanChoice, planChoice, type RunningSubscription } from '../../lib/billing/plan-choice.js';
import { productsText } from '../../lib/billing/plan-copy.js';
import type { ProductSlug } from '../../lib/product.js';
import { AuditService } from '../audit/audit.service.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import type { Plan } from '../catalogue/schemas/plan.schema.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { BACKGROUND_READ_BATCH } from '../database/database-server.js';
import { isDuplicateKey } from '../database/upsert.js';
import { UsersService } from '../users/users.service.js';
import { BillingMailer, sourceOfOrder } from './billing-mailer.service.js';
import { orderEntitlement } from './billing-state.js';
import { BillingErrorCode, BillingException } from './billing.exception.js';
import { PRORATION_DATE_MAX_AGE_S } from './dto/billing.dto.js';
import { checkoutConsent } from './checkout-consent.js';
import { ENTITLEMENT_SINK, type EntitlementSink } from './entitlement-sink.js';
import { EntitlementsService } from './entitlements.service.js';
import { newOrderId } from './order-id.js';
import { BillingCustomer, BillingSetting, Order, SubscriptionMirror } from './schemas/billing.schemas.js';
import { STRIPE_CLIENT, stripeAnswerTime } from './stripe-client.js';
import { StripeCatalogueService } from './stripe-catalogue.service.js';
import { StripeEventsService } from './stripe-events.service.js';
import { type Holdings, SubscriptionReadCache } from './subscription-read-cache.js';

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

/** A revenue window summed in parts (revenueSince's `partMs`) is summed in at most this many. */
const REVENUE_SUM_PARTS = 60;

/** Over: shown as history, no longer what the person has. */
const ENDED_STATUSES: SubscriptionStatus[] = ['canceled', 'incomplete_expired'];

/** "Team (monthly)", as people read a plan in messages. */
const planLabel = (plan: Pick<Plan, 'name' | 'interval'>) =>
  plan.interval === 'lifetime' ? plan.name : `${plan.name} (${plan.interval === 'month' ? 'monthly' : 'yearly'})`;

/** A Stripe invoice line is a proration when its parent (an item or an invoice item) says so (basil and later). */
function isProration(line: Stripe.InvoiceLineItem): boolean {
  const parent = line.parent as {
    subscription_item_details?: { proration?: boolean } | null;
    invoice_item_details?: { proration?: boolean } | null;
  } | null;
  return Boolean(parent?.subscription_item_details?.proration ?? parent?.invoice_item_details?.proration);
}

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
    private readonly holdingsCache: SubscriptionReadCache,
    private readonly stripeCatalogue: StripeCatalogueService,
    private readonly events: StripeEventsService,
    private readonly mailer: BillingMailer,
    @Inject(ENTITLEMENT_SINK) private readonly sink: EntitlementSink,
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

  /** Running subscriptions with the products they cover (what planChoice decides with). */
  private async runningSubscriptions(userId: string): Promise<RunningSubscription[]> {
    const mirrors = await this.subscriptions
      .find({ userId, status: { $in: LIVE_STATUSES } }, { _id: 1, planId: 1 })
      .sort({ updatedAt: -1 })
      .lean<Array<Pick<SubscriptionMirror, '_id' | 'planId'>>>()
      .exec();
    return Promise.all(
      mirrors.map(async (mirror) => ({
        id: mirror._id,
        planId: mirror.planId,
        products: mirror.planId ? ((await this.catalogue.get(mirror.planId).catch(() => null))?.products ?? []) : [],
      })),
    );
  }

  /** Says what to do instead, naming the subscription and the products it already covers. */
  private async notBuyable(
    plan: Plan,
    choice: Exclude<PlanChoice, { kind: 'buy' }>,
    running: RunningSubscription[],
  ): Promise<BillingException> {
    if (choice.kind === 'overlap') {
      return new BillingException(
        BillingErrorCode.AlreadySubscribed,
        `${plan.name} covers products of more than one of your subscriptions: cancel one of them at period end first, then switch the other.`,
      );
    }
    const subscription = running.find((candidate) => candidate.id === choice.subscriptionId)!;
    const current = subscription.planId ? await this.catalogue.get(subscription.planId).catch(() => null) : null;
    const name = current ? planLabel(current) : 'current';
    if (choice.kind === 'current') {
      return new BillingException(BillingErrorCode.AlreadySubscribed, `You already have ${name}: nothing to buy.`);
    }
    const covered = subscription.products.filter((product) => plan.products.includes(product));
    return new BillingException(
      BillingErrorCode.AlreadySubscribed,
      `You already have ${productsText(covered.length ? covered : plan.products)} through your ${name} subscription: change that subscription's plan to ${planLabel(plan)} instead of buying a second one.`,
    );
  }

  /**
   * Stripe Checkout for a plan: through its Stripe Price (kept in step with the catalogue), with
   * the terms question the terms promise (src/billing/checkout-consent.ts). A subscriber may buy a
   * one-off plan or a subscription for a product none of their subscriptions covers; a plan they
   * already pay for is refused with what to do instead (lib/billing/plan-choice.ts).
   */
  async checkout(user: SessionUser, planId: string, quantity = 1): Promise<CheckoutResponse> {
    const stripe = this.stripe;
    const plan = await this.catalogue.getForSale(planId);
    const recurring = plan.interval !== 'lifetime';
    const running = await this.runningSubscriptions(user.id);
    const choice = planChoice({ id: plan._id, interval: plan.interval, products: plan.products }, running);
    if (choice.kind !== 'buy') throw await this.notBuyable(plan, choice, running);
    const customerId = await this.customerFor(user);
    const price = await this.call('catalogue sync', () => this.stripeCatalogue.priceFor(plan));
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
    const base = this.config.publicUrl;
    // A subscription is followed on the subscription page; a one-off purchase is its licence keys.
    const returnPage = recurring ? '/dashboard/user/subscription' : '/dashboard/user/licenses';
    const session = await this.call('checkout.sessions.create', () =>
      stripe.checkout.sessions.create(
        {
          mode: recurring ? 'subscription' : 'payment',
          customer: customerId,
          client_reference_id: orderId,
          line_items: [{ price, quantity }],
          metadata,
          success_url: `${base}${returnPage}?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
          // Back to the plans with the same one chosen.
          cancel_url: `${base}/dashboard/user/subscription?checkout=cancelled&plan=${encodeURIComponent(plan._id)}`,
          ...checkoutConsent(base, this.config.stripe?.termsConsent ?? 'required', plan),
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

  private async orderOfSession(userId: string, sessionId: string): Promise<Order> {
    const order = await this.orders.findOne({ userId, 'stripe.checkoutSessionId': sessionId }).lean<Order>().exec();
    if (!order) throw new BillingException(BillingErrorCode.CheckoutNotFound, 'No checkout of yours has this session id');
    return order;
  }

  /**
   * The success page's confirmation: the session as Stripe tells it now, fulfilled by the same
   * function as the webhook (StripeEventsService.fulfilCheckout), whichever comes first; the second
   * changes nothing. Only a session Stripe says is complete and names this order counts: the id in
   * the URL is the buyer's, and only our own record ties it to them.
   */
  async confirmCheckout(user: SessionUser, sessionId: string): Promise<CheckoutProgress> {
    const stripe = this.stripe;
    const order = await this.orderOfSession(user.id, sessionId);
    if (order.status === 'pending') {
      const session = await this.call('checkout.sessions.retrieve', () =>
        stripe.checkout.sessions.retrieve(sessionId, { expand: ['subscription'] }),
      );
      if (session.client_reference_id === order._id && session.status === 'complete') {
        const at = stripeAnswerTime(session);
        if (session.subscription && typeof session.subscription === 'object') {
          await this.events.syncFromApi(session.subscription as unknown as Record<string, unknown>, at);
        }
        await this.events.fulfilCheckout(session as unknown as Record<string, unknown>, at);
      }
    }
    return this.checkoutProgress(user.id, sessionId);
  }

  /** Where the purchase of a Checkout session stands (the page polls this; no Stripe call). */
  async checkoutProgress(userId: string, sessionId: string): Promise<CheckoutProgress> {
    const order = await this.orderOfSession(userId, sessionId);
    const plan = await this.catalogue.get(order.planId);
    const paid = order.status === 'paid' || order.status === 'partially_refunded';
    const licences = paid
      ? (await this.sink.licencesOf(sourceOfOrder(order))).filter((licence) => order.products.includes(licence.product))
      : [];
    let stage: CheckoutStage;
    if (paid) {
      stage = licences.length >= new Set(order.products).size && licences.every((licence) => licence.valid) ? 'active' : 'activating';
    } else if (order.status === 'pending') stage = order.checkoutCompletedAt ? 'processing' : 'confirming';
    else stage = 'failed';
    return {
      orderId: order._id,
      planId: order.planId,
      interval: plan.interval,
      orderStatus: order.status,
      stage,
      licences: licences.map((licence) => ({ product: licence.product, valid: licence.valid })),
    };
  }

  /**
   * The portal configuration is made by API (cancel at period end with a reason, card updates,
   * invoices; plan and seat changes among every recurring plan's Stripe Price) and its id kept in
   * `billing_settings`, keyed by a hash of what it allows: when a plan gets another Price, the next
   * portal visit makes a new configuration, once (the same key makes the same configuration).
   */
  private async portalConfiguration(): Promise<string> {
    const stripe = this.stripe;
    const recurring = (await this.catalogue.list()).plans.filter((plan) => plan.active && plan.interval !== 'lifetime');
    const priced: string[] = [];
    for (const plan of recurring)
      priced.push(await this.call('catalogue sync', async () => this.stripeCatalogue.priceFor(await this.catalogue.get(plan.id))));
    priced.sort();
    const key = `portal-configuration:v1:${createHash('sha256').update(priced.join(',')).digest('hex').slice(0, 16)}`;
    const stored = await this.settings.findById(key).lean<BillingSetting>().exec();
    if (stored) return stored.value;
    // The portal lists updates per Stripe product: group the prices by theirs.
    const products = new Map<string, string[]>();
    for (const priceId of priced) {
      // A synced Price's Product is known; an administrator's Price is asked for its own.
      const product =
        (await this.stripeCatalogue.syncedProductOf(priceId)) ??
        (await this.call('prices.retrieve', async () => {
          const price = await stripe.prices.retrieve(priceId);
          return typeof price.product === 'string' ? price.product : price.product.id;
        }));
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
            // Stripe offers updates only among the products and prices listed: every recurring plan's.
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

  async portal(user: SessionUser, flow?: PortalFlow, subscriptionId?: string): Promise<RedirectResponse> {
    const stripe = this.stripe;
    const customerId = await this.customerFor(user);
    const configuration = await this.portalConfiguration();
    let flowData: Stripe.BillingPortal.SessionCreateParams.FlowData | undefined;
    if (flow === 'payment_method_update') flowData = { type: 'payment_method_update' };
    else if (flow) {
      const subscription = subscriptionId
        ? await this.subscriptions.findOne({ _id: subscriptionId, userId: user.id }).lean<SubscriptionMirror>().exec()
        : await this.current(user.id);
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

  /** The running subscription a change is about: the one named (it must be the person's), or the newest. */
  private async live(userId: string, subscriptionId?: string): Promise<SubscriptionMirror> {
    const subscription = await this.subscriptions
      .findOne({ userId, status: { $in: LIVE_STATUSES }, ...(subscriptionId ? { _id: subscriptionId } : {}) })
      .sort({ updatedAt: -1 })
      .lean<SubscriptionMirror>()
      .exec();
    if (!subscription) throw new BillingException(BillingErrorCode.NoSubscription, 'You have no running subscription');
    return subscription;
  }

  /**
   * Stripe's answer to a change made here is the subscription as it now is: applied to the mirror
   * at once through the webhooks' reducer, dated by Stripe's clock, so the page shows the change
   * now and an older event arriving later cannot undo it (the reducer's `created` guard).
   */
  private async applyAnswer(userId: string, answer: Stripe.Response<Stripe.Subscription>): Promise<SubscriptionView | null> {
    await this.events.syncFromApi(answer as unknown as Record<string, unknown>, stripeAnswerTime(answer));
    this.holdingsCache.forget(userId);
    const mirror = await this.subscriptions.findOne({ _id: answer.id, userId }).lean<SubscriptionMirror>().exec();
    return mirror ? this.toView(mirror, await this.planMap([mirror.planId])) : null;
  }

  async setCancelAtPeriodEnd(user: SessionUser, cancel: boolean, subscriptionId?: string): Promise<SubscriptionChangeResponse> {
    const stripe = this.stripe;
    const subscription = await this.live(user.id, subscriptionId);
    const answer = await this.call('subscriptions.update', () =>
      stripe.subscriptions.update(
        subscription._id,
        { cancel_at_period_end: cancel },
        { idempotencyKey: `sub:${subscription._id}:cancel:${cancel}:${Date.now()}` },
      ),
    );
    return {
      requested: cancel ? 'cancel_at_period_end' : 'resume',
      subscriptionId: subscription._id,
      subscription: await this.applyAnswer(user.id, answer),
    };
  }

  /** The subscription to change, the target plan, and its Stripe Price; refuses what cannot be switched to. */
  private async planChange(user: SessionUser, request: ChangePlanRequest) {
    const subscription = await this.live(user.id, request.subscriptionId);
    const plan = await this.catalogue.getForSale(request.planId);
    if (plan.interval === 'lifetime') {
      throw new BillingException(
        BillingErrorCode.PlanNotPriced,
        'A one-off plan is bought, not switched to: buy it from the plans; your subscription runs on until you cancel it.',
      );
    }
    // The new plan may not cover what another running subscription already covers (paid twice).
    const others = (await this.runningSubscriptions(user.id)).filter((candidate) => candidate.id !== subscription._id);
    const overlapping = others.filter(
      (other) => other.products.length === 0 || other.products.some((product) => plan.products.includes(product)),
    );
    if (overlapping.length) {
      const names = await Promise.all(
        overlapping.map(async (other) => {
          const otherPlan = other.planId ? await this.catalogue.get(other.planId).catch(() => null) : null;
          return otherPlan ? planLabel(otherPlan) : 'another';
        }),
      );
      throw new BillingException(
        BillingErrorCode.AlreadySubscribed,
        `${planLabel(plan)} covers ${productsText(plan.products)}, which your ${names.join(' and ')} subscription${names.length > 1 ? 's' : ''} already cover${names.length > 1 ? '' : 's'}: cancel ${names.length > 1 ? 'those' : 'that one'} at period end first, or choose a plan without ${names.length > 1 ? 'their' : 'its'} products.`,
      );
    }
    const price = await this.call('catalogue sync', () => this.stripeCatalogue.priceFor(plan));
    const current = await this.call('subscriptions.retrieve', () => this.stripe.subscriptions.retrieve(subscription._id));
    const item = current.items.data[0];
    return { subscription, plan, price, current, item, quantity: request.quantity ?? subscription.quantity };
  }

  /**
   * What a plan change would cost, as Stripe computes it (the upcoming invoice with the change,
   * prorated to `prorationDate`); the change confirmed with the same date is charged exactly this.
   */
  async previewPlanChange(user: SessionUser, request: ChangePlanRequest): Promise<PlanChangePreview> {
    const stripe = this.stripe;
    const { subscription, plan, price, current, item, quantity } = await this.planChange(user, request);
    const prorationDate = Math.floor(Date.now() / 1000);
    const customer = typeof current.customer === 'string' ? current.customer : current.customer.id;
    const invoice = await this.call('invoices.createPreview', () =>
      stripe.invoices.createPreview({
        customer,
        subscription: subscription._id,
        subscription_details: {
          items: [{ id: item.id, price, quantity }],
          proration_behavior: 'create_prorations',
          proration_date: prorationDate,
        },
      }),
    );
    const lines = invoice.lines.data.map((line) => ({
      description: line.description ?? '',
      amountMinor: line.amount,
      proration: isProration(line),
    }));
    return {
      subscriptionId: subscription._id,
      planId: plan._id,
      quantity,
      prorationDate,
      currency: invoice.currency as PlanChangePreview['currency'],
      prorationMinor: lines.filter((line) => line.proration).reduce((sum, line) => sum + line.amountMinor, 0),
      totalMinor: invoice.total,
      nextPaymentAt: invoice.next_payment_attempt ? new Date(invoice.next_payment_attempt * 1000).toISOString() : null,
      lines,
    };
  }

  /** Switches a running subscription to another recurring plan through the plan's Stripe Price, prorated. */
  async changePlan(user: SessionUser, request: ChangePlanRequest): Promise<SubscriptionChangeResponse> {
    const stripe = this.stripe;
    const now = Math.floor(Date.now() / 1000);
    if (
      request.prorationDate !== undefined &&
      (request.prorationDate > now + 60 || request.prorationDate < now - PRORATION_DATE_MAX_AGE_S)
    ) {
      throw new BillingException(
        BillingErrorCode.PreviewStale,
        'This preview is out of date: look at the change again before confirming it',
      );
    }
    const { subscription, plan, price, item, quantity } = await this.planChange(user, request);
    const answer = await this.call('subscriptions.update', () =>
      stripe.subscriptions.update(
        subscription._id,
        {
          items: [{ id: item.id, price, quantity }],
          proration_behavior: 'create_prorations',
          ...(request.prorationDate ? { proration_date: request.prorationDate } : {}),
          metadata: { planId: plan._id, userId: user.id },
        },
        // A double click is one change; the same change asked again later (another preview) is another.
        { idempotencyKey: `sub:${subscription._id}:plan:${plan._id}:${quantity}:${request.prorationDate ?? Date.now()}` },
      ),
    );
    return { requested: 'change_plan', subscriptionId: subscription._id, subscription: await this.applyAnswer(user.id, answer) };
  }

  async listOrders(userId: string): Promise<OrderList> {
    const orders = await this.orders.find({ userId }).sort({ createdAt: -1 }).limit(200).lean<Order[]>().exec();
    return { orders: orders.map(toOrderView) };
  }

  /** Plans by id, for views: the cached public catalogue first, deactivated plans read one by one. */
  private async planMap(ids: ReadonlyArray<string | null>): Promise<Map<string, CataloguePlan>> {
    const map = new Map((await this.catalogue.catalogue()).plans.map((plan) => [plan.id, plan]));
    for (const id of new Set(ids)) {
      if (!id || map.has(id)) continue;
      const plan = await this.catalogue.get(id).catch(() => null);
      if (plan) map.set(id, { ...plan, id: plan._id, features: [...plan.features], products: [...plan.products] });
    }
    return map;
  }

  private toView(subscription: SubscriptionMirror, plans: Map<string, CataloguePlan>): SubscriptionView {
    const plan = subscription.planId ? plans.get(subscription.planId) : undefined;
    return {
      id: subscription._id,
      planId: subscription.planId ?? '',
      products: plan ? [...plan.products] : [],
      quantity: subscription.quantity,
      seats: (plan?.seats ?? 1) * subscription.quantity,
      status: subscription.status,
      cancelAtPeriodEnd: subscription.cancelAtPeriodEnd,
      cancelAt: iso(subscription.cancelAt),
      currentPeriodEnd: iso(subscription.currentPeriodEnd),
      trialEnd: iso(subscription.trialEnd),
    };
  }

  /** The person's subscriptions (newest first) and their paid orders that are not paid through a subscription. */
  private async loadHoldings(userId: string): Promise<Holdings> {
    const [subscriptions, orders] = await Promise.all([
      this.subscriptions.find({ userId }).sort({ updatedAt: -1 }).limit(50).lean<SubscriptionMirror[]>().exec(),
      this.orders
        .find({ userId, kind: { $in: ['checkout', 'manual'] }, paidAt: { $ne: null }, 'stripe.subscriptionId': null })
        .sort({ paidAt: -1 })
        .limit(100)
        .lean<Order[]>()
        .exec(),
    ]);
    return { subscriptions, purchases: orders };
  }

  /**
   * What the pages show the person owns: read through SubscriptionReadCache (the lounge and the
   * subscription page ask on every visit).
   */
  async subscription(userId: string, now = new Date()): Promise<SubscriptionResponse> {
    const holdings = await this.holdingsCache.holdings(userId, () => this.loadHoldings(userId));
    const plans = await this.planMap([
      ...holdings.subscriptions.map((item) => item.planId),
      ...holdings.purchases.map((item) => item.planId),
    ]);
    const purchases: PurchaseView[] = [];
    for (const order of holdings.purchases) {
      const plan = plans.get(order.planId);
      // A checkout order of a recurring plan is paid through its subscription, not a licence of its own.
      if (!plan || (order.kind === 'checkout' && plan.interval !== 'lifetime')) continue;
      const entitlement = orderEntitlement({ ...order, id: order._id, userId }, { ...plan, id: plan.id }, now);
      if (!entitlement) continue;
      purchases.push({
        orderId: order._id,
        planId: order.planId,
        kind: order.kind as PurchaseView['kind'],
        products: [...order.products] as ProductSlug[],
        seats: entitlement.seats,
        amountMinor: order.amountMinor,
        currency: order.currency,
        paidAt: order.paidAt!.toISOString(),
        state: entitlement.state === 'past_due' ? 'active' : entitlement.state,
        expiresAt: iso(entitlement.expiresAt),
      });
    }
    const [newest] = holdings.subscriptions;
    return {
      subscription: newest ? this.toView(newest, plans) : null,
      subscriptions: holdings.subscriptions
        .filter((subscription) => !ENDED_STATUSES.includes(subscription.status))
        .map((subscription) => this.toView(subscription, plans)),
      purchases,
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
      // Small batches: a person's request waits for at most one of them on the embedded database.
      .batchSize(BACKGROUND_READ_BATCH)
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

  /** The overview's subscription counts: the mirror's rows by status, one `$group` (the embedded database counts it from the status index). */
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
  async revenueSince(since: Date, until?: Date, partMs?: number): Promise<RevenueCurrencyView[]> {
    const paidAt = until ? { $gte: since, $lt: until } : { $gte: since };
    // Orders and gross per currency as a grouped sum (the embedded database answers it from the
    // orders' paidAt index alone, without reading an order), then the refunded orders of the
    // window, few, read to apply the refund rule to each. With `partMs` (background work) the sum
    // is made in parts of that length, one command each, so that requests go in between: the
    // overview's first sum over 200 000 orders read the index from disk for 240 ms, and a sign-up
    // waited behind it. A part costs a command of its own (a few ms warm), so requests sum at once.
    const byCurrency = new Map<string, RevenueCurrencyView>();
    const end = until?.getTime() ?? Date.now();
    const span = Math.max(0, end - since.getTime());
    const step = partMs ? Math.max(partMs, Math.ceil(span / REVENUE_SUM_PARTS)) : Infinity;
    for (let from = since.getTime(); ; from += step) {
      const last = from + step >= end;
      const window = last ? { ...paidAt, $gte: new Date(from) } : { $gte: new Date(from), $lt: new Date(from + step) };
      const totals = await this.orders
        .aggregate<{ _id: string; orders: number; gross: number }>([
          { $match: { paidAt: window } },
          { $group: { _id: '$currency', orders: { $sum: 1 }, gross: { $sum: '$amountMinor' } } },
        ])
        .exec();
      for (const total of totals) {
        const view = byCurrency.get(total._id) ?? { currency: total._id, orders: 0, grossMinor: 0, refundedMinor: 0, netMinor: 0 };
        view.orders += total.orders;
        view.grossMinor += total.gross;
        view.netMinor = view.grossMinor;
        byCurrency.set(total._id, view);
      }
      if (last) break;
    }
    const refunded = await this.orders
      .find(
        { paidAt, $or: [{ refundedMinor: { $gt: 0 } }, { refundedInFull: true }] },
        { _id: 0, amountMinor: 1, currency: 1, refundedMinor: 1, refundedInFull: 1 },
      )
      .lean<Array<Pick<Order, 'amountMinor' | 'currency' | 'refundedMinor' | 'refundedInFull'>>>()
      .exec();
    for (const order of refunded) {
      const view = byCurrency.get(order.currency);
      if (!view) continue; // paid in the window a moment after the totals were read
      const amount = order.refundedInFull ? order.amountMinor : Math.min(order.refundedMinor ?? 0, order.amountMinor);
      view.refundedMinor += amount;
      view.netMinor -= amount;
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
      termsAcceptedAt: null,
      createdAt: now,
      paidAt: now,
      failedAt: null,
      expiredAt: null,
      checkoutCompletedAt: null,
      mailQueuedAt: null,
      updatedAt: now,
    };
    await this.orders.create(order);
    this.holdingsCache.forget(input.userId);
    await this.audit.record({
      actor: { id: actor.id, email: actor.email },
      action: 'billing.order.manual',
      target: { type: 'order', id: orderId, label: user.email },
      before: null,
      after: { userId: input.userId, planId: plan._id, quantity, amountMinor: order.amountMinor, currency: order.currency },
    });
    await this.entitlements.applyOrder(orderId);
    await this.mailer.orderConfirmed(orderId);
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
