import type { ProductSlug } from '../../lib/product.js';

/**
 * What billing tells the licences module (design: README "Design choices" and docs/licensing.md). Billing never writes
 * licences: after every state change it hands the sink the *complete* current entitlement of one
 * source, and applying the same entitlement again changes nothing.
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

/** Injection token of the {@link EntitlementSink} (provided and exported by the licences module). */
export const ENTITLEMENT_SINK = Symbol('EntitlementSink');
