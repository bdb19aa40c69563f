import {
  GA4_COLLECTION_LIMITS,
  GA4_RESERVED_EVENT_NAMES,
  GA4_RESERVED_NAME_PREFIXES,
  GA4_RESERVED_USER_PROPERTY_NAMES,
} from '../ga4-collection-rules.js';

/**
 * Firebase / GA4 collection limits and names for app streams, in one place.
 *
 * Sources: Firebase "Log events" (Android/iOS) and the FirebaseAnalytics.Event / Param / UserProperty
 * references (event name 1-40 alphanumerics or underscores starting with a letter, reserved names and
 * the `firebase_`, `google_`, `ga_` prefixes, 25 parameters per event, parameter name 40 / value 100
 * characters, user property name 24 / value 36 characters, 25 user properties, 500 distinct event
 * names per app instance); GA4 "Collection limits" (200 items per event); Firebase "Analytics error
 * codes" (https://firebase.google.com/docs/analytics/errors) for the `firebase_error` (`_err`) codes.
 */
export const APP_LIMITS = {
  ...GA4_COLLECTION_LIMITS,
  distinctEventNames: 500,
} as const;

export const RESERVED_PREFIXES = GA4_RESERVED_NAME_PREFIXES;

/** Event names an app may not log itself (the SDK logs some of them automatically). */
export const RESERVED_EVENT_NAMES: ReadonlySet<string> = new Set([...GA4_RESERVED_EVENT_NAMES, 'app_uninstall']);

export const RESERVED_USER_PROPERTY_NAMES: ReadonlySet<string> = GA4_RESERVED_USER_PROPERTY_NAMES;

/**
 * Long names of the SDK's short (underscore) names, for logs that print only the short form
 * (`_o=app`) or the upload dumps. Logs that print `long(_short)` need no table.
 */
export const SHORT_NAMES: Readonly<Record<string, string>> = {
  // events
  _vs: 'screen_view',
  _e: 'user_engagement',
  _s: 'session_start',
  _f: 'first_open',
  _v: 'first_visit',
  _ab: 'app_background',
  _au: 'app_update',
  _cd: 'app_clear_data',
  _iap: 'in_app_purchase',
  _ae: 'app_exception',
  _ou: 'os_update',
  _nr: 'notification_receive',
  _no: 'notification_open',
  _nd: 'notification_dismiss',
  _nf: 'notification_foreground',
  _cmp: 'firebase_campaign',
  _ssr: 'session_start_with_rollout',
  // parameters
  _o: 'ga_event_origin',
  _sc: 'ga_screen_class',
  _sn: 'ga_screen',
  _si: 'ga_screen_id',
  _pn: 'ga_previous_screen',
  _pc: 'ga_previous_class',
  _pi: 'ga_previous_id',
  _et: 'engagement_time_msec',
  _dbg: 'ga_debug',
  _r: 'ga_realtime',
  _err: 'firebase_error',
  _ev: 'firebase_error_value',
  _el: 'firebase_error_length',
  _c: 'firebase_conversion',
  _mst: 'manual_tracking',
  // user properties
  _sid: 'ga_session_id',
  _sno: 'ga_session_number',
  _fot: 'first_open_time',
  _fvt: 'first_visit_time',
  _lte: 'lifetime_user_engagement',
  _npa: 'non_personalized_ads',
  _ldl: 'last_deep_link_referrer',
  _id: 'user_id',
};

/** Firebase's documented `firebase_error` codes (https://firebase.google.com/docs/analytics/errors). */
export const FIREBASE_ERROR_CODES: Readonly<Record<number, string>> = {
  1: 'Invalid Google App ID (project configuration)',
  2: 'Event name is invalid (empty, too long, invalid characters): the event was ignored',
  3: 'Event parameter name is invalid (empty, too long, invalid characters): the parameter was replaced',
  4: 'Event parameter value is too long: the parameter was dropped',
  5: 'Event has more than 25 parameters: the extra parameters were dropped',
  6: 'User property name is invalid (empty, too long, invalid characters): the change was ignored',
  7: 'User property value is too long: the change was ignored',
  8: 'The app instance logged more than 500 distinct event types: the event was dropped',
  9: 'The app instance set more than 25 distinct user properties: the change was ignored',
  10: 'The app instance exceeded the daily conversion event limit: logged as a regular event',
  11: 'The event is on the deny list: it was ignored',
  12: 'The user property is on the deny list: the change was ignored',
  13: 'Event name is reserved: the event was ignored',
  14: 'Event parameter name is reserved: the parameter was replaced',
  15: 'User property name is reserved: the change was ignored',
};

/** `long` and `_short` from `long(_short)`, `long (_short)` or a bare name. */
export function splitName(raw: string): { name: string; shortName: string | null } {
  const text = raw.trim();
  const match = text.endsWith(')') ? /^(.*?)\s*\((_[A-Za-z0-9_]*)\)$/.exec(text) : null;
  if (match && match[1]) return { name: match[1], shortName: match[2] };
  if (text.startsWith('_') && SHORT_NAMES[text]) return { name: SHORT_NAMES[text], shortName: text };
  if (text.startsWith('_')) return { name: text, shortName: text };
  return { name: text, shortName: null };
}

/** The SDK's own long names (`ga_screen`, `ga_event_origin`, `firebase_error` …): the values of SHORT_NAMES. */
const SDK_LONG_NAMES: ReadonlySet<string> = new Set([
  ...Object.values(SHORT_NAMES),
  // Older SDKs' spellings of the same parameters (firebase_ before ga_).
  'firebase_event_origin',
  'firebase_screen',
  'firebase_screen_class',
  'firebase_screen_id',
  'firebase_previous_screen',
  'firebase_previous_class',
  'firebase_previous_id',
  'firebase_realtime',
  'firebase_debug',
]);

/**
 * Parameters the SDK adds itself (they do not count towards the 25 and may use reserved prefixes): a
 * short name, a leading underscore, or one of the SDK's own long names even when the log prints it
 * without its short form (FA-SVC output can show `ga_screen` alone: that is the SDK's screen name, not
 * the app breaking the `ga_` prefix rule).
 */
export function isSdkName(name: string, shortName: string | null): boolean {
  return shortName !== null || name.startsWith('_') || SDK_LONG_NAMES.has(name);
}

/**
 * Who logged an event (`ga_event_origin`): the values Firebase documents or logs. Sources: Firebase
 * "Automatically collected events" (notification_* from Cloud Messaging, ad_* from the Mobile Ads SDK
 * when linked to AdMob) and the origins the SDKs print (`origin=auto`, `origin=app`, `origin=am`).
 */
export const ORIGIN_LABELS: Readonly<Record<string, string>> = {
  app: "the app's own code",
  auto: 'Firebase SDK (automatic)',
  am: 'Google Mobile Ads SDK',
  fcm: 'Firebase Cloud Messaging',
  fiam: 'Firebase In-App Messaging',
  fdl: 'Firebase Dynamic Links',
};

/** A readable label for an origin; an unknown one is shown as logged. */
export function originLabel(origin: string): string {
  return ORIGIN_LABELS[origin] ?? `another SDK (${origin})`;
}

/** Whether an event was logged by the app's own code (or the log does not say): only those follow the app's naming rules. */
export function isAppOrigin(origin: string | null): boolean {
  return origin === null || origin === 'app';
}

export function hasReservedPrefix(name: string): string | null {
  return RESERVED_PREFIXES.find((prefix) => name.startsWith(prefix)) ?? null;
}
