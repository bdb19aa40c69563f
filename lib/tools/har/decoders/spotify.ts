import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * Spotify Pixel (Spotify Ad Analytics): the pixel script (`pixel.byspotify.com/ping.min.js`, a "tag
 * loaded" entry) posts JSON to `https://pixels.spotify.com/v1/ingest`:
 * `{"batch":[{"pid":<pixel id>,"events":[{"action":"view","body":{"url":…}}, …]}]}` — one hit per event
 * (the batch may hold several pixels' events).
 * Sources: Spotify Ad Analytics' "Spotify Pixel" installation guide (events: view, lead, purchase …)
 * and captured requests; Omnibug's Spotify Pixel provider as a cross-check.
 */
const SPOTIFY_LABELS: Record<string, string> = {
  pid: 'Pixel ID',
  action: 'Event',
  'body.url': 'Page URL',
  'body.referrer': 'Referrer',
  'body.value': 'Value',
  'body.currency': 'Currency',
  'body.order_id': 'Order ID',
  'body.discount_code': 'Discount code',
  'body.is_new_customer': 'New customer',
  'body.quantity': 'Quantity',
  'body.line_items': 'Line items',
  'body.type': 'Lead type',
  'body.category': 'Lead category',
  'body.product_id': 'Product ID',
  'body.product_name': 'Product name',
  'body.product_type': 'Product type',
  'body.product_vendor': 'Product vendor',
  'body.variant_id': 'Variant ID',
  'body.variant_name': 'Variant name',
  'body.event_id': 'Event ID (deduplication)',
};

const spotifyLabel = labeller(SPOTIFY_LABELS, (key) => (key.startsWith('body.') ? `${key.slice(5)} (event data)` : undefined));

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (request.host === 'pixel.byspotify.com' && /\.js$/.test(request.path)) {
    return [
      hitOf(request, {
        vendor: 'spotify',
        type: 'tag loaded',
        accountId: null,
        params: [requestKind('Spotify Pixel script')],
        container: true,
        body: null,
      }),
    ];
  }
  if (!/^\/v1\/ingest\/?$/.test(request.path)) return null;
  const body = tryJson(request.body);
  const groups = isObject(body) && Array.isArray(body.batch) ? body.batch.filter(isObject) : isObject(body) ? [body] : [];
  const events = groups.flatMap((group) =>
    (Array.isArray(group.events) ? group.events.filter(isObject) : []).map((event) => ({ pid: field(group.pid), event })),
  );
  const kind = requestKind('Pixel ingest');
  if (events.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'spotify',
        accountId: groups.length ? field(groups[0]!.pid) : lastValue(query, 'pid'),
        params: [kind, ...named(query, spotifyLabel)],
        reason: request.body ? 'No events could be read from the body' : 'No body: the pixel sends its events as JSON',
      }),
    ];
  }
  return events.map(({ pid, event }, index) => {
    const pairs = flatten(event, '', 'dot', pid ? [['pid', pid]] : []);
    return hitOf(request, {
      vendor: 'spotify',
      type: field(event.action) ?? '(no event)',
      accountId: pid,
      page: lastValue(pairs, 'body.url'),
      referrer: lastValue(pairs, 'body.referrer'),
      params: [kind, ...named(pairs, spotifyLabel)],
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
    });
  });
}

export const spotify: VendorDecoder<'spotify'> = {
  id: 'spotify',
  label: 'Spotify Pixel',
  kind: 'ads',
  hosts: ['pixels.spotify.com', 'pixel.byspotify.com'],
  accountLabel: 'pixel ID',
  labels: SPOTIFY_LABELS,
  decode,
};
