/**
 * Billing (src/billing): Stripe Checkout, the billing portal, orders and the subscription mirror.
 * Shared by the server's DTOs and mappers and the client. Money is in integer minor units.
 *
 * Without Stripe configured, `GET /api/billing/status` answers `{ configured: false }` and every
 * write that needs Stripe answers 409 with `code: 'BILLING_NOT_CONFIGURED'` (a conflict with the
 * site's configuration, not a missing resource and not a temporary outage).
 */
import type { Currency, PlanInterval } from './catalogue.js';
import type { ProductSlug } from '../product.js';

export interface BillingStatus {
  configured: boolean;
}

export const ORDER_STATUSES = ['pending', 'paid', 'refunded', 'partially_refunded', 'failed', 'abandoned'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export type OrderKind = 'checkout' | 'renewal' | 'manual';

/** `ord_` + 26 base32 characters (checkout and manual orders) or `inv_<Stripe invoice id>` (renewals). */
export const ORDER_ID_PATTERN = /^(ord_[a-z2-7]{26}|inv_in_[A-Za-z0-9]{1,100})$/;

export interface OrderView {
  id: string;
  kind: OrderKind;
  planId: string;
  products: ProductSlug[];
  quantity: number;
  amountMinor: number;
  currency: Currency;
  status: OrderStatus;
  refundedMinor: number;
  /** Stripe's hosted invoice page (renewals), or our own receipt (manual orders). */
  receiptUrl: string | null;
  receiptNumber: string | null;
  createdAt: string;
  paidAt: string | null;
}

export interface OrderList {
  orders: OrderView[];
}

export type SubscriptionStatus =
  'incomplete' | 'incomplete_expired' | 'trialing' | 'active' | 'past_due' | 'unpaid' | 'canceled' | 'paused';

export interface SubscriptionView {
  id: string;
  planId: string;
  /** The companion products its plan covers (empty when the plan is not known). */
  products: ProductSlug[];
  quantity: number;
  seats: number;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  cancelAt: string | null;
  currentPeriodEnd: string | null;
  trialEnd: string | null;
}

/**
 * What a person owns through a purchase of its own rather than a subscription: a one-off (lifetime)
 * plan bought at Checkout, or an order an administrator recorded as paid another way.
 */
export interface PurchaseView {
  orderId: string;
  planId: string;
  kind: 'checkout' | 'manual';
  products: ProductSlug[];
  seats: number;
  amountMinor: number;
  currency: Currency;
  paidAt: string;
  /** What the purchase gives now: `revoked` after a refund in full or a lost dispute, `suspended` while a dispute is open. */
  state: 'active' | 'suspended' | 'revoked' | 'expired';
  /** Null: never ends (lifetime). */
  expiresAt: string | null;
}

/**
 * `GET /api/billing/subscription`: what the person owns. `subscription` is the newest subscription
 * (running or ended) or null; `subscriptions` those not over yet (one per set of products, newest
 * first); `purchases` the paid one-off purchases, newest first.
 */
export interface SubscriptionResponse {
  subscription: SubscriptionView | null;
  subscriptions: SubscriptionView[];
  purchases: PurchaseView[];
}

/** Stripe's Checkout Session ids (`cs_test_…`, `cs_live_…`), as its success URL hands them back. */
export const CHECKOUT_SESSION_ID_PATTERN = /^cs_(test|live)_[A-Za-z0-9]{1,250}$/;

/** `POST /api/billing/checkout/confirm`: the success page asks the server to check the session with Stripe. */
export interface CheckoutConfirmRequest {
  sessionId: string;
}

/**
 * Where a purchase stands after Checkout: `confirming` (Stripe has not told us yet), `processing`
 * (a bank transfer or another delayed method is on its way), `activating` (paid, the licences are
 * being made), `active` (every licence of the purchase is usable), `failed` (the payment failed or
 * the session expired).
 */
export type CheckoutStage = 'confirming' | 'processing' | 'activating' | 'active' | 'failed';

/** `POST /api/billing/checkout/confirm` and `GET /api/billing/checkout/progress?sessionId=…`. */
export interface CheckoutProgress {
  orderId: string;
  planId: string;
  interval: PlanInterval;
  orderStatus: OrderStatus;
  stage: CheckoutStage;
  /** The licences the purchase gave so far, one per product. */
  licences: Array<{ product: ProductSlug; valid: boolean }>;
}

/** `POST /api/billing/checkout`. */
export interface CheckoutRequest {
  planId: string;
  /** Units of the plan (seats = plan seats × quantity); 1 unless given. */
  quantity?: number;
}

export interface CheckoutResponse {
  orderId: string;
  /** Stripe Checkout: send the browser there. */
  url: string;
}

export const PORTAL_FLOWS = ['payment_method_update', 'subscription_update', 'subscription_cancel'] as const;
export type PortalFlow = (typeof PORTAL_FLOWS)[number];

/** `POST /api/billing/portal`: without a flow, the portal's home page; with one, a deep link. */
export interface PortalRequest {
  flow?: PortalFlow;
  /** The subscription a cancel or update deep link is about; the newest running one when absent. */
  subscriptionId?: string;
}

/** Stripe subscription ids (`sub_…`). */
export const SUBSCRIPTION_ID_PATTERN = /^sub_[A-Za-z0-9_]{1,250}$/;

/** Body of cancel and resume: which subscription (a person may run one per product); the newest running one when absent. */
export interface SubscriptionTargetRequest {
  subscriptionId?: string;
}

export interface RedirectResponse {
  url: string;
}

/** `POST /api/billing/subscription/plan`, and the query of `GET /api/billing/subscription/plan-preview`. */
export interface ChangePlanRequest {
  planId: string;
  quantity?: number;
  subscriptionId?: string;
  /**
   * The proration date of the preview the person confirmed (seconds): Stripe then charges exactly
   * the amounts shown. Absent: now.
   */
  prorationDate?: number;
}

/** A line of a plan change's preview: a proration (credit for the unused time, charge for the new plan) or the next period. */
export interface PreviewLine {
  description: string;
  amountMinor: number;
  proration: boolean;
}

/** `GET /api/billing/subscription/plan-preview`: Stripe's preview of the invoice after the change. */
export interface PlanChangePreview {
  subscriptionId: string;
  planId: string;
  quantity: number;
  /** Pass back as `prorationDate` to be charged exactly this. */
  prorationDate: number;
  currency: Currency;
  /** The prorations alone: positive is owed, negative a credit. */
  prorationMinor: number;
  /** The whole next invoice (prorations and the next period). */
  totalMinor: number;
  /** When that invoice is due (ISO 8601), when Stripe says. */
  nextPaymentAt: string | null;
  lines: PreviewLine[];
}

/**
 * Answer of cancel / resume / change plan: Stripe made the change, and its answer is already applied
 * (`subscription`, null when the person no longer has it); later webhooks cannot take it back unless
 * they are newer.
 */
export interface SubscriptionChangeResponse {
  requested: 'cancel_at_period_end' | 'resume' | 'change_plan';
  subscriptionId: string;
  subscription: SubscriptionView | null;
}

/** `POST /api/admin/billing/orders`: an order paid outside Stripe (bank transfer, invoice). */
export interface ManualOrderRequest {
  userId: string;
  planId: string;
  quantity?: number;
  /** Defaults to the plan's price × quantity. */
  amountMinor?: number;
  note?: string;
}

/** `GET /api/admin/billing/users/:userId`: what /admin/users shows about a person's billing. */
export interface AdminUserBilling {
  orders: OrderView[];
  subscription: SubscriptionView | null;
  /** The Stripe customer (for looking them up in the Stripe dashboard), or null. */
  stripeCustomerId: string | null;
}

export const WEBHOOK_EVENT_STATUSES = ['pending', 'processing', 'done', 'ignored', 'failed', 'dead'] as const;
export type WebhookEventStatus = (typeof WEBHOOK_EVENT_STATUSES)[number];

/** One row of the webhook inbox, for admins (`GET /api/admin/billing/events`). */
export interface WebhookEventView {
  id: string;
  type: string;
  /** When Stripe made the event (ISO 8601). */
  createdAt: string;
  receivedAt: string;
  status: WebhookEventStatus;
  attempts: number;
  nextAttemptAt: string | null;
  /** What processing did, or the last error. */
  outcome: string | null;
}

export interface WebhookEventList {
  /** Events per status, over the whole inbox. */
  counts: Partial<Record<WebhookEventStatus, number>>;
  /** Newest first, at most 50; by default those that need a look (failed, dead). */
  events: WebhookEventView[];
}

/**
 * How a plan is sold through Stripe: `price`, a Price an administrator set on the plan; `synced`, the
 * Product and Price the app keeps in step with the plan; `pending`, not made yet or out of date
 * after an edit (made at the next checkout, or with "Sync with Stripe").
 */
export type StripePlanMode = 'price' | 'synced' | 'pending';

export interface StripePlanView {
  planId: string;
  mode: StripePlanMode;
  priceId: string | null;
  productId: string | null;
  syncedAt: string | null;
}

/** `GET /api/admin/billing/stripe-catalogue` and the answer of its `POST …/sync`. */
export interface StripeCatalogueView {
  configured: boolean;
  plans: StripePlanView[];
}

export const BILLING_AUDIT_ACTIONS = ['billing.order.manual', 'billing.event.retry', 'billing.catalogue.sync'] as const;

export type { PlanInterval };
