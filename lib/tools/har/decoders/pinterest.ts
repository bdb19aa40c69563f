import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { flatten, formPairs, tryJson } from './shared.js';

/**
 * Pinterest tag: ct.pinterest.com/v3/?tid=…&event=…&ed={…}&pd={…}&ad={…} (JSON in `ed` event data,
 * `pd` partner data, `ad` browser data), flattened as `ed[value]`, `ed[line_items][0][product_id]`.
 * `ct.pinterest.com/user/` (the tag's user-data sync) repeats the tag id: a secondary request.
 */
export const PINTEREST_LABELS: Record<string, string> = {
  tid: 'Tag ID',
  event: 'Event',
  ed: 'Event data',
  pd: 'Partner data',
  ad: 'Browser data',
  cb: 'Cache buster',
  noscript: 'No-JavaScript image tag',
  'ed[value]': 'Value',
  'ed[currency]': 'Currency',
  'ed[order_quantity]': 'Order quantity',
  'ed[order_id]': 'Order ID',
  'ed[event_id]': 'Event ID (deduplication)',
  'ed[np]': 'Partner name',
  'pd[em]': 'E-mail (hashed)',
  'pd[np]': 'Partner name',
  'ad[loc]': 'Page URL',
  'ad[ref]': 'Referrer',
  'ad[if]': 'Sent from an iframe',
  'ad[sh]': 'Screen height',
  'ad[sw]': 'Screen width',
  'ad[is_eu]': 'EU visitor',
};

const pinterestLabel = labeller(PINTEREST_LABELS, (key) => {
  const item = /^ed\[line_items\]\[(\d+)\]\[(.+)\]$/.exec(key);
  return item ? `Item ${Number(item[1]) + 1} ${item[2]!.replace(/^product_/, '').replace(/_/g, ' ')}` : undefined;
});

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const sync = /^\/user\/?$/.test(request.path);
  if (!/^\/v3\/?$/.test(request.path) && !sync) return null;
  const pairs: Pairs = [];
  for (const [key, val] of formPairs(request, queryPairs)) {
    pairs.push([key, val]);
    if (key === 'ed' || key === 'pd' || key === 'ad') {
      const json = tryJson(val);
      if (json && typeof json === 'object') flatten(json, key, 'bracket', pairs);
    }
  }
  const value = (key: string) => lastValue(pairs, key);
  return [
    hitOf(request, {
      vendor: 'pinterest',
      type: sync ? 'user sync' : (value('event') ?? ''),
      accountId: value('tid'),
      page: value('ad[loc]'),
      referrer: value('ad[ref]'),
      params: named(pairs, pinterestLabel),
      ...(sync ? { secondary: 'Pinterest tag user sync (ct.pinterest.com/user/): repeats the tag id' } : {}),
    }),
  ];
}

export const pinterest: VendorDecoder<'pinterest'> = {
  id: 'pinterest',
  label: 'Pinterest tag',
  kind: 'ads',
  hosts: ['ct.pinterest.com'],
  accountLabel: 'tag ID (tid)',
  labels: PINTEREST_LABELS,
  decode,
};
