import { Prop, Schema, SchemaFactory } from '@nestjs/mongoose';
import { Schema as MongooseSchema } from 'mongoose';
import { CURRENCIES, type Currency } from '../../../lib/api/catalogue.js';
import { ORDER_STATUSES, type OrderKind, type OrderStatus, type SubscriptionStatus } from '../../../lib/api/billing.js';
import type { ProductSlug } from '../../../lib/product.js';

/** `billing_customers`: `_id` = user id → the Stripe customer made for them (once, idempotently). */
@Schema({ collection: 'billing_customers', versionKey: false })
export class BillingCustomer {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true, unique: true })
  stripeCustomerId!: string;

  @Prop({ type: Date, required: true })
  createdAt!: Date;
}
export const BillingCustomerSchema = SchemaFactory.createForClass(BillingCustomer);

export interface OrderStripeRefs {
  checkoutSessionId: string | null;
  customerId: string | null;
  subscriptionId: string | null;
  invoiceId: string | null;
  paymentIntentId: string | null;
  chargeId: string | null;
  hostedInvoiceUrl: string | null;
}

export interface OrderDispute {
  id: string;
  /** Stripe's dispute status; `won`/`lost` are final. */
  status: string;
}

/**
 * `orders`. The status is derived from facts (paidAt, failedAt, expiredAt, refunds) that events only
 * ever add, so the same events in any order give the same status (see order-status.ts).
 */
@Schema({ collection: 'orders', versionKey: false })
export class Order {
  @Prop({ type: String, required: true })
  _id!: string;

  /** Null once the account is deleted: the order stays for the accounts, without the person. */
  @Prop({ type: String, default: null })
  userId!: string | null;

  @Prop({ type: String, required: true })
  planId!: string;

  @Prop({ type: [String], required: true })
  products!: ProductSlug[];

  @Prop({ type: Number, required: true })
  quantity!: number;

  @Prop({ type: Number, required: true })
  amountMinor!: number;

  @Prop({ type: String, enum: CURRENCIES, required: true })
  currency!: Currency;

  @Prop({ type: String, enum: ORDER_STATUSES, required: true })
  status!: OrderStatus;

  @Prop({ type: String, required: true })
  kind!: OrderKind;

  @Prop({ type: Number, default: 0 })
  refundedMinor!: number;

  /** Stripe says the charge is refunded in full. */
  @Prop({ type: Boolean, default: false })
  refundedInFull!: boolean;

  @Prop({ type: MongooseSchema.Types.Mixed, default: null })
  dispute!: OrderDispute | null;

  @Prop({ type: MongooseSchema.Types.Mixed, required: true })
  stripe!: OrderStripeRefs;

  @Prop({ type: String, default: null })
  receiptNumber!: string | null;

  @Prop({ type: String, default: null })
  note!: string | null;

  /**
   * When the buyer ticked Checkout's terms box (`consent.terms_of_service: accepted`), which asks for
   * immediate delivery and acknowledges the end of the withdrawal right (src/billing/checkout-consent.ts).
   */
  @Prop({ type: Date, default: null })
  termsAcceptedAt!: Date | null;

  @Prop({ type: Date, required: true })
  createdAt!: Date;

  @Prop({ type: Date, default: null })
  paidAt!: Date | null;

  @Prop({ type: Date, default: null })
  failedAt!: Date | null;

  @Prop({ type: Date, default: null })
  expiredAt!: Date | null;

  /**
   * When the order's own mail (its confirmation; a renewal's receipt) went into the outbox: later
   * events read this on the order they already load, instead of asking the outbox again.
   */
  @Prop({ type: Date, default: null })
  mailQueuedAt!: Date | null;

  /** Checkout said the session is complete (paid, or a delayed payment on its way). */
  @Prop({ type: Date, default: null })
  checkoutCompletedAt!: Date | null;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}
export const OrderSchema = SchemaFactory.createForClass(Order);
OrderSchema.index({ userId: 1, createdAt: -1 });
OrderSchema.index({ 'stripe.paymentIntentId': 1 });
OrderSchema.index({ 'stripe.chargeId': 1 });
OrderSchema.index({ 'stripe.subscriptionId': 1 });
OrderSchema.index({ 'stripe.checkoutSessionId': 1 });
/**
 * Revenue windows (BillingService#revenueSince): the window's totals per currency come from this
 * index alone, on MongoDB and on the embedded database (which never reads an order for them).
 */
OrderSchema.index({ paidAt: -1, currency: 1, amountMinor: 1, refundedMinor: 1, refundedInFull: 1 });

