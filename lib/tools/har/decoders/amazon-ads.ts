import { lastValue, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Amazon Ads. The Amazon Advertising Tag (AAT, `c.amazon-adsystem.com/aat/amzn.js`, a "tag loaded"
 * entry) reports events to `https://s.amazon-adsystem.com/iu3?pid=<tag id>&event=<event>&ts=…` (also
 * `aax-*.amazon-adsystem.com/s/iu3`). The earlier Amazon DSP pixel,
 * `https://s.amazon-adsystem.com/iui3?d=forester-did&ex-fargs=%3Fid%3D<pixel>%26type%3D<n>%26m%3D<marketplace>…`,
 * is decoded with a note. Publisher cookie syncs on the same path (`iu3?…&d=dtb-pub…`) are secondary.
 * Sources: Amazon Ads' "Amazon Ad Tag" help (events, the GTM template) and the DSP pixel's
 * documented ex-fargs format; Omnibug's Amazon Ad Tag provider as a cross-check.
 */
const AMAZON_ADS_LABELS: Record<string, string> = {
  pid: 'Tag ID',
  event: 'Event',
  ts: 'Timestamp (ms)',
  cb: 'Cache buster',
  gtmVersion: 'GTM template version',
  value: 'Value',
  currency: 'Currency',
  attr: 'Attributes',
  d: 'Data partner (publisher sync)',
  'ex-fargs': 'DSP pixel arguments',
  'ex-fch': 'DSP pixel channel',
  'ex-src': 'DSP pixel source',
  'ex-hargs': 'DSP pixel advertiser arguments',
  'dsp.id': 'DSP pixel ID',
  'dsp.type': 'DSP pixel type',
  'dsp.m': 'Marketplace',
};

const amazonLabel = labeller(AMAZON_ADS_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const path = request.path;
  if (request.host === 'c.amazon-adsystem.com' && /^\/aat\/amzn\.js$/.test(path)) {
    return [
      hitOf(request, {
        vendor: 'amazon-ads',
        type: 'tag loaded',
        accountId: null,
        params: [requestKind('Amazon Advertising Tag library')],
        container: true,
        body: null,
      }),
    ];
  }
  const match = /^(?:\/s)?\/(iu3|iui3)\/?$/.exec(path);
  if (!match) return null;
  const pairs = formPairs(request, query);
  const value = (key: string) => lastValue(pairs, key);
  if (match[1] === 'iui3') {
    const dsp = parsePairs((value('ex-fargs') ?? '').replace(/^\?/, '')).map(([key, val]) => [`dsp.${key}`, val] as [string, string]);
    return [
      hitOf(request, {
        vendor: 'amazon-ads',
        type: 'DSP pixel',
        accountId: lastValue(dsp, 'dsp.id'),
        params: [requestKind('Amazon DSP pixel (iui3)'), ...named([...pairs, ...dsp], amazonLabel)],
        formatNote: 'Older format: the Amazon DSP pixel (iui3, ex-fargs); the Amazon Advertising Tag sends iu3?pid=…&event=…',
      }),
    ];
  }
  if (!value('pid') && value('d')) {
    return [
      hitOf(request, {
        vendor: 'amazon-ads',
        type: 'cookie sync',
        accountId: null,
        params: [requestKind('Publisher cookie sync (iu3)'), ...named(pairs, amazonLabel)],
        secondary: 'Amazon publisher services cookie sync: not an advertiser event',
      }),
    ];
  }
  return [
    hitOf(request, {
      vendor: 'amazon-ads',
      type: value('event') ?? '(no event)',
      accountId: value('pid'),
      params: [requestKind('Amazon Advertising Tag event (iu3)'), ...named(pairs, amazonLabel)],
    }),
  ];
}

export const amazonAds: VendorDecoder<'amazon-ads'> = {
  id: 'amazon-ads',
  label: 'Amazon Ads',
  kind: 'ads',
  hosts: ['amazon-adsystem.com'],
  accountLabel: 'tag ID (pid)',
  labels: AMAZON_ADS_LABELS,
  decode,
};
