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

/** A licence a source holds, as the buyer's mails and the checkout's progress name it. */
export interface SourceLicence {
  product: ProductSlug;
  /** The key as people type it; null when it cannot be read (the server's AUTH_SECRET changed). */
  key: string | null;
  state: EntitlementState;
  /** Usable now (a past-due licence in its grace period is). */
  valid: boolean;
}

export interface EntitlementSink {
  apply(entitlement: Entitlement): Promise<void>;
  /**
   * The licences a source holds now, one per product it covers or covered ([] before the first
   * apply). Keys included: for the owner's own mail and pages only.
   */
  licencesOf(source: Entitlement['source']): Promise<SourceLicence[]>;
}

/** Injection token of the {@link EntitlementSink} (provided and exported by the licences module). */
export const ENTITLEMENT_SINK = Symbol('EntitlementSink');
