import { Inject, Injectable } from '@nestjs/common';
import { CatalogueService } from '../catalogue/catalogue.service.js';
import { APP_CONFIG, type AppConfig } from '../config/app-config.js';
import { type MailInput, MailService } from '../mail/mail.service.js';
import { UsersService } from '../users/users.service.js';
import { BillingBatches } from './billing-batches.js';
import { type LicenceChange, licenceChangeMail, orderConfirmationMail, renewalReceiptMail } from './billing-mails.js';
import { ENTITLEMENT_SINK, type Entitlement, type EntitlementSink } from './entitlement-sink.js';
import { Order } from './schemas/billing.schemas.js';

/** The licences of an order come from its subscription, or from the order itself (one-off, manual). */
export const sourceOfOrder = (order: Pick<Order, '_id' | 'stripe'>): Entitlement['source'] =>
  order.stripe.subscriptionId ? { kind: 'subscription', id: order.stripe.subscriptionId } : { kind: 'order', id: order._id };

/**
 * The buyer's mails about money: the order confirmation with the licence keys, a receipt per
 * renewal, and a plain word when a refund or a dispute revokes, suspends or restores a licence.
 * Every mail has an idempotency key naming what it is about (the order, the invoice, the dispute):
 * the outbox stores one message per key, however many events, retries and success-page visits ask
 * for it, and at the same moment too (src/mail/mail.service.ts).
 */
@Injectable()
export class BillingMailer {
  constructor(
    private readonly catalogue: CatalogueService,
    private readonly users: UsersService,
    private readonly mail: MailService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(ENTITLEMENT_SINK) private readonly sink: EntitlementSink,
    private readonly batches: BillingBatches,
  ) {}

  private get links() {
    return { publicUrl: this.config.publicUrl };
  }

  private async send(userId: string | null, key: string, build: (email: string, name: string) => MailInput | Promise<MailInput>) {
    const user = userId ? await this.users.recipientOf(userId) : null;
    if (!user) return false;
    await this.mail.enqueue({ ...(await build(user.email, user.name)), idempotencyKey: key });
    return true;
  }

  /** An order's own mail, then the mark on the order (two callers at once both enqueue: the outbox keeps one). */
  private async sendOwn(order: Order, key: string, build: (email: string, name: string) => MailInput): Promise<boolean> {
    const sent = await this.send(order.userId, key, build);
    if (sent) await this.batches.orderWrites.updateOne({ _id: order._id, mailQueuedAt: null }, { $set: { mailQueuedAt: new Date() } });
    return sent;
  }

  /**
   * The confirmation of a checkout (or manual) order, once it is paid and every licence it gives
   * exists: until then it does nothing (the event that completes the picture sends it). Answers
   * whether the mail is in the outbox now.
   */
  async orderConfirmed(orderId: string): Promise<boolean> {
    const order = await this.batches.order(orderId);
    if (order?.mailQueuedAt) return true;
    if (!order?.userId || order.kind === 'renewal' || order.status !== 'paid') return false;
    const licences = (await this.sink.licencesOf(sourceOfOrder(order))).filter((licence) => order.products.includes(licence.product));
    if (licences.length < new Set(order.products).size || licences.some((licence) => !licence.valid)) return false;
    const plan = await this.catalogue.recent(order.planId);
    const mirror = order.stripe.subscriptionId ? await this.batches.subscription(order.stripe.subscriptionId) : null;
    return this.sendOwn(order, `billing:order-confirmation:${order._id}`, (email, name) =>
      orderConfirmationMail(
        email,
        name,
        {
          orderId: order._id,
          planName: plan.name,
          interval: plan.interval,
          products: order.products,
          seats: plan.seats * Math.max(1, order.quantity),
          amountMinor: order.amountMinor,
          currency: order.currency,
          renewsAt: mirror?.cancelAtPeriodEnd ? null : (mirror?.currentPeriodEnd ?? null),
          receiptUrl: order.stripe.hostedInvoiceUrl,
          keys: licences.map(({ product, key }) => ({ product, key })),
        },
        this.links,
      ),
    );
  }

  /** A paid renewal (or plan change) invoice: one receipt per invoice. */
  async renewalPaid(orderId: string): Promise<boolean> {
    const order = await this.batches.order(orderId);
    if (order?.mailQueuedAt) return true;
    if (!order?.userId || order.kind !== 'renewal' || !order.paidAt) return false;
    const plan = await this.catalogue.recent(order.planId);
    const mirror = order.stripe.subscriptionId ? await this.batches.subscription(order.stripe.subscriptionId) : null;
    return this.sendOwn(order, `billing:renewal-receipt:${order._id}`, (email, name) =>
      renewalReceiptMail(
        email,
        name,
        {
          planName: plan.name,
          products: order.products,
          amountMinor: order.amountMinor,
          currency: order.currency,
          paidAt: order.paidAt!,
          periodEnd: mirror?.currentPeriodEnd ?? null,
          invoiceUrl: order.stripe.hostedInvoiceUrl,
          invoiceId: order.stripe.invoiceId ?? order._id,
        },
        this.links,
      ),
    );
  }

  /**
   * A refund or a dispute changed what an order gives (`cause`: the charge or the dispute): one
   * mail per change and cause, so a dispute that is won after a suspension sends two, in order.
   */
  async licenceChanged(orderId: string, change: LicenceChange, cause: string): Promise<boolean> {
    const order = await this.batches.order(orderId);
    if (!order?.userId) return false;
    const plan = await this.catalogue.recent(order.planId);
    return this.send(order.userId, `billing:licence-${change}:${order._id}:${cause}`, (email, name) =>
      licenceChangeMail(email, name, change, { planName: plan.name, products: order.products, orderId: order._id }, this.links),
    );
  }
}
