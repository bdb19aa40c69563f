import type { WarningCode } from './types.js';

/**
 * One title per warning code, for lists of warnings grouped by code (the analyser's page and the
 * browser extension). In a module of its own so that a page can import it without the decoders.
 */
export const WARNING_TITLES: Record<WarningCode, string> = {
  duplicate_page_view: 'Duplicate page views',
  missing_consent: 'Google hits without consent state',
  no_consent_mode: 'No consent mode',
  missing_client_id: 'Missing client ID',
  cookieless_ping: 'Cookieless pings',
  event_name_invalid: 'Invalid event names',
  event_name_reserved: 'Reserved event names',
  event_name_too_long: 'Event names too long',
  param_name_too_long: 'Parameter names too long',
  param_name_reserved: 'Reserved parameter names',
  param_value_too_long: 'Parameter values too long',
  too_many_event_params: 'Too many event parameters',
  too_many_user_properties: 'Too many user properties',
  user_property_name_too_long: 'User property names too long',
  user_property_value_too_long: 'User property values too long',
  user_property_reserved: 'Reserved user property names',
  ecommerce_missing_currency: 'Value without currency',
  purchase_missing_transaction_id: 'Purchases without transaction_id',
  meta_purchase_missing_value: 'Meta Purchase without value/currency',
  meta_limited_data_use: 'Meta Limited Data Use',
  pixel_missing_id: 'Pixel requests without an ID',
  pixel_purchase_missing_value: 'Pixel purchases without value/currency',
  pixel_custom_event_unnamed: 'Unnamed custom pixel events',
  uet_consent_denied: 'UET sent with ad_storage denied',
  ua_sunset: 'Universal Analytics hits (sunset)',
  http_error: 'Failed requests',
  mixed_measurement_ids: 'Several GA4 properties on one page',
  malformed_hit: 'Requests that are not valid hits',
  older_format: 'Older payload formats',
  missing_account_id: 'Hits without an account ID',
  purchase_missing_value: 'Orders without value, currency or ID',
  event_unnamed: 'Events without a name',
  consent_denied: 'Sent with consent denied or opted out',
  non_production_container: 'Development or staging containers',
  vendor_rule: 'Vendor rules',
};
