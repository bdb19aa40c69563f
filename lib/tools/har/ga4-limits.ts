import {
  GA4_COLLECTION_LIMITS,
  GA4_NAME_PATTERN,
  GA4_RESERVED_EVENT_NAMES,
  GA4_RESERVED_NAME_PREFIXES,
  GA4_RESERVED_USER_PROPERTY_NAMES,
} from '../ga4-collection-rules.js';

/**
 * GA4's collection rules (lib/tools/ga4-collection-rules.ts) as the HAR analyser applies them to web
 * hits. Too many parameters is a warning rather than an error because GA4 360 allows more.
 */
export const GA4_LIMITS = GA4_COLLECTION_LIMITS;

/**
 * Reserved for automatically collected events. `user_engagement` is left out on purpose: gtag.js
 * itself sends it on the web, so it is not a mistake to see it in a capture.
 */
export const GA4_RESERVED_EVENT_NAMES_ON_THE_WEB: ReadonlySet<string> = new Set(
  [...GA4_RESERVED_EVENT_NAMES].filter((name) => name !== 'user_engagement'),
);

/** GA4's reserved prefixes, plus gtag.js's own: `_` (internal parameters) and `gtag.`. */
export const GA4_RESERVED_PREFIXES = ['_', ...GA4_RESERVED_NAME_PREFIXES, 'gtag.'];

export const GA4_RESERVED_USER_PROPERTIES = GA4_RESERVED_USER_PROPERTY_NAMES;

export { GA4_NAME_PATTERN };

export function hasReservedPrefix(name: string): boolean {
  return GA4_RESERVED_PREFIXES.some((prefix) => name.startsWith(prefix));
}
