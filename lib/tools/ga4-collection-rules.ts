/**
 * GA4's collection rules, shared by every tool that checks events: the Measurement Protocol
 * validator (lib/tools/ga4mp), the HAR analyser (lib/tools/har) and the app-log analyser
 * (lib/tools/applog). Each tool adds what is specific to its context (the protocol's request limits,
 * what gtag.js sends on its own, Firebase's SDK-only names) on top of these.
 *
 * Sources: GA4 "Event collection limits" (support.google.com/analytics/answer/9267744), the
 * Measurement Protocol reference's reserved names
 * (developers.google.com/analytics/devguides/collection/protocol/ga4/reference), and Firebase
 * "Log events" with the FirebaseAnalytics.Event / Param / UserProperty references. Standard
 * (non-360) properties: GA4 360 allows longer values and more parameters, but what passes the
 * standard limits works on both.
 */
export const GA4_COLLECTION_LIMITS = {
  eventNameLength: 40,
  paramsPerEvent: 25,
  paramNameLength: 40,
  paramValueLength: 100,
  userProperties: 25,
  userPropertyNameLength: 24,
  userPropertyValueLength: 36,
  itemsPerEvent: 200,
} as const;

/** Parameters with longer documented value limits than 100 characters. */
export const GA4_LONG_PARAM_VALUE_LIMITS: Readonly<Record<string, number>> = {
  page_location: 1000,
  page_referrer: 420,
  page_title: 300,
};

/** The value limit of one event parameter. */
export function paramValueLimit(name: string): number {
  return GA4_LONG_PARAM_VALUE_LIMITS[name] ?? GA4_COLLECTION_LIMITS.paramValueLength;
}

/**
 * Event names reserved for automatically collected events (Measurement Protocol reference ›
 * Reserved event names). Firebase's SDK reserves `app_uninstall` as well (added by the app-log
 * analyser); the HAR analyser leaves out `user_engagement`, which gtag.js sends itself.
 */
export const GA4_RESERVED_EVENT_NAMES: ReadonlySet<string> = new Set([
  'ad_activeview',
  'ad_click',
  'ad_exposure',
  'ad_query',
  'ad_reward',
  'adunit_exposure',
  'app_background',
  'app_clear_data',
  'app_exception',
  'app_remove',
  'app_store_refund',
  'app_store_subscription_cancel',
  'app_store_subscription_convert',
  'app_store_subscription_renew',
  'app_update',
  'app_upgrade',
  'dynamic_link_app_open',
  'dynamic_link_app_update',
  'dynamic_link_first_open',
  'error',
  'firebase_campaign',
  'firebase_in_app_message_action',
  'firebase_in_app_message_dismiss',
  'firebase_in_app_message_impression',
  'first_open',
  'first_visit',
  'in_app_purchase',
  'notification_dismiss',
  'notification_foreground',
  'notification_open',
  'notification_receive',
  'os_update',
  'session_start',
  'session_start_with_rollout',
  'user_engagement',
]);

/** Reserved prefixes of event, parameter and user-property names. */
export const GA4_RESERVED_NAME_PREFIXES: readonly string[] = ['google_', 'ga_', 'firebase_'];

/** Reserved user property names. */
export const GA4_RESERVED_USER_PROPERTY_NAMES: ReadonlySet<string> = new Set([
  'first_open_after_install',
  'first_open_time',
  'first_visit_time',
  'last_deep_link_referrer',
  'user_id',
]);

/** Event, parameter and user-property names: a letter, then letters, digits and underscores (ASCII). */
export const GA4_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;
