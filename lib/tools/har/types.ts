/**
 * The shapes the HAR analyser produces. Plain data only (no classes, no functions): results cross a
 * Web Worker boundary with structured clone and are exported as JSON.
 */

import type { DECODERS } from './decoders/index.js';

/**
 * A vendor's id, as registered in decoders/index.ts (one file per vendor in decoders/, one line in
 * the registry): 'ga4', 'adobe-analytics', 'matomo' …
 */
export type Vendor = (typeof DECODERS)[number]['id'];

/** What a vendor does, for grouping in filters and summaries. */
export type VendorKind = 'analytics' | 'ads' | 'tag-manager' | 'experience';

export const VENDOR_KINDS_IN_ORDER: readonly VendorKind[] = ['analytics', 'ads', 'tag-manager', 'experience'];

export const VENDOR_KIND_LABELS: Record<VendorKind, string> = {
  analytics: 'Analytics',
  ads: 'Advertising',
  'tag-manager': 'Tag managers',
  experience: 'Experience (testing, replay)',
};

/**
 * Each vendor's name and kind, from its decoder (vendors.ts builds them from the registry). Kept here
 * for the code that imported them from this module.
 */
export { VENDOR_KINDS, VENDOR_LABELS } from './vendors.js';

/** Vendors whose hits carry Google's consent mode parameters (gcs / gcd). */
export { GOOGLE_TAG_VENDORS } from './google-tags.js';

/** One decoded parameter: `key` as sent, `name` for humans. */
export interface DecodedParam {
  key: string;
  name: string;
  value: string;
}

/** One GA4 item (`pr1`…) or UA product, its sub-keys decoded. */
export interface DecodedItem {
  /** The parameter that carried it, e.g. `pr1`. */
  key: string;
  params: DecodedParam[];
}

export type ConsentValue = 'granted' | 'denied' | 'not set';

export interface ConsentSignal {
  /** ad_storage, analytics_storage, ad_user_data, ad_personalization. */
  type: string;
  /** The state the hit was sent under (the update if any, else the default). */
  state: ConsentValue;
  /** For gcd: what was set by `consent default` and by `consent update`. */
  default?: ConsentValue;
  update?: ConsentValue;
  /** The gcd letter it came from. */
  code?: string;
}

export interface ConsentState {
  gcs?: string;
  gcd?: string;
  /**
   * Where the state comes from when it is not Google's consent mode: `meta-ldu` (Meta's Limited
   * Data Use, dpo/dpoco/dpost), `uet` (Microsoft UET consent mode, asc), `comscore` (cs_ucfr, the
   * user's consent for research), `adobe` (the Adobe consent standard of the Web SDK's set-consent),
   * `piano` (Piano Analytics' privacy mode).
   */
  source?: 'meta-ldu' | 'uet' | 'comscore' | 'adobe' | 'piano';
  signals: ConsentSignal[];
  /** One readable line, e.g. "ad_storage denied, analytics_storage granted …". */
  text: string;
}

export type Severity = 'error' | 'warning' | 'info';

export interface HarWarning {
  id: number;
  code: WarningCode;
  severity: Severity;
  message: string;
  /** The hit it is about (null for file-wide findings). */
  hitId: number | null;
  page: string | null;
}

export type WarningCode =
  | 'duplicate_page_view'
  | 'missing_consent'
  | 'no_consent_mode'
  | 'missing_client_id'
  | 'cookieless_ping'
  | 'event_name_invalid'
  | 'event_name_reserved'
  | 'event_name_too_long'
  | 'param_name_too_long'
  | 'param_name_reserved'
  | 'param_value_too_long'
  | 'too_many_event_params'
  | 'too_many_user_properties'
  | 'user_property_name_too_long'
  | 'user_property_value_too_long'
  | 'user_property_reserved'
  | 'ecommerce_missing_currency'
  | 'purchase_missing_transaction_id'
  | 'meta_purchase_missing_value'
  | 'meta_limited_data_use'
  | 'pixel_missing_id'
  | 'pixel_purchase_missing_value'
  | 'pixel_custom_event_unnamed'
  | 'uet_consent_denied'
  | 'ua_sunset'
  | 'http_error'
  | 'mixed_measurement_ids'
  | 'malformed_hit'
  | 'older_format'
  | 'missing_account_id'
  | 'purchase_missing_value'
  | 'event_unnamed'
  | 'consent_denied'
  | 'non_production_container'
  | 'vendor_rule';

