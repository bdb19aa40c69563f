import type { ProductSlug } from '../../lib/product.js';

/**
 * The seam between billing and licences (docs: /work/notes/commerce.md, "Entitlements out"). Billing
 * never writes licences: after every state change it hands the *complete* current entitlement of one
 * source to the sink, which is idempotent (applying the same entitlement twice changes nothing).
 */
export type EntitlementState = 'active' | 'past_due' | 'suspended' | 'revoked' | 'expired';

export interface Entitlement {
  source: { kind: 'subscription'; id: string } | { kind: 'order'; id: string } | { kind: 'grant'; id: string };
  userId: string;
  planId: string;
  products: ProductSlug[];
  seats: number;
  /** 'active' | 'past_due' (grace) | 'suspended' (dispute, pause) | 'revoked' (full refund, lost dispute) | 'expired' */
  state: EntitlementState;
  /** End of the paid period; null for lifetime. */
  expiresAt: Date | null;
  /** Until when a past_due subscription's licence stays valid. */
  graceUntil: Date | null;
}

export interface EntitlementSink {
  apply(entitlement: Entitlement): Promise<void>;
}

/** Injection token of the sink; the licences module provides it. */
export const ENTITLEMENT_SINK = Symbol('ENTITLEMENT_SINK');
