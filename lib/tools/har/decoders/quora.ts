import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Quora Pixel: `qp('init', '<pixel id>'); qp('track', 'ViewContent')` loads `a.quora.com/qevents.js`
 * (a "tag loaded" entry) and sends `https://q.quora.com/_/ad/<pixel id>/pixel?tag=<event>&…`; the
 * noscript image adds `noscript=1`, the GTM template `i=gtm`.
 * Sources: Quora Ads' "Quora Pixel" help (base code, standard events: ViewContent, Search,
 * AddToCart, AddToWishlist, InitiateCheckout, AddPaymentInfo, Purchase, GenerateLead,
 * CompleteRegistration, Generic) and captured requests.
 */
const QUORA_LABELS: Record<string, string> = {
  tag: 'Event',
  noscript: 'No-JavaScript image tag',
  i: 'Integration (gtm)',
  u: 'Page URL',
  ref: 'Referrer',
  value: 'Value',
  currency: 'Currency',
  order_id: 'Order ID',
  '(pixel)': 'Pixel ID',
};

const quoraLabel = labeller(QUORA_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (request.host === 'a.quora.com' && /^\/qevents\.js$/.test(request.path)) {
    return [
      hitOf(request, {
        vendor: 'quora',
        type: 'tag loaded',
        accountId: null,
        params: [requestKind('Quora Pixel script')],
        container: true,
        body: null,
      }),
    ];
  }
  const match = /^\/_\/ad\/([^/]+)\/pixel\/?$/.exec(request.path);
  if (!match) return null;
  const pairs = formPairs(request, query);
  return [
    hitOf(request, {
      vendor: 'quora',
      type: lastValue(pairs, 'tag') ?? '(no event)',
      accountId: match[1],
      page: lastValue(pairs, 'u'),
      params: [
        requestKind(lastValue(pairs, 'noscript') === '1' ? 'Noscript image' : 'Pixel event'),
        { key: '(pixel)', name: quoraLabel('(pixel)'), value: match[1]! },
        ...named(pairs, quoraLabel),
      ],
    }),
  ];
}

export const quora: VendorDecoder<'quora'> = {
  id: 'quora',
  label: 'Quora Pixel',
  kind: 'ads',
  hosts: ['quora.com'],
  accountLabel: 'pixel ID',
  labels: QUORA_LABELS,
  decode,
  check(hit, warn) {
    if (hit.type === '(no event)') warn('event_unnamed', 'warning', 'Quora pixel request without an event (tag)');
  },
};
