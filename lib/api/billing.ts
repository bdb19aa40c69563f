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
  quantity: number;
  seats: number;
  status: SubscriptionStatus;
  cancelAtPeriodEnd: boolean;
  cancelAt: string | null;
  currentPeriodEnd: string | null;
  trialEnd: string | null;
}

/** `GET /api/billing/subscription`: the newest subscription, or null. */
export interface SubscriptionResponse {
  subscription: SubscriptionView | null;
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
}

export interface RedirectResponse {
  url: string;
}

/** `POST /api/billing/subscription/plan`. */
export interface ChangePlanRequest {
  planId: string;
  quantity?: number;
}

/** Answer of cancel / resume / change plan: Stripe accepted it; the mirror follows with its webhook. */
export interface SubscriptionChangeResponse {
  requested: 'cancel_at_period_end' | 'resume' | 'change_plan';
  subscriptionId: string;
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

export const BILLING_AUDIT_ACTIONS = ['billing.order.manual', 'billing.event.retry'] as const;

export type { PlanInterval };
