/**
 * The shapes the HAR analyser produces. Plain data only (no classes, no functions): results cross a
 * Web Worker boundary with structured clone and are exported as JSON.
 */

export type Vendor =
  'ga4' | 'ua' | 'google-ads' | 'floodlight' | 'meta' | 'tiktok' | 'linkedin' | 'microsoft' | 'pinterest' | 'snapchat' | 'reddit' | 'x';

export const VENDOR_LABELS: Record<Vendor, string> = {
  ga4: 'Google Analytics 4',
  ua: 'Universal Analytics',
  'google-ads': 'Google Ads',
  floodlight: 'Floodlight',
  meta: 'Meta pixel',
  tiktok: 'TikTok pixel',
  linkedin: 'LinkedIn Insight',
  microsoft: 'Microsoft UET',
  pinterest: 'Pinterest tag',
  snapchat: 'Snap pixel',
  reddit: 'Reddit pixel',
  x: 'X pixel',
};

/** Vendors whose hits carry Google's consent mode parameters (gcs / gcd). */
export const GOOGLE_TAG_VENDORS: ReadonlySet<Vendor> = new Set<Vendor>(['ga4', 'google-ads', 'floodlight']);

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
   * Data Use, dpo/dpoco/dpost), `uet` (Microsoft UET consent mode, asc).
   */
  source?: 'meta-ldu' | 'uet';
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
  | 'mixed_measurement_ids';

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
   * `adservice.google.…/ddm/fls/…` follow-ups): consent and duplicate checks leave it out.
   */
  secondary?: string;
  warningIds: number[];
}

export interface CountRow {
  key: string;
  count: number;
}

export interface PageRow {
  url: string;
  hits: number;
  firstTime: string;
}

export interface HarSummary {
  entries: number;
  /** Entries that carried at least one analytics hit. */
  analyticsEntries: number;
  hits: number;
  byVendor: CountRow[];
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
