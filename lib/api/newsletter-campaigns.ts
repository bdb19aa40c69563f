/** Newsletter campaigns and the newsletter's sending settings: API shapes shared by the server and the client. */

export const CAMPAIGN_STATES = ['draft', 'sending', 'paused', 'sent', 'cancelled'] as const;
export type CampaignState = (typeof CAMPAIGN_STATES)[number];

export const CAMPAIGN_STATE_LABELS: Record<CampaignState, string> = {
  draft: 'Draft',
  sending: 'Sending',
  paused: 'Paused',
  sent: 'Sent',
  cancelled: 'Cancelled',
};

export const CAMPAIGN_SUBJECT_MAX = 200;
export const CAMPAIGN_BODY_MAX = 50_000;

/**
 * Where the recipients of a campaign stand. `queued` counts everyone not yet settled: waiting,
 * in flight, or waiting for a retry (`retrying` of them have failed at least once).
 */
export interface CampaignCounts {
  total: number;
  queued: number;
  retrying: number;
  sent: number;
  failed: number;
  skipped: number;
}

export interface AdminCampaign {
  id: string;
  subject: string;
  /** Markdown. */
  body: string;
  state: CampaignState;
  /** ISO dates. */
  createdAt: string;
  updatedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** The recipient list is complete (every confirmed subscriber at the time of "send" has a delivery). */
  snapshotComplete: boolean;
  counts: CampaignCounts;
  /** Why the campaign paused itself (e.g. too many consecutive failures); null when an admin paused it or it runs. */
  pausedReason: string | null;
  /** Messages per second over the last minute of sending; null before any was sent. */
  ratePerSecond: number | null;
  /** Seconds until the queue is empty at the configured limits (or at the observed rate); null when unknown or done. */
  etaSeconds: number | null;
}

export type AdminCampaignSummary = Omit<AdminCampaign, 'body'>;

export interface AdminCampaignList {
  items: AdminCampaignSummary[];
  /** Confirmed subscribers now: who "send" would reach. */
  confirmedSubscribers: number;
}

export interface CampaignInput {
  subject: string;
  body: string;
}

/** What a recipient gets: the same rendering as the real send, for a sample address. */
export interface CampaignPreview {
  subject: string;
  html: string;
  text: string;
}

export interface TestSendRequest {
  /** Empty: the signed-in admin's own address. */
  to?: string;
}

export interface CampaignActionAnswer {
  message: string;
  campaign: AdminCampaign;
}

export interface NewsletterSettings {
  senderName: string;
  senderAddress: string;
  replyTo: string | null;
  /** Sending limits of the transport; null = unlimited. */
  maxPerSecond: number | null;
  maxPerHour: number | null;
  maxPerDay: number | null;
}

export interface NewsletterSettingsAnswer {
  settings: NewsletterSettings;
  confirmedSubscribers: number;
  /** Seconds to send to every confirmed subscriber at these limits; null: unlimited (as fast as the server takes them). */
  etaSeconds: number | null;
}

export const RATE_LIMIT_MAX = {
  maxPerSecond: 10_000,
  maxPerHour: 10_000_000,
  maxPerDay: 100_000_000,
} as const;

export type SendLimits = Pick<NewsletterSettings, 'maxPerSecond' | 'maxPerHour' | 'maxPerDay'>;

/**
 * Seconds to send `remaining` messages under the limits, starting with fresh windows: an hour or
 * day limit lets a window's worth go at once, then waits for the next window; the per-second limit
 * (or, without one, `fallbackRate`, e.g. the rate observed so far) paces every message. Null when
 * nothing limits and nothing was observed: an unlimited transport goes as fast as the server takes it.
 */
export function sendEtaSeconds(remaining: number, limits: SendLimits, fallbackRate: number | null = null): number | null {
  if (remaining <= 0) return 0;
  const perSecond = limits.maxPerSecond ?? (fallbackRate && fallbackRate > 0 ? fallbackRate : null);
  const pace = (count: number) => (perSecond ? count / perSecond : 0);
  const candidates = [pace(remaining)];
  for (const [limit, window] of [
    [limits.maxPerHour, 3600],
    [limits.maxPerDay, 86_400],
  ] as const) {
    if (!limit) continue;
    const fullWindows = Math.floor((remaining - 1) / limit);
    candidates.push(fullWindows * window + pace(remaining - fullWindows * limit));
  }
  const eta = Math.max(...candidates);
  return eta === 0 && !perSecond ? null : Math.ceil(eta);
}

/** "2 h 5 min", "40 s", "3 d 4 h": an ETA for people. */
export function formatDuration(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  const minutes = Math.round(s / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return minutes % 60 ? `${hours} h ${minutes % 60} min` : `${hours} h`;
  const days = Math.floor(hours / 24);
  return hours % 24 ? `${days} d ${hours % 24} h` : `${days} d`;
}
