import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, type VendorDecoder } from '../vendor.js';
import { decodedUrl, flatten, formPairs, isObject, tryJson } from './shared.js';

/**
 * TikTok pixel: POST analytics.tiktok.com/api/v2/pixel (also /api/v2/pixel/act, /api/v1/track),
 * a JSON body: `{"event":"AddToCart","context":{"pixel":{"code":"C…"},"page":{"url":…}},
 * "properties":{"value":…,"currency":…}}`, flattened into dotted paths (`context.page.url`).
 * A body holding several events (`{"batch":[…]}` or a JSON array) gives one hit per event.
 */
export const TIKTOK_LABELS: Record<string, string> = {
  event: 'Event',
  event_id: 'Event ID (deduplication)',
  message_id: 'Message ID',
  timestamp: 'Timestamp',
  'context.pixel.code': 'Pixel code',
  'context.page.url': 'Page URL',
  'context.page.referrer': 'Referrer',
  'context.user.anonymous_id': 'Anonymous ID (_ttp cookie)',
  'context.user.external_id': 'External ID (hashed)',
  'context.user.email': 'E-mail (hashed)',
  'context.user.phone_number': 'Phone number (hashed)',
  'context.user.device_id': 'Device ID',
  'context.user.user_id': 'User ID',
  'context.ad.callback': 'Click ID (ttclid)',
  'context.ad.ad_id': 'Ad ID',
  'context.ad.creative_id': 'Creative ID',
  'context.library.name': 'Library',
  'context.library.version': 'Library version',
  'context.session_id': 'Session ID',
  'context.pageview_id': 'Page view ID',
  'context.userAgent': 'User agent',
  'properties.value': 'Value',
  'properties.currency': 'Currency',
  'properties.content_id': 'Content ID',
  'properties.content_type': 'Content type',
  'properties.content_name': 'Content name',
  'properties.query': 'Search query',
  'properties.order_id': 'Order ID',
  analytics_uniq_id: 'Analytics unique ID',
  is_onsite: 'On-site event',
  partner: 'Partner integration',
};

const tiktokLabel = labeller(TIKTOK_LABELS);

function eventHit(request: CapturedRequest, queryPairs: Pairs, event: unknown, batch: HitDraft['batch']): HitDraft {
  const pairs: Pairs = [...queryPairs];
  flatten(event, '', 'dot', pairs);
  const value = (key: string) => lastValue(pairs, key);
  if (value('event') === undefined && value('action') === undefined && value('context.pixel.code') === undefined) {
    return invalidHit(request, {
      vendor: 'tiktok',
      accountId: null,
      params: named(pairs, tiktokLabel),
      batch,
      reason: 'JSON without an event or a pixel code (context.pixel.code): not a pixel event',
    });
  }
  // `/api/v2/pixel/act` reports the pixel's own actions (Metadata …), named by the page trigger.
  const trigger = value('auto_collected_properties.page_trigger');
  const action = value('action');
  return hitOf(request, {
    vendor: 'tiktok',
    type: value('event') ?? (action ? `${action}${trigger ? ` (${trigger})` : ''}` : ''),
    accountId: value('context.pixel.code') ?? value('pixel_code'),
    page: decodedUrl(value('context.page.url')),
    referrer: decodedUrl(value('context.page.referrer')),
    clientId: value('context.user.anonymous_id'),
    params: named(pairs, tiktokLabel),
    batch,
  });
}

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/^\/api\/v\d\/(?:pixel(?:\/act|\/track|\/batch)?|track)\/?$/.test(request.path)) return null;
  const json = tryJson(request.body);
  const events = Array.isArray(json) ? json : isObject(json) && Array.isArray(json.batch) ? json.batch : null;
  if (events && events.length) {
    return events.map((event, index) =>
      eventHit(request, queryPairs, event, events.length > 1 ? { index: index + 1, size: events.length } : null),
    );
  }
  if (isObject(json)) return [eventHit(request, queryPairs, json, null)];
  const pairs = formPairs(request, queryPairs);
  if (lastValue(pairs, 'event') !== undefined || lastValue(pairs, 'pixel_code') !== undefined) {
    return [
      hitOf(request, {
        vendor: 'tiktok',
        type: lastValue(pairs, 'event') ?? '',
        accountId: lastValue(pairs, 'pixel_code') ?? lastValue(pairs, 'sdkid'),
        params: named(pairs, tiktokLabel),
      }),
    ];
  }
  return [
    invalidHit(request, {
      vendor: 'tiktok',
      accountId: null,
      params: named(pairs, tiktokLabel),
      reason: request.body
        ? 'The body is not the pixel’s JSON (it does not parse): no event can be read'
        : 'No body: the pixel sends its event as JSON',
    }),
  ];
}

export const tiktok: VendorDecoder<'tiktok'> = {
  id: 'tiktok',
  label: 'TikTok pixel',
  kind: 'ads',
  hosts: ['tiktok.com'],
  accountLabel: 'pixel code',
  labels: TIKTOK_LABELS,
  decode: (request, query) => (/(^|\.)analytics(-[a-z0-9]+)?\.tiktok\.com$/.test(request.host) ? decode(request, query) : null),
};
