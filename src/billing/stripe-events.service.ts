import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SubscriptionStatus } from '../../lib/api/billing.js';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { MailService } from '../mail/mail.service.js';
import { UsersService } from '../users/users.service.js';
import { BillingMailer } from './billing-mailer.service.js';
import { BillingBatches } from './billing-batches.js';
import { paymentFailedMail, trialEndingMail } from './billing-mails.js';
import { KeyedTurns } from '../database/keyed-turns.js';
import { isDuplicateKey } from '../database/upsert.js';
import { GRACE_DAYS, orderStatus } from './billing-state.js';
import { EntitlementsService } from './entitlements.service.js';
import { BillingCustomer, Order } from './schemas/billing.schemas.js';
import { STRIPE_API_VERSION } from './stripe-client.js';
import { StripeCatalogueService } from './stripe-catalogue.service.js';
import { SubscriptionReadCache } from './subscription-read-cache.js';

/** The parts of a Stripe event this module reads (the payload is verified, its shape is Stripe's). */
export interface StripeEventLike {
  id: string;
  type: string;
  created: number;
  api_version?: string | null;
  data: { object: Record<string, unknown> };
}

/** Thrown when an event names something not known yet (another event has to come first): retried later. */
export class NotReadyError extends Error {
  override name = 'NotReadyError';
}

