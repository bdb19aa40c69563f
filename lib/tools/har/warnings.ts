import { paramValueLimit } from '../ga4-collection-rules.js';
import { analyticsDenied } from './consent.js';
import {
  GA4_LIMITS,
  GA4_NAME_PATTERN,
  GA4_RESERVED_EVENT_NAMES_ON_THE_WEB,
  GA4_RESERVED_USER_PROPERTIES,
  hasReservedPrefix,
} from './ga4-limits.js';
import type { HarWarning, Hit, Severity, WarningCode } from './types.js';
import { VENDOR_DECODERS, VENDOR_LABELS } from './vendors.js';

/** Two page_view hits for the same property and page closer than this are reported. */
export const DUPLICATE_PAGE_VIEW_WINDOW_MS = 2_000;

const CONSENT_VENDORS = new Set(['ga4', 'google-ads', 'floodlight']);

/** Each vendor's decoder, for its own checks and what its account id is called. */
const DECODER_OF = new Map(VENDOR_DECODERS.map((decoder) => [decoder.id as string, decoder]));

export { WARNING_TITLES } from './warning-titles.js';

/**
 * gtag.js sends gcd even where no consent command ran (every letter `l`, "not set"): only a hit with
 * at least one signal set counts as carrying a consent state.
 */
function consentSet(hit: Hit): boolean {
  return hit.consent?.signals.some((signal) => signal.state !== 'not set') ?? false;
}

export class WarningCollector {
  readonly warnings: HarWarning[] = [];

  add(code: WarningCode, severity: Severity, message: string, hit: Hit | null) {
    const warning: HarWarning = { id: this.warnings.length, code, severity, message, hitId: hit?.id ?? null, page: hit?.page ?? null };
    this.warnings.push(warning);
    hit?.warningIds.push(warning.id);
  }
}

function ga4Checks(hit: Hit, out: WarningCollector) {
  const name = hit.type;
  if (name === '(no event name)') {
    out.add('event_name_invalid', 'error', 'GA4 hit without an event name (en)', hit);
  } else {
    if (name.length > GA4_LIMITS.eventNameLength) {
      out.add(
        'event_name_too_long',
        'error',
        `Event name "${name}" has ${name.length} characters (limit ${GA4_LIMITS.eventNameLength})`,
        hit,
      );
    }
    if (!GA4_NAME_PATTERN.test(name)) {
      out.add(
        'event_name_invalid',
        'error',
        `Event name "${name}" must start with a letter and use only letters, digits and underscores`,
        hit,
      );
    }
    if (GA4_RESERVED_EVENT_NAMES_ON_THE_WEB.has(name) || hasReservedPrefix(name)) {
      out.add('event_name_reserved', 'error', `Event name "${name}" is reserved by Google Analytics`, hit);
    }
  }
  let eventParams = 0;
  let userProperties = 0;
  for (const { key, value } of hit.params) {
    const event = /^epn?\.(.+)$/.exec(key);
    const user = /^upn?\.(.+)$/.exec(key);
    if (event) {
      const param = event[1]!;
      eventParams++;
      if (param.length > GA4_LIMITS.paramNameLength) {
        out.add(
          'param_name_too_long',
          'error',
          `Event parameter name "${param}" has ${param.length} characters (limit ${GA4_LIMITS.paramNameLength})`,
          hit,
        );
      }
      if (hasReservedPrefix(param)) out.add('param_name_reserved', 'error', `Event parameter name "${param}" uses a reserved prefix`, hit);
      const limit = paramValueLimit(param);
      if (value.length > limit) {
        out.add(
          'param_value_too_long',
          'warning',
          `Value of "${param}" has ${value.length} characters (limit ${limit}); GA4 truncates it`,
          hit,
        );
      }
    } else if (user) {
      const prop = user[1]!;
      userProperties++;
      if (prop.length > GA4_LIMITS.userPropertyNameLength) {
        out.add(
          'user_property_name_too_long',
          'error',
          `User property name "${prop}" has ${prop.length} characters (limit ${GA4_LIMITS.userPropertyNameLength})`,
          hit,
        );
      }
      if (GA4_RESERVED_USER_PROPERTIES.has(prop) || hasReservedPrefix(prop)) {
        out.add('user_property_reserved', 'error', `User property name "${prop}" is reserved`, hit);
      }
      if (value.length > GA4_LIMITS.userPropertyValueLength) {
        out.add(
          'user_property_value_too_long',
          'warning',
          `Value of user property "${prop}" has ${value.length} characters (limit ${GA4_LIMITS.userPropertyValueLength})`,
          hit,
        );
      }
    }
  }
  if (eventParams > GA4_LIMITS.paramsPerEvent) {
    out.add(
      'too_many_event_params',
      'warning',
      `${eventParams} event parameters (limit ${GA4_LIMITS.paramsPerEvent} on standard properties)`,
      hit,
    );
  }
  if (userProperties > GA4_LIMITS.userProperties) {
    out.add('too_many_user_properties', 'warning', `${userProperties} user properties (limit ${GA4_LIMITS.userProperties})`, hit);
  }
  const hasParam = (key: string) => hit.params.some((param) => param.key === key);
  const hasValue = hasParam('epn.value') || hasParam('ep.value');
  if ((hit.items.length > 0 || hasValue) && !hasParam('cu') && !hasParam('ep.currency')) {
    out.add('ecommerce_missing_currency', 'warning', `"${name}" has a value or items but no currency (cu)`, hit);
  }
  if (name === 'purchase' && !hasParam('ep.transaction_id') && !hasParam('epn.transaction_id')) {
    out.add('purchase_missing_transaction_id', 'warning', 'purchase without transaction_id: GA4 cannot deduplicate it', hit);
  }
}

