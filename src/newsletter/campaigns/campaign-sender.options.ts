/** How the campaign workers pace themselves; production values here, tests inject small ones (CAMPAIGN_SENDER_OPTIONS). */
export interface CampaignSenderOptions {
  /** Deliveries claimed per batch. */
  batchSize: number;
  /** Messages in flight at once per slice (the SMTP pool has as many connections). */
  concurrency: number;
  /**
   * Slices of one campaign an instance works on at once: while one waits for the mail server, the
   * other's claim or settle uses the database connection.
   */
  slicesInFlight: number;
  /** How long a claim holds a delivery; a worker that dies releases it when this runs out. */
  leaseMs: number;
  /** How often an idle worker looks for work. */
  pollMs: number;
  /** Delay after the 1st, 2nd … failed attempt (the last value repeats if attempts allow more). */
  backoffMs: readonly number[];
  /** Attempts per recipient, the first one included. */
  maxAttempts: number;
  /** Failed attempts in a row (no success in between) after which the campaign pauses itself. */
  autoPauseAfter: number;
  /** Subscribers copied into deliveries per step of the snapshot. */
  snapshotBatch: number;
  /** On shutdown, how long to wait for messages in flight before leaving them to their lease. */
  shutdownGraceMs: number;
}

export const CAMPAIGN_SENDER_OPTIONS = Symbol('CAMPAIGN_SENDER_OPTIONS');

const MINUTE = 60_000;

export const DEFAULT_CAMPAIGN_SENDER_OPTIONS: CampaignSenderOptions = {
  // Recipients per slice: small enough that one claim or settle never holds the app's one database
  // connection for long (page requests interleave between them), large enough that the slices of a
  // 10 000-recipient list (200) are quick to search.
  batchSize: 50,
  concurrency: 8,
  slicesInFlight: 3,
  leaseMs: 2 * MINUTE,
  pollMs: 2000,
  backoffMs: [MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE],
  maxAttempts: 4,
  autoPauseAfter: 50,
  // On FerretDB each page of the snapshot reads the whole subscriber list: few large pages.
  snapshotBatch: 5000,
  shutdownGraceMs: 10_000,
};

export const backoffAfter = (options: Pick<CampaignSenderOptions, 'backoffMs'>, attempts: number): number =>
  options.backoffMs[Math.min(attempts, options.backoffMs.length) - 1] ?? 0;