type Obj = Record<string, unknown>;
const str = (value: unknown): string | null => (typeof value === 'string' && value ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
/** An expandable field: the id, whether Stripe sent the id or the expanded object. */
const idOf = (value: unknown): string | null => str(value) ?? str((value as Obj | null)?.id);
const date = (seconds: unknown): Date | null => (num(seconds) === null ? null : new Date((seconds as number) * 1000));
const metadataOf = (value: unknown): Obj => (value && typeof value === 'object' ? (value as Obj) : {});

const SUBSCRIPTION_EVENTS = new Set([
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'customer.subscription.pending_update_applied',
  'customer.subscription.pending_update_expired',
]);

/** Event types this module acts on; any other is stored and marked ignored. */
export const HANDLED_EVENTS = new Set([
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.async_payment_failed',
  'checkout.session.expired',
  ...SUBSCRIPTION_EVENTS,
  'customer.subscription.trial_will_end',
  'invoice.paid',
  'invoice.payment_failed',
  'invoice.payment_action_required',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.updated',
  'charge.dispute.closed',
]);

/**
 * What an event changes first: the subscription it names (its checkout, invoices and own events
 * all write the subscription's mirror, orders and licences), else its checkout's order, else the
 * object itself (charges and disputes take their turns per order inside the handler). Events of one
 * subject are processed one after the other (WebhookService); those of different subjects at once.
 */
export function subjectOf(event: StripeEventLike): string {
  const object = event.data.object;
  if (SUBSCRIPTION_EVENTS.has(event.type) || event.type === 'customer.subscription.trial_will_end') return `sub:${str(object.id)}`;
  if (event.type.startsWith('checkout.session.')) {
    const subscription = idOf(object.subscription);
    if (subscription) return `sub:${subscription}`;
    const order = str(object.client_reference_id) ?? str(metadataOf(object.metadata).orderId);
    if (order) return `order:${order}`;
  }
  if (event.type.startsWith('invoice.')) {
    const details = metadataOf(metadataOf(object.parent).subscription_details);
    const subscription = idOf(details.subscription) ?? idOf(object.subscription);
    if (subscription) return `sub:${subscription}`;
  }
  return `${event.type.split('.')[0]}:${str(object.id) ?? event.id}`;
}

/**
 * What each Stripe event does to orders and subscriptions. Every handler is idempotent and
 * order-independent: orders gather facts that only accumulate (orderStatus derives the status),
 * subscription writes are guarded by the event's `created`, and after a change the complete
 * entitlement of the source goes to the sink.
 */
@Injectable()
export class StripeEventsService {
  private readonly logger = new Logger(StripeEventsService.name);
  /**
   * Events that read an order and write what follows from it (refunds, disputes) take their turns
   * per order on this instance: two such events processed at once would otherwise both decide from
   * the same old order, and the later write would win (also on MongoDB; on FerretDB over a pool
   * the write itself can be lost too).
   */
  private readonly orderTurns = new KeyedTurns();

  constructor(
    @InjectModel(Order.name) private readonly orders: Model<Order>,
    @InjectModel(BillingCustomer.name) private readonly customers: Model<BillingCustomer>,
    private readonly catalogue: CatalogueService,
    private readonly entitlements: EntitlementsService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly latestSubscription: SubscriptionReadCache,
    private readonly stripeCatalogue: StripeCatalogueService,
    private readonly mailer: BillingMailer,
    private readonly batches: BillingBatches,
  ) {}

  /** The subscription page, where the portal (and its deep links) is one click away. */
  private get subscriptionPage(): string {
    return `${this.config.publicUrl}/dashboard/user/subscription`;
  }

  /** Mails are idempotent by key: a redelivered or retried event sends nothing twice. */
  private async mailUser(userId: string | null, key: string, build: (email: string, name: string) => ReturnType<typeof trialEndingMail>) {
    const user = userId ? await this.users.recipientOf(userId) : null;
    if (!user) return;
    await this.mail.enqueue({ ...build(user.email, user.name), idempotencyKey: key });
  }

  /** Handles one event; answers what it did (kept as the event's outcome). */
  async handle(event: StripeEventLike): Promise<string> {
    if (event.api_version && event.api_version !== STRIPE_API_VERSION) {
      this.logger.warn(`Event ${event.id} uses API ${event.api_version}, this code ${STRIPE_API_VERSION}: check the endpoint's version`);
    }
    const object = event.data.object;
    switch (event.type) {
      case 'checkout.session.completed':
        return this.fulfilCheckout(object, event.created);
      case 'checkout.session.async_payment_succeeded':
        return this.checkoutPaid(object, event.created);
      case 'checkout.session.async_payment_failed':
        return this.checkoutFact(object, { failedAt: date(event.created) }, 'failed');
      case 'checkout.session.expired':
        return this.checkoutFact(object, { expiredAt: date(event.created) }, 'expired');
      case 'customer.subscription.trial_will_end':
        return this.trialWillEnd(object, event.created);
      case 'invoice.paid':
        return this.invoicePaid(object, event.created);
      case 'invoice.payment_failed':
      case 'invoice.payment_action_required':
        return this.invoiceFailed(object, event.created);
      case 'charge.refunded':
        return this.chargeRefunded(object);
      case 'charge.dispute.created':
      case 'charge.dispute.updated':
      case 'charge.dispute.closed':
        return this.dispute(object);
      default:
        if (SUBSCRIPTION_EVENTS.has(event.type)) return this.syncSubscription(object, event.created);
        return 'ignored';
    }
  }

  /* ---------------------------------------------------------------- checkout ----------------- */

  /**
   * Fulfils a completed Checkout Session: the one function both the webhook
   * (`checkout.session.completed`) and the success page (BillingService.confirmCheckout, with the
   * session retrieved from Stripe) call, whichever comes first. Everything it does is idempotent, so
   * the second call changes nothing: the order's facts are only added (the first payment date
   * stays), the licences are found by ids derived from their source, and the confirmation mail has
   * an idempotency key.
   *
   * Facts are dated `at` (seconds): when it happened at Stripe (the event's `created`), not when it
   * was processed.
   */
  async fulfilCheckout(session: Obj, at: number): Promise<string> {
    const orderId = this.orderIdOf(session);
    const subscriptionId = idOf(session.subscription);
    const set: Obj = {
      'stripe.checkoutSessionId': str(session.id),
      'stripe.customerId': idOf(session.customer),
      ...(subscriptionId ? { 'stripe.subscriptionId': subscriptionId } : {}),
      ...(idOf(session.payment_intent) ? { 'stripe.paymentIntentId': idOf(session.payment_intent) } : {}),
      ...(idOf(session.invoice) ? { 'stripe.invoiceId': idOf(session.invoice) } : {}),
    };
    // `paid` (cards), `no_payment_required` (a trial): done now. `unpaid`: a delayed method, async_payment_* follows.
    const paid = session.payment_status === 'paid' || session.payment_status === 'no_payment_required';
    const accepted = metadataOf(session.consent).terms_of_service === 'accepted';
    const order = await this.updateOrder(orderId, set, {
      checkoutCompletedAt: date(at),
      ...(paid ? { paidAt: date(at) } : {}),
      ...(accepted ? { termsAcceptedAt: date(at) } : {}),
    });
    if (subscriptionId && order.userId) {
      // The subscription's events may have come first without a user: link it now.
      await this.batches.subscriptionWrites.updateOne(
        { _id: subscriptionId, userId: null },
        { $set: { userId: order.userId, planId: order.planId } },
      );
      this.latestSubscription.forget(order.userId);
    }
    await this.entitlements.applyOrder(orderId);
    await this.mailer.orderConfirmed(orderId);
    return `order ${orderId} ${order.status}`;
  }

  private async checkoutPaid(session: Obj, created: number): Promise<string> {
    const orderId = this.orderIdOf(session);
    const order = await this.updateOrder(orderId, { 'stripe.paymentIntentId': idOf(session.payment_intent) }, { paidAt: date(created) });
    await this.entitlements.applyOrder(orderId);
    await this.mailer.orderConfirmed(orderId);
    return `order ${orderId} ${order.status}`;
  }

  private async checkoutFact(session: Obj, fact: { failedAt?: Date | null; expiredAt?: Date | null }, label: string): Promise<string> {
    const orderId = this.orderIdOf(session);
    const order = await this.updateOrder(orderId, {}, fact);
    return `order ${orderId} ${label}: ${order.status}`;
  }

  private orderIdOf(session: Obj): string {
    const orderId = str(session.client_reference_id) ?? str(metadataOf(session.metadata).orderId);
    if (!orderId) throw new Error(`Checkout session ${String(session.id)} names no order (client_reference_id)`);
    return orderId;
  }

  /**
   * Sets references and adds facts (a fact, once set, is kept: the first payment date stays, even
   * when the webhook and the success page add it at the same moment: the write is conditional on
   * the fact still being unset), then writes the status derived from all facts. Missing order: not
   * made here, so the event is retried.
   */
  private async updateOrder(orderId: string, set: Obj, facts: Partial<Record<OrderFact, Date | null>>): Promise<Order> {
    const cleanSet = Object.fromEntries(Object.entries(set).filter(([, value]) => value !== null && value !== undefined));
    for (let attempt = 0; ; attempt += 1) {
      const current = await this.batches.order(orderId);
      if (!current) throw new NotReadyError(`Order ${orderId} is not known`);
      const factSet: Obj = {};
      for (const [key, value] of Object.entries(facts)) if (value && !current[key as OrderFact]) factSet[key] = value;
      const merged = { ...current, ...factSet } as Order;
      const status = orderStatus(merged);
      const unset = Object.fromEntries(Object.keys(factSet).map((key) => [key, null]));
      const result = await this.batches.orderWrites.updateOne(
        { _id: orderId, ...unset },
        { $set: { ...cleanSet, ...factSet, status, updatedAt: new Date() } },
      );
      if (result.matchedCount === 1) {
        this.latestSubscription.forget(current.userId);
        return { ...merged, ...cleanSet, status } as Order;
      }
      // Another writer added one of these facts meanwhile: read it and derive again.
      if (attempt >= 3) throw new NotReadyError(`Order ${orderId} changed meanwhile`);
    }
  }

  /* ---------------------------------------------------------------- subscriptions ------------ */

  private async userOfCustomer(customerId: string | null): Promise<string | null> {
    if (!customerId) return null;
    const customer = await this.customers.findOne({ stripeCustomerId: customerId }).lean<BillingCustomer>().exec();
    return customer?._id ?? null;
  }

  /**
   * The mirror takes the subscription's state from the event's object, unless it already holds the
   * state of a newer event (`stripeEventAt > created`). Events of the same second: a terminal
   * status is kept (cancelled stays cancelled), so shuffled deliveries end the same way.
   */
  private async syncSubscription(subscription: Obj, created: number): Promise<string> {
    const id = str(subscription.id);
    if (!id) throw new Error('subscription event without an id');
    const metadata = metadataOf(subscription.metadata);
    const item = ((subscription.items as Obj | undefined)?.data as Obj[] | undefined)?.[0] ?? {};
    const priceId = idOf(item.price);
    const customerId = idOf(subscription.customer);
    const status = str(subscription.status) as SubscriptionStatus;
    const existing = await this.batches.subscription(id);
    if (
      existing &&
      (existing.stripeEventAt > created || (existing.stripeEventAt === created && isTerminal(existing.status) && !isTerminal(status)))
    ) {
      return `subscription ${id}: older than the stored state, ignored`;
    }
    const userId = str(metadata.userId) ?? existing?.userId ?? (await this.userOfCustomer(customerId));
    const planId = str(metadata.planId) ?? (await this.stripeCatalogue.planOfPrice(priceId)) ?? existing?.planId ?? null;
    const state = {
      customerId,
      userId,
      planId,
      priceId,
      quantity: num(item.quantity) ?? 1,
      status,
      cancelAtPeriodEnd: subscription.cancel_at_period_end === true,
      cancelAt: date(subscription.cancel_at),
      currentPeriodEnd: date(item.current_period_end),
      trialEnd: date(subscription.trial_end),
      latestInvoiceId: idOf(subscription.latest_invoice),
      stripeEventAt: created,
      updatedAt: new Date(),
    };
    const guard: Record<string, unknown> = { _id: id, stripeEventAt: existing ? existing.stripeEventAt : { $lte: created } };
    try {
      const result = await this.batches.subscriptionWrites.updateOne({ ...guard, _id: id }, { $set: state }, { upsert: !existing });
      if (existing && result.matchedCount === 0) throw new NotReadyError(`subscription ${id} changed meanwhile`);
    } catch (error) {
      // Inserted by a concurrent event meanwhile: handle this one again against it.
      if (isDuplicateKey(error)) throw new NotReadyError(`subscription ${id} inserted meanwhile`);
      throw error;
    } finally {
      this.latestSubscription.forget(userId, existing?.userId);
    }
    const orderId = str(metadata.orderId);
    // The checkout's order names its subscription (usually already: checkout.session.completed sets
    // it too, and every later event of the subscription comes here); written only when it does not.
    if (orderId && (await this.batches.order(orderId))?.stripe.subscriptionId !== id) {
      await this.batches.orderWrites.updateOne({ _id: orderId }, { $set: { 'stripe.subscriptionId': id } });
    }
    if (!(await this.entitlements.applySubscription(id))) {
      // Stored; the entitlement follows once checkout.session.completed names the user.
      return `subscription ${id} ${status} (user or plan not known yet)`;
    }
    // The checkout's confirmation, if this was the last piece it waited for (the licences).
    if (orderId) await this.mailer.orderConfirmed(orderId);
    return `subscription ${id} ${status}`;
  }

  private async trialWillEnd(subscription: Obj, created: number): Promise<string> {
    const outcome = await this.syncSubscription(subscription, created);
    const trialEnd = date(subscription.trial_end);
    const mirror = await this.batches.subscription(str(subscription.id)!);
    if (trialEnd && mirror?.userId) {
      await this.mailUser(mirror.userId, `billing:trial-will-end:${mirror._id}:${trialEnd.getTime()}`, (email, name) =>
        trialEndingMail(email, name, trialEnd, this.subscriptionPage),
      );
    }
    return `${outcome}; trial ends ${trialEnd?.toISOString() ?? '?'}`;
  }

  /**
   * A subscription as Stripe answered it (the daily reconcile, a cancel, resume or plan change made
   * here, the success page's session), applied through the webhooks' own reducer like an event
   * created at `atSeconds`, the time of Stripe's answer: it wins over every event made before, and
   * loses to any made after (which may still arrive later, in any order).
   */
  syncFromApi(subscription: Record<string, unknown>, atSeconds = Math.floor(Date.now() / 1000)): Promise<string> {
    return this.syncSubscription(subscription, atSeconds);
  }

  /* ---------------------------------------------------------------- invoices ------------------ */

  /** Basil moved the subscription of an invoice to `parent.subscription_details`. */
  private invoiceSubscription(invoice: Obj): { subscriptionId: string | null; metadata: Obj } {
    const details = metadataOf(metadataOf(invoice.parent).subscription_details);
    return { subscriptionId: idOf(details.subscription) ?? idOf(invoice.subscription), metadata: metadataOf(details.metadata) };
  }

  private invoicePayment(invoice: Obj): { paymentIntentId: string | null; chargeId: string | null } {
    const payment = metadataOf(metadataOf(((invoice.payments as Obj | undefined)?.data as Obj[] | undefined)?.[0]).payment);
    return {
      paymentIntentId: idOf(payment.payment_intent) ?? idOf(invoice.payment_intent),
      chargeId: idOf(payment.charge) ?? idOf(invoice.charge),
    };
  }

  /**
   * The first invoice of a subscription bought through Checkout pays the checkout order (named in
   * the subscription's metadata, which Stripe copies onto the invoice). Every other invoice is a
   * renewal order `inv_<invoice id>`, inserted once however often the event comes.
   */
  private async invoicePaid(invoice: Obj, created: number): Promise<string> {
    const invoiceId = str(invoice.id)!;
    const { subscriptionId, metadata } = this.invoiceSubscription(invoice);
    const { paymentIntentId, chargeId } = this.invoicePayment(invoice);
    const refs = {
      'stripe.invoiceId': invoiceId,
      'stripe.customerId': idOf(invoice.customer),
      'stripe.subscriptionId': subscriptionId,
      'stripe.paymentIntentId': paymentIntentId,
      'stripe.chargeId': chargeId,
      'stripe.hostedInvoiceUrl': str(invoice.hosted_invoice_url),
    };
    const checkoutOrder = invoice.billing_reason === 'subscription_create' ? str(metadata.orderId) : null;
    let orderId: string;
    if (checkoutOrder) {
      orderId = checkoutOrder;
      await this.updateOrder(orderId, refs, { paidAt: date(created) });
    } else {
      orderId = `inv_${invoiceId}`;
      await this.renewalOrder(orderId, invoice, subscriptionId, metadata);
      await this.updateOrder(orderId, refs, { paidAt: date(created) });
    }
    if (subscriptionId) await this.entitlements.applySubscription(subscriptionId);
    if (checkoutOrder) await this.mailer.orderConfirmed(orderId);
    // A renewal's receipt; an invoice of nothing (a trial's, a credit) is no payment to confirm.
    else if ((num(invoice.amount_paid) ?? 0) > 0) await this.mailer.renewalPaid(orderId);
    return `invoice ${invoiceId} paid: order ${orderId}`;
  }

  private async invoiceFailed(invoice: Obj, created: number): Promise<string> {
    const invoiceId = str(invoice.id)!;
    const { subscriptionId, metadata } = this.invoiceSubscription(invoice);
    if (invoice.billing_reason === 'subscription_create' && str(metadata.orderId)) {
      // The checkout's own first payment: Checkout retries it; the order stays pending.
      return `invoice ${invoiceId} failed (first payment; the checkout order stays pending)`;
    }
    const orderId = `inv_${invoiceId}`;
    await this.renewalOrder(orderId, invoice, subscriptionId, metadata);
    await this.updateOrder(orderId, { 'stripe.hostedInvoiceUrl': str(invoice.hosted_invoice_url) }, { failedAt: date(created) });
    // The subscription's own past_due status arrives with customer.subscription.updated.
    const order = await this.batches.order(orderId);
    const mirror = subscriptionId ? await this.batches.subscription(subscriptionId) : null;
    const graceUntil = mirror?.currentPeriodEnd ? new Date(mirror.currentPeriodEnd.getTime() + GRACE_DAYS * 86_400_000) : null;
    await this.mailUser(order?.userId ?? null, `billing:payment-failed:${invoiceId}`, (email, name) =>
      paymentFailedMail(email, name, graceUntil, this.subscriptionPage),
    );
    return `invoice ${invoiceId} payment failed: order ${orderId}`;
  }

  private async renewalOrder(orderId: string, invoice: Obj, subscriptionId: string | null, metadata: Obj): Promise<void> {
    if (await this.batches.order(orderId)) return;
    const mirror = subscriptionId ? await this.batches.subscription(subscriptionId) : null;
    const userId = str(metadata.userId) ?? mirror?.userId ?? (await this.userOfCustomer(idOf(invoice.customer)));
    const planId = str(metadata.planId) ?? mirror?.planId;
    if (!userId || !planId) throw new NotReadyError(`invoice ${String(invoice.id)}: user or plan not known yet`);
    const plan = await this.catalogue.recent(planId);
    const quantity = mirror?.quantity ?? 1;
    await this.batches.orderInserts.insert({
      _id: orderId,
      userId,
      planId,
      products: plan.products,
      quantity,
      amountMinor: num(invoice.amount_paid) || num(invoice.amount_due) || plan.amountMinor * quantity,
      currency: (str(invoice.currency)?.toLowerCase() ?? plan.currency) as Order['currency'],
      status: 'pending',
      kind: 'renewal',
      stripe: {
        checkoutSessionId: null,
        customerId: idOf(invoice.customer),
        subscriptionId,
        invoiceId: str(invoice.id),
        paymentIntentId: null,
        chargeId: null,
        hostedInvoiceUrl: null,
      },
      createdAt: new Date(),
      updatedAt: new Date(),
    } as Order);
    // 'duplicate': another delivery of the invoice made it first, which is as good.
  }

  /* ---------------------------------------------------------------- refunds and disputes ------ */

  private async orderOfCharge(chargeId: string | null, paymentIntentId: string | null): Promise<Order> {
    const or: Record<string, unknown>[] = [];
    if (chargeId) or.push({ 'stripe.chargeId': chargeId });
    if (paymentIntentId) or.push({ 'stripe.paymentIntentId': paymentIntentId });
    const order = or.length ? await this.orders.findOne({ $or: or }).lean<Order>().exec() : null;
    // The payment's own event (checkout completed, invoice paid) may not have come yet.
    if (!order) throw new NotReadyError(`no order for charge ${chargeId ?? '?'} / payment ${paymentIntentId ?? '?'} yet`);
    return order;
  }

  /** `amount_refunded` is the charge's running total, so the largest seen is the truth (refunds only grow). */
  private async chargeRefunded(charge: Obj): Promise<string> {
    const chargeId = str(charge.id);
    const found = await this.orderOfCharge(chargeId, idOf(charge.payment_intent));
    return this.orderTurns.run(found._id, async () => {
      const order = (await this.batches.order(found._id)) ?? found;
      return this.applyRefund(order, charge, chargeId);
    });
  }

  private async applyRefund(order: Order, charge: Obj, chargeId: string | null): Promise<string> {
    const refunded = Math.max(order.refundedMinor, num(charge.amount_refunded) ?? 0);
    const inFull = order.refundedInFull || charge.refunded === true;
    const status = orderStatus({ ...order, refundedMinor: refunded, refundedInFull: inFull });
    await this.batches.orderWrites.updateOne(
      { _id: order._id },
      { $set: { refundedMinor: refunded, refundedInFull: inFull, status, 'stripe.chargeId': chargeId, updatedAt: new Date() } },
    );
    this.latestSubscription.forget(order.userId);
    await this.entitlements.applyOrder(order._id);
    // In full: the licence is revoked (a partial refund keeps it, and says nothing).
    if (status === 'refunded' && chargeId) await this.mailer.licenceChanged(order._id, 'revoked-refund', chargeId);
    return `order ${order._id} ${status} (${refunded} refunded)`;
  }

  /** A closed dispute (won/lost) is final: a late `created` or `updated` never reopens it. */
  private async dispute(dispute: Obj): Promise<string> {
    const found = await this.orderOfCharge(idOf(dispute.charge), idOf(dispute.payment_intent));
    return this.orderTurns.run(found._id, async () => {
      const order = (await this.batches.order(found._id)) ?? found;
      return this.applyDispute(order, dispute);
    });
  }

  private async applyDispute(order: Order, dispute: Obj): Promise<string> {
    const status = str(dispute.status) ?? 'needs_response';
    const final = (value: string | undefined) => value === 'won' || value === 'lost' || value === 'warning_closed';
    if (final(order.dispute?.status) && !final(status)) return `order ${order._id}: dispute already ${order.dispute!.status}`;
    await this.batches.orderWrites.updateOne(
      { _id: order._id },
      { $set: { dispute: { id: str(dispute.id), status }, updatedAt: new Date() } },
    );
    this.latestSubscription.forget(order.userId);
    await this.entitlements.applyOrder(order._id);
    const cause = str(dispute.id) ?? idOf(dispute.charge) ?? order._id;
    if (status === 'lost') await this.mailer.licenceChanged(order._id, 'revoked-dispute', cause);
    else if (!final(status)) await this.mailer.licenceChanged(order._id, 'suspended-dispute', cause);
    // Restored: only worth a word when the suspension was (a closed inquiry that never suspended is not news).
    else if (order.dispute && !final(order.dispute.status)) await this.mailer.licenceChanged(order._id, 'restored-dispute', cause);
    return `order ${order._id} dispute ${status}`;
  }
}

const isTerminal = (status: SubscriptionStatus) => status === 'canceled' || status === 'incomplete_expired';

/** What an order records as facts (each set once, by the first event or page that knows it). */
type OrderFact = 'paidAt' | 'failedAt' | 'expiredAt' | 'checkoutCompletedAt' | 'termsAcceptedAt';