function clientIdCheck(hit: Hit, out: WarningCollector) {
  if (hit.vendor !== 'ga4' && hit.vendor !== 'ua') return;
  if (hit.clientId) return;
  if (analyticsDenied(hit.consent)) {
    out.add(
      'cookieless_ping',
      'info',
      'No client ID: a cookieless ping (analytics_storage denied), expected in advanced consent mode',
      hit,
    );
  } else {
    out.add('missing_client_id', 'error', 'No client ID (cid): the hit cannot be attributed to a user', hit);
  }
}

/** Checks that look at one hit only. */
export function checkHit(hit: Hit, out: WarningCollector) {
  if (hit.status === 0) {
    out.add('http_error', 'warning', 'The request failed or was blocked (no response, status 0)', hit);
  } else if (hit.status >= 400) {
    out.add('http_error', 'error', `The collector answered HTTP ${hit.status}`, hit);
  }
  if (hit.invalid) {
    const older = hit.invalid.kind === 'older-format';
    out.add(
      'malformed_hit',
      older ? 'warning' : 'error',
      `${VENDOR_LABELS[hit.vendor] ?? hit.vendor} request that is not a valid hit${older ? ' (older format)' : ''}: ${hit.invalid.reason}`,
      hit,
    );
    return;
  }
  // A secondary request repeats its hit: that hit is checked, not the copy.
  if (hit.secondary) return;
  if (hit.formatNote) out.add('older_format', 'info', hit.formatNote, hit);
  const decoder = DECODER_OF.get(hit.vendor);
  // A tag script's URL often does not name the account (it is in the snippet): only hits are checked.
  if (decoder?.accountLabel && !hit.accountId && !hit.container && !PIXEL_VENDORS.has(hit.vendor)) {
    out.add('missing_account_id', 'error', `${decoder.label} hit without its ${decoder.accountLabel}: it cannot be attributed`, hit);
  }
  decoder?.check?.(hit, (code, severity, message) => out.add(code, severity, message, hit));
  if (hit.vendor === 'ga4') ga4Checks(hit, out);
  if (hit.vendor === 'ua') {
    out.add('ua_sunset', 'info', 'Universal Analytics stopped processing data on 1 July 2023 (360: 1 July 2024): this hit is ignored', hit);
  }
  clientIdCheck(hit, out);
  if (hit.vendor === 'meta' && hit.type === 'Purchase') {
    const has = (key: string) => hit.params.some((param) => param.key === key && param.value !== '');
    if (!has('cd[value]') || !has('cd[currency]')) {
      out.add('meta_purchase_missing_value', 'error', 'Meta Purchase without cd[value] and cd[currency] (both are required)', hit);
    }
  }
  if (hit.vendor === 'meta' && hit.consent?.source === 'meta-ldu' && hit.consent.signals[0]?.state === 'denied') {
    out.add('meta_limited_data_use', 'info', hit.consent.text, hit);
  }
  if (PIXEL_VENDORS.has(hit.vendor)) pixelChecks(hit, out);
}

const PIXEL_VENDORS = new Set(['tiktok', 'linkedin', 'microsoft', 'pinterest', 'snapchat', 'reddit', 'x']);

/**
 * What each pixel's documentation makes required for a purchase (value and currency), named by the
 * keys its tag sends them in. UET's revenue without currency falls back to the account's currency,
 * so it is a warning there as everywhere.
 */
const PURCHASE_RULES: Record<string, { events: RegExp; value: string[]; currency: string[]; label: string }> = {
  tiktok: {
    events: /^(CompletePayment|PlaceAnOrder|Purchase)$/,
    value: ['properties.value'],
    currency: ['properties.currency'],
    label: 'properties.value and properties.currency',
  },
  pinterest: { events: /^checkout$/i, value: ['ed[value]'], currency: ['ed[currency]'], label: 'ed.value and ed.currency' },
  snapchat: { events: /^PURCHASE$/, value: ['e_pr'], currency: ['e_cur'], label: 'price (e_pr) and currency (e_cur)' },
  reddit: { events: /^Purchase$/, value: ['m.value', 'm.valueDecimal'], currency: ['m.currency'], label: 'm.value and m.currency' },
};

