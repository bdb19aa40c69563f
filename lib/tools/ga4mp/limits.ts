import {
  GA4_COLLECTION_LIMITS,
  GA4_NAME_PATTERN,
  GA4_RESERVED_EVENT_NAMES,
  GA4_RESERVED_NAME_PREFIXES,
  GA4_RESERVED_USER_PROPERTY_NAMES,
} from '../ga4-collection-rules.js';

/**
 * GA4 Measurement Protocol limits, the one source of truth for the validator, the page and the tests.
 * From "Send Measurement Protocol events › Limitations" and the protocol reference's reserved names
 * (developers.google.com/analytics/devguides/collection/protocol/ga4/sending-events and /reference),
 * and GA4's event collection limits (support.google.com/analytics/answer/9267744) for the page_*
 * value lengths and the 200 items per event.
 *
 * Standard (non-360) property limits: GA4 360 allows parameter values up to 500 characters, but a
 * payload that passes the standard limits works on both, so the workbench checks the stricter ones.
 */
export const GA4MP_LIMITS = {
  ...GA4_COLLECTION_LIMITS,
  eventsPerRequest: 25,
  customItemParams: 10,
  /** GA4 accepts events up to 72 hours old; older ones are dropped (validation_behavior aside). */
  maxBackdateHours: 72,
  /** "The post body must be smaller than 130kB." */
  maxBodyBytes: 130 * 1024,
  /** user_data: at most 10 hashed e-mails, 10 hashed phone numbers and 10 addresses. */
  userDataValues: 10,
  /** A user id is at most 256 UTF-8 characters. */
  userIdLength: 256,
} as const;

/** Sent payloads kept per user in the workbench's history (newest kept), and the largest history page. */
export const GA4MP_HISTORY_LIMIT = 50;

/** Reserved event names (protocol reference › Reserved names › Reserved event names). */
export const RESERVED_EVENT_NAMES: ReadonlySet<string> = GA4_RESERVED_EVENT_NAMES;

/** Reserved prefixes for parameter names (event and item parameters) and user property names. */
export const RESERVED_NAME_PREFIXES: readonly string[] = GA4_RESERVED_NAME_PREFIXES;

/** Reserved parameter names (protocol reference › Reserved parameter names). */
export const RESERVED_PARAM_NAMES: ReadonlySet<string> = new Set(['firebase_conversion']);

/** Reserved user property names (protocol reference › Reserved user property names). */
export const RESERVED_USER_PROPERTY_NAMES: ReadonlySet<string> = GA4_RESERVED_USER_PROPERTY_NAMES;

/** Item parameters GA4's e-commerce reference defines; any other item parameter is a custom one. */
export const STANDARD_ITEM_PARAMS: ReadonlySet<string> = new Set([
  'item_id',
  'item_name',
  'affiliation',
  'coupon',
  'creative_name',
  'creative_slot',
  'discount',
  'index',
  'item_brand',
  'item_category',
  'item_category2',
  'item_category3',
  'item_category4',
  'item_category5',
  'item_list_id',
  'item_list_name',
  'item_variant',
  'location_id',
  'price',
  'promotion_id',
  'promotion_name',
  'quantity',
]);

/** Top-level body fields the protocol reference defines. Anything else is most likely a typo. */
export const BODY_FIELDS: ReadonlySet<string> = new Set([
  'client_id',
  'app_instance_id',
  'user_id',
  'timestamp_micros',
  'user_properties',
  'user_data',
  'consent',
  'non_personalized_ads',
  'validation_behavior',
  'user_location',
  'ip_override',
  'device',
  'events',
]);

/** Names: a letter first, then letters, digits and underscores (ASCII, as the protocol reference says). */
export const NAME_PATTERN = GA4_NAME_PATTERN;
/** gtag.js measurement ids: `G-` and upper-case letters/digits. */
export const MEASUREMENT_ID_PATTERN = /^G-[A-Z0-9]{4,20}$/;
/**
 * Firebase app ids: `1:1234567890:android:0123456789abcdef` (also `ios`, `web`). GA4 does not check the
 * part after the last colon (Google's Event Builder accepts any letters and digits there, and app ids
 * copied from the console are not always hex), so only the version, project number and platform are.
 */
export const FIREBASE_APP_ID_PATTERN = /^\d+:\d+:(android|ios|web):\S+$/;
/**
 * What `validation_behavior: ENFORCE_RECOMMENDATIONS` expects of a client_id: `<number>.<number>`, the
 * gtag.js form (GA4 answers `client_id [18] has invalid format. It should be in <number>.<number> format.`).
 */
export const STRICT_CLIENT_ID_PATTERN = /^\d+\.\d+$/;
/** The Firebase SDK's app instance id: 32 hexadecimal characters. */
export const APP_INSTANCE_ID_PATTERN = /^[0-9a-fA-F]{32}$/;
/** A hex-encoded SHA-256 digest. */
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;
export const CONSENT_VALUES: readonly string[] = ['GRANTED', 'DENIED'];

export type ValidationBehavior = 'RELAXED' | 'ENFORCE_RECOMMENDATIONS';
/** GA4's two validation behaviours; RELAXED is what GA4 applies when the field is absent. */
export const VALIDATION_BEHAVIORS: readonly ValidationBehavior[] = ['RELAXED', 'ENFORCE_RECOMMENDATIONS'];

/**
 * Parameters each recommended event requires under ENFORCE_RECOMMENDATIONS: the table of Google's own
 * GA4 Event Builder (github.com/googleanalytics/ga-dev-tools,
 * src/components/ga4/EventBuilder/ValidateEvent/schemas/eventTypes/eventDefinitions.ts), which mirrors
 * the starred parameters of the recommended-events reference. Events not listed require nothing.
 */
export const RECOMMENDED_EVENT_REQUIRED_PARAMS: Readonly<Record<string, readonly string[]>> = {
  add_payment_info: ['items', 'value'],
  add_shipping_info: ['items', 'value'],
  add_to_cart: ['items', 'value'],
  add_to_wishlist: ['items', 'value'],
  begin_checkout: ['items', 'value'],
  generate_lead: ['value'],
  post_score: ['score'],
  purchase: ['transaction_id', 'items', 'value'],
  refund: ['transaction_id', 'value'],
  remove_from_cart: ['items', 'value'],
  search: ['search_term'],
  select_item: ['items'],
  spend_virtual_currency: ['value', 'virtual_currency_name'],
  unlock_achievement: ['achievement_id'],
  view_cart: ['items', 'value'],
  view_item: ['items', 'value'],
  view_item_list: ['items'],
  view_promotion: ['items'],
};

/**
 * ISO 4217 alphabetic codes (table A.1 and the fund / precious-metal codes), for the `currency`
 * parameter. `Intl.supportedValuesOf('currency')` gives the circulating ones but differs between ICU
 * builds, so the list is kept here: the browser and the server must agree.
 */
export const ISO_4217_CURRENCIES: ReadonlySet<string> = new Set(
  (
    'AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BOV BRL BSD BTN BWP BYN BZD ' +
    'CAD CDF CHE CHF CHW CLF CLP CNY COP COU CRC CUC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP ' +
    'GEL GHS GIP GMD GNF GTQ GYD HKD HNL HRK HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW ' +
    'KRW KWD KYD KZT LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN NAD ' +
    'NGN NIO NOK NPR NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE ' +
    'SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD USN UYI UYU UYW UZS VED ' +
    'VES VND VUV WST XAF XAG XAU XBA XBB XBC XBD XCD XCG XDR XOF XPD XPF XPT XSU XTS XUA XXX YER ZAR ZMW ZWG ZWL'
  ).split(' '),
);