export interface Hit {
  /** Position in the result list (0-based, in request order; batched events get one id each). */
  id: number;
  /** Index of the HAR entry that carried it. */
  entryIndex: number;
  /** For batched requests: position of this event in its batch (1-based) and the batch size. */
  batch: { index: number; size: number } | null;
  vendor: Vendor;
  /** Event name (GA4, Meta, Ads `en`), hit type (UA), activity (Floodlight) or "conversion"/"remarketing". */
  type: string;
  /** GA4/UA property, Ads conversion id, Floodlight advertiser, pixel id. */
  accountId: string | null;
  method: string;
  url: string;
  host: string;
  path: string;
  /** HTTP status of the response (0 when the request failed or was blocked). */
  status: number;
  /** ISO date of the request (HAR startedDateTime). */
  time: string;
  timeMs: number;
  /** Document location the hit reports (dl, url, …), falling back to the request's Referer. */
  page: string | null;
  referrer: string | null;
  title: string | null;
  clientId: string | null;
  params: DecodedParam[];
  items: DecodedItem[];
  consent: ConsentState | null;
  /** Raw request body (one line for a batched event, the whole body otherwise), if any. */
  body: string | null;
  /**
   * Set when the request repeats another hit rather than measuring something new (Floodlight's
   * `adservice.google.…/ddm/fls/…` follow-ups, Google signals pings after a GA4 hit, X's t.co
   * mirror …): what it is. Secondary requests are not counted as hits, and consent, duplicate and
   * per-hit checks leave them out.
   */
  secondary?: string;
  /** For a secondary request: the id of the hit it follows, when that hit is in the capture. */
  follows?: number;
  /** The vendor's kind (set by decodeRequest on every hit). */
  kind?: VendorKind;
  /**
   * Set when the request went to an endpoint a decoder knows but cannot be read as a valid hit:
   * `malformed` (missing or unreadable fields), or `older-format` (a payload version the decoder
   * recognises but does not read). `params` then holds the raw parameters as sent.
   */
  invalid?: { kind: 'malformed' | 'older-format'; reason: string };
  /** Set when the hit was decoded from an older payload version still seen in the wild: which one. */
  formatNote?: string;
  /**
   * Set on a tag manager container (GTM, Tealium iQ, Adobe Launch …) or a vendor's tag script that
   * loaded: not a measurement, so not counted as a hit. `accountId` is the container id.
   */
  container?: boolean;
  warningIds: number[];
}

export interface CountRow {
  key: string;
  count: number;
  /** In byVendor and byKind: the name to show. */
  label?: string;
  /** In byVendor: the vendor's kind. */
  kind?: VendorKind;
  /** In byVendor, byKind and byEvent: how many of `count` are secondary requests or container loads. */
  secondary?: number;
}

export interface PageRow {
  url: string;
  hits: number;
  firstTime: string;
}

export interface HarSummary {
  entries: number;
  /** Entries that carried at least one analytics hit (or secondary request, or container load). */
  analyticsEntries: number;
  /**
   * Hits that measure something: every listed row but the secondary requests and the container
   * loads (malformed hits are counted: the vendor may still count them).
   */
  hits: number;
  /** Every row of the list: hits, secondary requests and container loads (`HarAnalysis.hits.length`). */
  rows: number;
  /** Secondary requests (Floodlight follow-ups, Google signals pings, pixel mirrors …). */
  secondary: number;
  /** Tag manager containers and vendor tag scripts that loaded. */
  containers: number;
  /** Requests to a known endpoint that could not be read as a valid hit (malformed or older format). */
  invalid: number;
  /** Rows per vendor, most first, each with its label and kind. */
  byVendor: CountRow[];
  /** Rows per vendor kind (analytics, ads, tag-manager, experience), in that order. */
  byKind: CountRow[];
  byEvent: CountRow[];
  byAccount: CountRow[];
  pages: PageRow[];
  warnings: { error: number; warning: number; info: number };
  warningsByCode: CountRow[];
  creator: string | null;
}

export interface HarAnalysis {
  hits: Hit[];
  warnings: HarWarning[];
  summary: HarSummary;
}

export type AnalysisStage = 'reading' | 'parsing' | 'analysing' | 'done';

export interface AnalysisProgress {
  stage: AnalysisStage;
  /** Bytes read / total (reading), entries analysed / total (analysing). */
  done: number;
  total: number;
}
