import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { flatten, formPairs, tryJson } from './shared.js';

/**
 * X (Twitter) pixel: analytics.twitter.com/1/i/adsct?txn_id=…&event={…} (uwt.js 2.x, `{}` is the page
 * view), /i/adsct with `events=[["purchase",{…}]]` (the older single-event tag, decoded with a
 * note), analytics.x.com, and the POST form /i/adsctp. The tag sends each event a second time to
 * t.co (its cookie-matching mirror): that copy is a secondary request, not a second event.
 */
export const X_LABELS: Record<string, string> = {
  txn_id: 'Pixel / event tag ID',
  p_id: 'Partner ID',
  p_user_id: 'Partner user ID',
  event: 'Event data (JSON)',
  events: 'Events (legacy, JSON)',
  event_id: 'Event ID (deduplication)',
  tw_sale_amount: 'Sale amount',
  tw_order_quantity: 'Order quantity',
  tw_document_href: 'Page URL',
  tw_iframe_status: 'Sent from an iframe',
  tw_clid_src: 'Click ID source',
  twclid: 'Click ID (twclid)',
  integration: 'Integration',
  type: 'Tag type',
  version: 'Tag version',
  bci: 'Browser capability flags',
  eci: 'Environment flags',
  dv: 'Device values (timezone, languages, platform, screen)',
  pl_id: 'Page load ID',
  tpx_cb: 'Callback',
};

const xLabel = labeller(X_LABELS);

function xEvent(pairs: Pairs): { type: string; legacy: boolean } {
  const legacy = tryJson(lastValue(pairs, 'events'));
  if (Array.isArray(legacy) && Array.isArray(legacy[0]) && typeof legacy[0][0] === 'string') return { type: legacy[0][0], legacy: true };
  const event = tryJson(lastValue(pairs, 'event'));
  if (event && typeof event === 'object' && Object.keys(event).length > 0) return { type: 'event', legacy: false };
  return { type: 'page view', legacy: false };
}

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/^\/(?:1\/)?i\/adsctp?\/?$/.test(request.path)) return null;
  const mirror = request.host === 't.co';
  if (!mirror && !/^analytics\.(?:twitter|x)\.com$/.test(request.host)) return null;
  const raw = formPairs(request, queryPairs);
  const pairs: Pairs = [];
  for (const [key, val] of raw) {
    pairs.push([key, val]);
    if (key === 'event') {
      const json = tryJson(val);
      if (json && typeof json === 'object' && Object.keys(json).length > 0) flatten(json, 'event', 'dot', pairs);
    }
  }
  const value = (key: string) => lastValue(raw, key);
  const { type, legacy } = xEvent(raw);
  return [
    hitOf(request, {
      vendor: 'x',
      type,
      accountId: value('txn_id'),
      page: value('tw_document_href'),
      clientId: value('twclid'),
      params: named(pairs, xLabel),
      ...(mirror ? { secondary: 'X pixel’s t.co copy of the event (cookie matching): not a second event' } : {}),
      ...(legacy ? { formatNote: 'Older format: the single-event tag’s events=[["name",{…}]] (uwt.js 2 sends event={…})' } : {}),
    }),
  ];
}

export const x: VendorDecoder<'x'> = {
  id: 'x',
  label: 'X pixel',
  kind: 'ads',
  hosts: ['analytics.twitter.com', 'analytics.x.com', 't.co'],
  accountLabel: 'pixel / event tag ID (txn_id)',
  labels: X_LABELS,
  decode,
};
