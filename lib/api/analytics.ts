/**
 * First-party analytics (src/analytics): the beacon the tracker sends, the dashboard, the realtime
 * figure and the settings. Shared by the server and the client.
 */
import type { AnalyticsPreset } from '../analytics/range.js';
import type { RevenueCurrencyView } from './overview.js';

/** The collector's body limit: a beacon is a path, a referrer and a few flags. */
export const BEACON_MAX_BYTES = 2048;
/** Values (paths, referrers, UTM values) are cut to this many characters before they are counted. */
export const VALUE_MAX_CHARS = 512;

/**
 * `POST /api/e`, sent as `text/plain` JSON (no CORS preflight): one page view.
 * Short keys keep the beacon small; the tracker (client/features/analytics/tracker.ts) builds it.
 */
export interface Beacon {
  /** Path of the page, starting with `/`, without query or fragment. */
  p: string;
  /** The external referrer (full URL), only on the first page of a visit. */
  r?: string;
  /** Screen width in CSS pixels (rounded). */
  w?: number;
  /** `navigator.webdriver` was true. */
  wd?: boolean;
  /** The page was the "Page not found" screen (an unmatched path, or a route's validation refused it). */
  nf?: boolean;
  /** utm_source, utm_medium, utm_campaign from the page's query. */
  us?: string;
  um?: string;
  uc?: string;
}

/** Why an event was not counted as a page view; each is counted. */
export const DROP_REASONS = ['bot', 'headless', 'spam', 'admin', 'ignored', 'privacy', 'origin', 'rate'] as const;
export type DropReason = (typeof DROP_REASONS)[number];

export const DROP_LABELS: Record<DropReason, string> = {
  bot: 'Bot or script user agent',
  headless: 'Headless or automated browser',
  spam: 'Referrer spam',
  admin: 'Signed-in admin',
  ignored: 'Ignore list (IP or path)',
  privacy: 'Global Privacy Control / Do Not Track',
  origin: 'Foreign or missing origin',
  rate: 'Rate limited',
};

/**
 * The breakdowns the dashboard shows, each counted per day. A page view of the "Page not found"
 * screen counts in the totals (someone saw it) and under `notfound` by its path, never under `page`:
 * scanners' and broken links' paths would otherwise fill the top pages. Its visit's entry page is
 * NOT_FOUND_ENTRY.
 */
export const ANALYTICS_DIMENSIONS = [
  'page',
  'notfound',
  'entry',
  'referrer',
  'channel',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'device',
  'browser',
  'os',
  'country',
] as const;
export type AnalyticsDimension = (typeof ANALYTICS_DIMENSIONS)[number];

/** The entry page of a visit that began on the "Page not found" screen (its path is under `notfound`). */
export const NOT_FOUND_ENTRY = '(page not found)';

export const DIMENSION_LABELS: Record<AnalyticsDimension, string> = {
  page: 'Top pages',
  notfound: 'Not found (404)',
  entry: 'Entry pages',
  referrer: 'Referrers',
  channel: 'Channels',
  utm_source: 'UTM source',
  utm_medium: 'UTM medium',
  utm_campaign: 'UTM campaign',
  device: 'Devices',
  browser: 'Browsers',
  os: 'Operating systems',
  country: 'Countries',
};

export interface AnalyticsQuery {
  preset?: AnalyticsPreset;
  from?: string;
  to?: string;
}

export interface AnalyticsKpis {
  pageviews: number;
  /** Daily unique visitors summed over the range (a visitor on two days counts twice). */
  visitors: number;
  visits: number;
  bounces: number;
  /** bounces / visits, null without visits. */
  bounceRate: number | null;
  /** pageviews / visits, null without visits. */
  viewsPerVisit: number | null;
}

export interface AnalyticsDay {
  day: string;
  pageviews: number;
  visitors: number;
  visits: number;
}

export interface AnalyticsRow {
  value: string;
  count: number;
  /** The same value's count in the previous period. */
  previous: number;
}

export interface AnalyticsBusiness {
  signups: number;
  previousSignups: number;
  /** Paid orders by currency, net of refunds (as the overview computes them). */
  revenue: RevenueCurrencyView[];
  previousRevenue: RevenueCurrencyView[];
}

/** `GET /api/admin/analytics`. */
export interface AnalyticsDashboard {
  from: string;
  to: string;
  previousFrom: string;
  previousTo: string;
  kpis: AnalyticsKpis;
  previousKpis: AnalyticsKpis;
  /** Every day of the range, oldest first. */
  series: AnalyticsDay[];
  /** Top 50 values per dimension for the range, largest first. */
  tables: Record<AnalyticsDimension, AnalyticsRow[]>;
  drops: Array<{ reason: DropReason; count: number; previous: number }>;
  /** Null when our own data could not be read (the rest still answers). */
  business: AnalyticsBusiness | null;
  /** Server time to compute this answer. */
  tookMs: number;
}

/** `GET /api/admin/analytics/realtime`. */
export interface AnalyticsRealtime {
  /** Visitors with a page view in the last 5 minutes. */
  visitors: number;
  asOf: string;
}

export interface AnalyticsSettings {
  /** IP addresses and CIDR ranges whose page views are dropped (counted as `ignored`). */
  ignoreIps: string[];
  /** Path prefixes that are not counted (e.g. `/internal`). */
  ignorePaths: string[];
  /** Days the daily counters are kept. */
  retentionDays: number;
  /** Drop page views from browsers that send Global Privacy Control or Do Not Track. */
  respectPrivacySignals: boolean;
  /** Count page views of signed-in admins (off: dropped as `admin`). */
  countAdmins: boolean;
}

export const DEFAULT_ANALYTICS_SETTINGS: AnalyticsSettings = {
  ignoreIps: [],
  ignorePaths: [],
  retentionDays: 730,
  respectPrivacySignals: true,
  countAdmins: false,
};

export const ANALYTICS_LIMITS = { ignoreEntries: 100, minRetentionDays: 30, maxRetentionDays: 3650 } as const;