/** `subscriptions`: a mirror of a Stripe subscription, `_id` its id. Written only from events. */
@Schema({ collection: 'subscriptions', versionKey: false })
export class SubscriptionMirror {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, default: null })
  userId!: string | null;

  @Prop({ type: String, required: true })
  customerId!: string;

  @Prop({ type: String, default: null })
  planId!: string | null;

  @Prop({ type: String, default: null })
  priceId!: string | null;

  @Prop({ type: Number, default: 1 })
  quantity!: number;

  @Prop({ type: String, required: true })
  status!: SubscriptionStatus;

  @Prop({ type: Boolean, default: false })
  cancelAtPeriodEnd!: boolean;

  @Prop({ type: Date, default: null })
  cancelAt!: Date | null;

  @Prop({ type: Date, default: null })
  currentPeriodEnd!: Date | null;

  @Prop({ type: Date, default: null })
  trialEnd!: Date | null;

  @Prop({ type: String, default: null })
  latestInvoiceId!: string | null;

  /** `created` (seconds) of the event this state came from: an older event never overwrites it. */
  @Prop({ type: Number, required: true })
  stripeEventAt!: number;

  @Prop({ type: Date, required: true })
  updatedAt!: Date;
}
export const SubscriptionMirrorSchema = SchemaFactory.createForClass(SubscriptionMirror);
SubscriptionMirrorSchema.index({ userId: 1, updatedAt: -1 });
SubscriptionMirrorSchema.index({ customerId: 1 });
/** The overview's counts per status: answered from this index on the embedded database. */
SubscriptionMirrorSchema.index({ status: 1 });

export const STRIPE_EVENT_STATUSES = ['pending', 'processing', 'done', 'ignored', 'failed', 'dead'] as const;
export type StripeEventStatus = (typeof STRIPE_EVENT_STATUSES)[number];

/** `stripe_events`: the webhook inbox, `_id` = event id (a redelivery is a duplicate key). */
@Schema({ collection: 'stripe_events', versionKey: false })
export class StripeEventRecord {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  type!: string;

  /** The event's `created` (seconds). */
  @Prop({ type: Number, required: true })
  created!: number;

  @Prop({ type: String, default: null })
  apiVersion!: string | null;

  /**
   * The body of events stored before payloads had their own collection (StripeEventPayload);
   * null for every newer one.
   */
  @Prop({ type: String, default: null })
  payload!: string | null;

  @Prop({ type: String, enum: STRIPE_EVENT_STATUSES, required: true })
  status!: StripeEventStatus;

  @Prop({ type: Number, default: 0 })
  attempts!: number;

  @Prop({ type: Date, default: null })
  nextAttemptAt!: Date | null;

  @Prop({ type: Date, default: null })
  leaseUntil!: Date | null;

  @Prop({ type: String, default: null })
  outcome!: string | null;

  @Prop({ type: Date, required: true })
  receivedAt!: Date;

  @Prop({ type: Date, default: null })
  processedAt!: Date | null;
}
export const StripeEventRecordSchema = SchemaFactory.createForClass(StripeEventRecord);

/**
 * The verified body of an inbox event, exactly as Stripe sent it, beside its record rather than in
 * it: the record is updated several times per event (claim, outcome), and FerretDB finds a row by
 * `_id` by reading the rows' JSON, so with 4 kB bodies in the rows each update cost 26 ms at 240
 * events (measured by `npm run bench`, webhooks); small records keep it to a few. A string, not a
 * document: FerretDB rewrites a nested document whenever it writes the row.
 */
@Schema({ collection: 'stripe_event_payloads', versionKey: false })
export class StripeEventPayload {
  /** The event's id, as the record's. */
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  payload!: string;
}

export const StripeEventPayloadSchema = SchemaFactory.createForClass(StripeEventPayload);
StripeEventRecordSchema.index({ status: 1, nextAttemptAt: 1 });
/** The admin inbox's newest events and the overview's "last received" (WebhookService#list, #health). */
StripeEventRecordSchema.index({ receivedAt: -1 });

/** `billing_settings`: ids of objects made in Stripe once (the portal configuration). */
@Schema({ collection: 'billing_settings', versionKey: false })
export class BillingSetting {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  value!: string;
}
export const BillingSettingSchema = SchemaFactory.createForClass(BillingSetting);

/**
 * `billing_stripe_prices`, `_id` = plan id: the Stripe Product and Price the app keeps in step with
 * the plan (src/billing/stripe-catalogue.service.ts). The hashes say which plan fields they were
 * made from: a plan whose price fields changed needs a new Price (a Price's amount cannot change).
 */
@Schema({ collection: 'billing_stripe_prices', versionKey: false })
export class StripePlanPrice {
  @Prop({ type: String, required: true })
  _id!: string;

  @Prop({ type: String, required: true })
  productId!: string;

  @Prop({ type: String, required: true })
  productHash!: string;

  @Prop({ type: String, required: true })
  priceId!: string;

  @Prop({ type: String, required: true })
  priceHash!: string;

  @Prop({ type: Date, required: true })
  syncedAt!: Date;
}
export const StripePlanPriceSchema = SchemaFactory.createForClass(StripePlanPrice);
StripePlanPriceSchema.index({ priceId: 1 });
