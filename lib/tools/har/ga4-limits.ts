/**
 * GA4 collection limits and reserved names (Google Analytics Help "Event collection limits",
 * "[GA4] Reserved event names", Measurement Protocol reference). Standard properties; 360 allows
 * more parameters per event, which is why too many parameters is a warning and not an error.
 */
export const GA4_LIMITS = {
  eventNameLength: 40,
  paramNameLength: 40,
  paramValueLength: 100,
  eventParams: 25,
  userProperties: 25,
  userPropertyNameLength: 24,
  userPropertyValueLength: 36,
} as const;

/** Parameters whose values may be longer than 100 characters (documented exceptions). */
export const GA4_LONG_VALUE_LIMITS: Record<string, number> = {
  page_location: 1000,
  page_referrer: 420,
  page_title: 300,
};

/**
 * Reserved for automatically collected events. `user_engagement` is left out on purpose: gtag.js
 * itself sends it on the web, so it is not a mistake to see it in a capture.
 */
export const GA4_RESERVED_EVENT_NAMES = new Set([
  'ad_activeview', 'ad_click', 'ad_exposure', 'ad_query', 'ad_reward', 'adunit_exposure', 'app_background',
  'app_clear_data', 'app_exception', 'app_remove', 'app_store_refund', 'app_store_subscription_cancel',
  'app_store_subscription_convert', 'app_store_subscription_renew', 'app_update', 'app_upgrade',
  'dynamic_link_app_open', 'dynamic_link_app_update', 'dynamic_link_first_open', 'error', 'first_open',
  'first_visit', 'in_app_purchase', 'notification_dismiss', 'notification_foreground', 'notification_open',
  'notification_receive', 'os_update', 'session_start', 'session_start_with_rollout',
]);

export const GA4_RESERVED_PREFIXES = ['_', 'firebase_', 'ga_', 'google_', 'gtag.'];

export const GA4_RESERVED_USER_PROPERTIES = new Set([
  'first_open_time', 'first_visit_time', 'last_deep_link_referrer', 'user_id', 'first_open_after_install',
]);

/** Event names: a letter first, then letters, digits and underscores. */
export const GA4_NAME_PATTERN = /^[A-Za-z][A-Za-z0-9_]*$/;

export function hasReservedPrefix(name: string): boolean {
  return GA4_RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix));
}
