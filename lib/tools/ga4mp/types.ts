/**
 * The GA4 Measurement Protocol request, as Google documents it
 * (developers.google.com/analytics/devguides/collection/protocol/ga4/reference).
 * A request is a query string (stream + secret) and a JSON body.
 */

/** Web stream: the measurement id (`G-XXXXXXX`) and an API secret of that stream. */
export interface Ga4mpWebQuery {
  measurement_id: string;
  api_secret: string;
}

/** App stream: the Firebase app id (`1:1234567890:android:abc123…`) and an API secret of that stream. */
export interface Ga4mpAppQuery {
  firebase_app_id: string;
  api_secret: string;
}

export type Ga4mpQuery = Ga4mpWebQuery | Ga4mpAppQuery;

export type Ga4mpStream = 'web' | 'app';

export type ConsentStatus = 'GRANTED' | 'DENIED';

export interface Ga4mpConsent {
  ad_user_data?: ConsentStatus;
  ad_personalization?: ConsentStatus;
}

/** One user property: `{ "plan": { "value": "pro" } }`. */
export interface Ga4mpUserProperty {
  value: string | number | null;
  timestamp_micros?: number;
}

/** User-provided data, every personal value SHA-256 hashed (hex) after GA4's normalisation. */
export interface Ga4mpUserAddress {
  sha256_first_name?: string;
  sha256_last_name?: string;
  sha256_street?: string;
  city?: string;
  region?: string;
  postal_code?: string;
  country?: string;
}

export interface Ga4mpUserData {
  sha256_email_address?: string | string[];
  sha256_phone_number?: string | string[];
  address?: Ga4mpUserAddress | Ga4mpUserAddress[];
}

export type Ga4mpParamValue = string | number | boolean;

export interface Ga4mpItem {
  item_id?: string;
  item_name?: string;
  [param: string]: Ga4mpParamValue | undefined;
}

export interface Ga4mpEventParams {
  items?: Ga4mpItem[];
  [param: string]: Ga4mpParamValue | Ga4mpItem[] | undefined;
}

export interface Ga4mpEvent {
  name: string;
  params?: Ga4mpEventParams;
  timestamp_micros?: number;
}

export interface Ga4mpBody {
  /** Web streams: the gtag.js client id. */
  client_id?: string;
  /** App streams: the Firebase SDK's app instance id (32 hex characters). */
  app_instance_id?: string;
  user_id?: string;
  timestamp_micros?: number;
  user_properties?: Record<string, Ga4mpUserProperty>;
  user_data?: Ga4mpUserData;
  consent?: Ga4mpConsent;
  non_personalized_ads?: boolean;
  validation_behavior?: 'RELAXED' | 'ENFORCE_RECOMMENDATIONS';
  events: Ga4mpEvent[];
  [extra: string]: unknown;
}

export interface Ga4mpRequest {
  query: Ga4mpQuery;
  body: Ga4mpBody;
}

/** GA4's validation codes (validating-events › ValidationCode). */
export type ValidationCode =
  | 'VALUE_INVALID'
  | 'VALUE_REQUIRED'
  | 'NAME_INVALID'
  | 'NAME_RESERVED'
  | 'VALUE_OUT_OF_BOUNDS'
  | 'EXCEEDED_MAX_ENTITIES'
  | 'NAME_DUPLICATED';

export const VALIDATION_CODES: readonly ValidationCode[] = [
  'VALUE_INVALID',
  'VALUE_REQUIRED',
  'NAME_INVALID',
  'NAME_RESERVED',
  'VALUE_OUT_OF_BOUNDS',
  'EXCEEDED_MAX_ENTITIES',
  'NAME_DUPLICATED',
];

export interface ValidationMessage {
  /**
   * Where the problem is. GA4's server names only the top-level field (`events`) and puts the index in
   * the description; we give the exact path (`events[0].params.currency`, `query.measurement_id`) so
   * the page can link each message to its field. Its first segment is GA4's field path.
   */
  fieldPath: string;
  description: string;
  validationCode: ValidationCode;
}

/** The validation server's answer; an empty list means the payload is valid. */
export interface ValidationResponse {
  validationMessages: ValidationMessage[];
}

export function streamOf(query: Partial<Record<string, unknown>>): Ga4mpStream {
  return 'firebase_app_id' in query && !('measurement_id' in query) ? 'app' : 'web';
}