function pixelChecks(hit: Hit, out: WarningCollector) {
  const values = new Map<string, string>();
  for (const { key, value } of hit.params) values.set(key, value);
  const present = (keys: string[]) => keys.some((key) => (values.get(key) ?? '') !== '');
  const vendor = VENDOR_LABELS[hit.vendor];
  if (!hit.accountId)
    out.add('pixel_missing_id', 'error', `${vendor} request without a pixel / tag ID: the vendor cannot attribute it`, hit);
  const rule = PURCHASE_RULES[hit.vendor];
  if (rule && rule.events.test(hit.type) && (!present(rule.value) || !present(rule.currency))) {
    out.add('pixel_purchase_missing_value', 'warning', `${vendor} ${hit.type} without ${rule.label}: revenue cannot be reported`, hit);
  }
  if (hit.vendor === 'microsoft') {
    if (values.get('evt') === 'custom' && !values.get('ea') && !values.get('en')) {
      out.add(
        'pixel_custom_event_unnamed',
        'warning',
        'UET custom event without an event action (ea): goals on event action cannot match it',
        hit,
      );
    }
    if (present(['gv']) && !present(['gc'])) {
      out.add('pixel_purchase_missing_value', 'warning', 'UET revenue (gv) without currency (gc): the account currency is assumed', hit);
    }
    if (hit.consent?.signals[0]?.state === 'denied') {
      out.add(
        'uet_consent_denied',
        'info',
        'Sent with ad_storage denied (UET consent mode, asc=D): Microsoft does not use cookies for it',
        hit,
      );
    }
  }
  if (hit.vendor === 'reddit' && values.get('event') === 'Custom' && !present(['m.customEventName'])) {
    out.add('pixel_custom_event_unnamed', 'warning', 'Reddit Custom event without m.customEventName', hit);
  }
}

/**
 * Checks across hits:
 * - duplicate page_view (GA4 `page_view`, UA `pageview`) for the same property and page within
 *   DUPLICATE_PAGE_VIEW_WINDOW_MS;
 * - consent: when at least one Google hit carries a consent state, consent mode is in use and every
 *   GA4 / Ads / Floodlight hit without one is a warning (a tag that fires outside consent mode, or
 *   before the consent default); when none does, one file-wide note says consent mode does not seem
 *   to be implemented (not an error: outside the EEA it may be legitimate);
 * - more than one GA4 measurement id on the same page (often a leftover or a double install).
 */
export function checkAcross(hits: Hit[], out: WarningCollector) {
  const lastPageView = new Map<string, Hit>();
  for (const hit of hits) {
    const isPageView = (hit.vendor === 'ga4' && hit.type === 'page_view') || (hit.vendor === 'ua' && hit.type === 'pageview');
    // A secondary request repeats its hit: never a second page view.
    if (!isPageView || hit.secondary || hit.invalid) continue;
    const key = `${hit.accountId}|${hit.page}`;
    const previous = lastPageView.get(key);
    if (previous && hit.timeMs - previous.timeMs <= DUPLICATE_PAGE_VIEW_WINDOW_MS) {
      const gap = Math.max(0, hit.timeMs - previous.timeMs);
      out.add(
        'duplicate_page_view',
        'warning',
        `Duplicate page view for ${hit.accountId} on the same page ${gap} ms after hit #${previous.id + 1}`,
        hit,
      );
    }
    lastPageView.set(key, hit);
  }

  // Secondary requests (Floodlight follow-ups, signals pings) repeat their hit's request: not checked.
  const google = hits.filter((hit) => CONSENT_VENDORS.has(hit.vendor) && !hit.secondary && !hit.invalid);
  const withConsent = google.filter(consentSet);
  if (google.length > 0 && withConsent.length === 0) {
    out.add(
      'no_consent_mode',
      'info',
      `None of the ${google.length} Google tag hits carries a consent state (no gcs, and no gcd signal set): consent mode does not seem to be implemented`,
      google[0]!,
    );
  } else if (withConsent.length > 0) {
    for (const hit of google) {
      if (consentSet(hit)) continue;
      const message = hit.consent
        ? `Consent not set on this hit (gcd ${hit.consent.gcd ?? ''}: every signal "not set") although other Google hits carry one: this tag may fire before the consent default`
        : 'No consent state (gcs/gcd) although other Google hits carry one: this tag may fire outside consent mode';
      out.add('missing_consent', 'warning', message, hit);
    }
  }

  const idsByPage = new Map<string, Set<string>>();
  for (const hit of hits) {
    if (hit.vendor !== 'ga4' || !hit.page || !hit.accountId || hit.secondary || hit.invalid) continue;
    const page = hit.page.split('#')[0]!;
    const ids = idsByPage.get(page) ?? new Set<string>();
    ids.add(hit.accountId);
    idsByPage.set(page, ids);
  }
  const reported = new Set<string>();
  for (const hit of hits) {
    if (hit.vendor !== 'ga4' || !hit.page || hit.secondary || hit.invalid) continue;
    const page = hit.page.split('#')[0]!;
    const ids = idsByPage.get(page);
    if (!ids || ids.size < 2 || reported.has(page)) continue;
    reported.add(page);
    out.add('mixed_measurement_ids', 'info', `${ids.size} GA4 measurement IDs on this page: ${[...ids].sort().join(', ')}`, hit);
  }
}
