import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Taboola Pixel: `_tfa.push({notify: 'event', name: 'page_view', id: <account>})` loads
 * `cdn.taboola.com/libtrc/unip/<account>/tfa.js` (a "tag loaded" entry) and sends
 * `https://trc.taboola.com/<account>/log/3/unip?en=<event>&tim=…&ref=…&item-url=…` (conversions add
 * `revenue`, `currency`, `orderid`, `quantity`).
 * Sources: Taboola's "Taboola Pixel" help (base code, standard events page_view, lead, purchase …,
 * revenue and currency) and captured requests.
 */
const TABOOLA_LABELS: Record<string, string> = {
  en: 'Event name',
  tim: 'Time',
  ref: 'Referrer',
  'item-url': 'Page URL',
  'item-id': 'Item ID',
  cv: 'Pixel version',
  tos: 'Time on site',
  ssd: 'Session start',
  scd: 'Session count',
  vi: 'Visitor ID',
  ui: 'User ID',
  ri: 'Request ID',
  sd: 'Session data',
  revenue: 'Revenue',
  currency: 'Currency',
  orderid: 'Order ID',
  quantity: 'Quantity',
  '(account)': 'Account ID',
};

const taboolaLabel = labeller(TABOOLA_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const script = /^\/libtrc\/unip\/(\d+)\/tfa\.js$/.exec(request.path);
  if (script) {
    return [
      hitOf(request, {
        vendor: 'taboola',
        type: 'tag loaded',
        accountId: script[1],
        params: [requestKind('Taboola Pixel script')],
        container: true,
        body: null,
      }),
    ];
  }
  const match = /^\/(\d+)\/log\/\d+\/unip\/?$/.exec(request.path);
  if (!match || request.host !== 'trc.taboola.com') return null;
  const pairs = formPairs(request, query);
  return [
    hitOf(request, {
      vendor: 'taboola',
      type: lastValue(pairs, 'en') ?? '(no event)',
      accountId: match[1],
      page: lastValue(pairs, 'item-url'),
      referrer: lastValue(pairs, 'ref'),
      clientId: lastValue(pairs, 'vi') ?? lastValue(pairs, 'ui'),
      params: [
        requestKind('Pixel event (unip)'),
        { key: '(account)', name: taboolaLabel('(account)'), value: match[1]! },
        ...named(pairs, taboolaLabel),
      ],
    }),
  ];
}

export const taboola: VendorDecoder<'taboola'> = {
  id: 'taboola',
  label: 'Taboola Pixel',
  kind: 'ads',
  hosts: ['trc.taboola.com', 'cdn.taboola.com'],
  accountLabel: 'account ID',
  labels: TABOOLA_LABELS,
  decode,
  check(hit, warn) {
    if (paramOf(hit, 'revenue') && !paramOf(hit, 'currency')) {
      warn('purchase_missing_value', 'warning', 'Taboola revenue without currency: the account currency is assumed');
    }
  },
};
