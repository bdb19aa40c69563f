import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * AdRoll pixel: `adroll_adv_id` and `adroll_pix_id` in the snippet load `s.adroll.com/j/<adv>/roundtrip.js`
 * (a "tag loaded" entry) and send `https://d.adroll.com/pixel/<advertiser>/<pixel>?…` (the page view;
 * conversions add `adroll_conversion_value`, `adroll_currency`); `d.adroll.com/pex/…` (partner
 * exchanges) and `/cm/…` cookie matches are secondary.
 * Sources: AdRoll's "Install the AdRoll Pixel" and "Track conversions" help, and captured requests.
 */
const ADROLL_LABELS: Record<string, string> = {
  '(advertiser)': 'Advertiser ID',
  '(pixel)': 'Pixel ID',
  adroll_conversion_value: 'Conversion value',
  adroll_currency: 'Currency',
  adroll_segments: 'Segments',
  order_id: 'Order ID',
  user_id: 'User ID',
  af0: 'Adaptive flag',
  ev: 'Event',
  cookie: 'Cookie',
  arrfrr: 'Page URL (AdRoll)',
  keyw: 'Keywords',
};

const adrollLabel = labeller(ADROLL_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const script = /^\/j\/(?:([A-Z0-9]+)\/)?roundtrip\.js$/.exec(request.path);
  if (script) {
    return [
      hitOf(request, {
        vendor: 'adroll',
        type: 'tag loaded',
        accountId: script[1],
        params: [requestKind('AdRoll roundtrip script')],
        container: true,
        body: null,
      }),
    ];
  }
  const match = /^\/(pixel|pex|cm)\/([A-Z0-9]+)(?:\/([A-Z0-9]+))?\/?$/.exec(request.path);
  if (!match || request.host !== 'd.adroll.com') return null;
  const pairs = formPairs(request, query);
  const hit = match[1] === 'pixel';
  return [
    hitOf(request, {
      vendor: 'adroll',
      type: hit
        ? lastValue(pairs, 'adroll_conversion_value')
          ? 'conversion'
          : 'page view'
        : match[1] === 'pex'
          ? 'partner exchange'
          : 'cookie match',
      accountId: match[2],
      params: [
        requestKind(hit ? 'Pixel' : `/${match[1]}/`),
        { key: '(advertiser)', name: adrollLabel('(advertiser)'), value: match[2]! },
        ...(match[3] ? [{ key: '(pixel)', name: adrollLabel('(pixel)'), value: match[3] }] : []),
        ...named(pairs, adrollLabel),
      ],
      ...(hit ? {} : { secondary: 'AdRoll partner exchange / cookie match: not an event' }),
    }),
  ];
}

export const adroll: VendorDecoder<'adroll'> = {
  id: 'adroll',
  label: 'AdRoll',
  kind: 'ads',
  hosts: ['adroll.com'],
  accountLabel: 'advertiser ID',
  labels: ADROLL_LABELS,
  decode,
};
