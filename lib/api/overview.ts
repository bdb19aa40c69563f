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

/** Sign-ups on one UTC day (yyyy-mm-dd). */
export interface SignupDay {
  day: string;
  count: number;
}

export interface OverviewUsers {
  /** Every account, unconfirmed registrations included (as /admin/users lists them). */
  total: number;
  /** Created since 00:00 UTC today. */
  newToday: number;
  /** Created in the last 7 UTC days, today included (the last 7 entries of `signups`). */
  new7d: number;
  /** The last 14 UTC days, oldest first, today last; days without sign-ups are 0. */
  signups: SignupDay[];
}

/** Subscriptions in the mirror by Stripe status (live). */
export interface OverviewSubscriptions {
  active: number;
  trialing: number;
  pastDue: number;
}

/** Paid orders of one currency in the window, in minor units: net = gross − refunded. */
export interface RevenueCurrencyView {
  currency: string;
  orders: number;
  grossMinor: number;
  refundedMinor: number;
  netMinor: number;
}

export interface OverviewRevenue {
  /** Start of the window (ISO 8601): orders paid since then (30 days). */
  since: string;
  /** Sorted by currency code; empty when nothing was paid in the window. */
  currencies: RevenueCurrencyView[];
}

export interface OverviewLicences {
  /** Device activations since 00:00 UTC, as events: a device deactivated since still counts; one activating again after a release or a deactivation counts again. */
  activationsToday: number;
}

export interface OverviewWebhooks {
  /** False without Stripe: there is no inbox to watch. */
  configured: boolean;
  /** When the newest event arrived (ISO 8601), or null if none ever did. */
  lastReceivedAt: string | null;
  /** Failed and waiting for their next automatic try. */
  failed: number;
  /** Out of automatic tries: an admin has to look. */
  dead: number;
  /** Pending or being processed right now. */
  unprocessed: number;
}

/**
 * `GET /api/admin/overview`: the key figures of /admin. Each section is null when it could not be
 * computed (the rest still answers); the page shows that card's error state. Figures without a data
 * source are absent, not zero.
 */
export interface AdminOverviewResponse {
  /** When the figures were computed (ISO 8601); an instance reuses them for up to 30 s. */
  asOf: string;
  users: OverviewUsers | null;
  subscriptions: OverviewSubscriptions | null;
  /** The same figures as `GET /api/admin/overview/mrr`. */
  mrr: MrrOverviewResponse | null;
  revenue30d: OverviewRevenue | null;
  licences: OverviewLicences | null;
  webhooks: OverviewWebhooks | null;
  /** Page views since 00:00 UTC (first-party analytics); null when they could not be read. */
  pageViewsToday?: number | null;
  /** Unique visitors since 00:00 UTC. */
  visitorsToday?: number | null;
  /** Subscribers who confirmed, and those who signed up and have not confirmed yet. */
  newsletter: { confirmed: number; pending: number } | null;
}
