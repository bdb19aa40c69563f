/**
 * The admin overview (src/overview): monthly recurring revenue by the rules in docs/mrr.md.
 * Shared by the server's mappers and the client. Money is in integer minor units, per currency:
 * amounts in different currencies are never added together.
 */

/** Each kind as a non-negative amount: net change = new + expansion + reactivation − contraction − churn. */
export interface MrrMovementsView {
  new: number;
  expansion: number;
  contraction: number;
  churn: number;
  reactivation: number;
}

export interface MrrCurrencyView {
  /** Lower-case ISO 4217 code. */
  currency: string;
  /** MRR now (computed live from the subscription mirror). */
  mrrMinor: number;
  /** Subscriptions counted in `mrrMinor`. */
  subscriptions: number;
  /** `mrrMinor` minus the MRR of the baseline snapshot; null without any snapshot yet. */
  change30dMinor: number | null;
  /** From the baseline snapshot to now; they add up to `change30dMinor`. Null without any snapshot yet. */
  movements: MrrMovementsView | null;
}

/** `GET /api/admin/overview/mrr`. */
export interface MrrOverviewResponse {
  /** When the live figures were computed (ISO 8601). */
  asOf: string;
  /**
   * The day (yyyy-mm-dd, UTC) of the snapshot the change and movements start from: the newest one at
   * least 30 days old, or the oldest one there is while the history is shorter; null before the first.
   */
  baselineDay: string | null;
  /** The newest stored daily snapshot, or null. */
  latestSnapshotDay: string | null;
  /** Sorted by currency code. */
  currencies: MrrCurrencyView[];
  /** Subscriptions by state, live: counted in MRR, of which past_due; trialing (never counted). */
  counts: { counted: number; pastDue: number; trialing: number };
  /** Subscriptions that would count but whose plan is unknown, so they are left out (should be 0). */
  unpricedSubscriptions: number;
}

/** `POST /api/admin/overview/mrr/snapshot`: today's snapshot, stored now or already there. */
export interface MrrSnapshotRunResponse {
  day: string;
  /** False when the day's snapshot already existed (it is never rewritten). */
  created: boolean;
}
