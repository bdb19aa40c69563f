import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/** Reddit pixel: alb.reddit.com/rp.gif?id=…&event=… (or a POST form to /rp); a Custom event is named by m.customEventName. */
export const REDDIT_LABELS: Record<string, string> = {
  id: 'Pixel ID (advertiser)',
  event: 'Event',
  ts: 'Timestamp (ms)',
  uuid: 'Click / browser ID (_rdt_uuid)',
  'm.itemCount': 'Item count',
  'm.value': 'Value',
  'm.valueDecimal': 'Value (decimal)',
  'm.currency': 'Currency',
  'm.transactionId': 'Transaction ID',
  'm.customEventName': 'Custom event name',
  'm.products': 'Products',
  'm.conversionId': 'Conversion ID (deduplication)',
  aaid: 'Android advertising ID',
  idfa: 'iOS advertising ID',
  em: 'E-mail (hashed)',
  pn: 'Phone number (hashed)',
  external_id: 'External ID (hashed)',
  integration: 'Integration',
  partner: 'Partner',
  opt_out: 'Opted out (Limited Data Use)',
  dpm: 'Data processing mode (LDU)',
  dpcc: 'Data processing country',
  dprc: 'Data processing region',
  sh: 'Screen height',
  sw: 'Screen width',
  v: 'Pixel version',
};

const redditLabel = labeller(REDDIT_LABELS);

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (request.host !== 'alb.reddit.com' || !/^\/rp(?:\.gif)?\/?$/.test(request.path)) return null;
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  const event = value('event') ?? '';
  const custom = value('m.customEventName');
  return [
    hitOf(request, {
      vendor: 'reddit',
      type: event === 'Custom' && custom ? custom : event,
      accountId: value('id'),
      clientId: value('uuid'),
      params: named(pairs, redditLabel),
    }),
  ];
}

export const reddit: VendorDecoder<'reddit'> = {
  id: 'reddit',
  label: 'Reddit pixel',
  kind: 'ads',
  hosts: ['alb.reddit.com'],
  accountLabel: 'pixel ID (id)',
  labels: REDDIT_LABELS,
  decode,
};
