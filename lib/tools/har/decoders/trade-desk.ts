import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * The Trade Desk. The universal pixel (`TTDUniversalPixelApi.init(advertiser, [pixel ids], …)`) sends
 * `https://insight.adsrvr.org/track/up?adv=<advertiser>&ref=<page>&upid=<universal pixel id>&upv=1.1.0`
 * with the custom fields `td1`…`td10`, `v` (value), `vf` (value currency) and `orderid`; the loader
 * is `js.adsrvr.org/up_loader.<version>.js` (a "tag loaded" entry). The earlier conversion tracking
 * tags (`/track/conv/?adv=…&ct=0:<tag>&fmt=3`, the image `/track/pxl/?…`) are decoded with a note;
 * cookie syncs on `match.adsrvr.org` are secondary.
 * Sources: The Trade Desk's "Universal Pixel" implementation guide (partner portal, quoted in tag
 * templates) and captured requests; Omnibug's Trade Desk provider as a cross-check.
 */
const TRADE_DESK_LABELS: Record<string, string> = {
  adv: 'Advertiser ID',
  upid: 'Universal pixel ID',
  upv: 'Universal pixel version',
  ref: 'Page URL',
  v: 'Value (revenue)',
  vf: 'Value currency',
  orderid: 'Order ID',
  ct: 'Conversion tracking tag (0:<tag>)',
  fmt: 'Response format',
  paapi: 'Protected Audience API',
  ttd_pid: 'Partner ID (cookie sync)',
  ttd_tpi: 'Third-party ID flag (cookie sync)',
};

const ttdLabel = labeller(TRADE_DESK_LABELS, (key) => (/^td\d+$/.test(key) ? `Custom field ${key}` : undefined));

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const host = request.host;
  const path = request.path;
  const loader = /^\/up_loader\.[0-9.]+\.js$/.test(path) && host === 'js.adsrvr.org';
  if (loader) {
    return [
      hitOf(request, {
        vendor: 'trade-desk',
        type: 'tag loaded',
        accountId: null,
        params: [requestKind('Universal pixel loader')],
        container: true,
        body: null,
      }),
    ];
  }
  if (host === 'match.adsrvr.org') {
    return [
      hitOf(request, {
        vendor: 'trade-desk',
        type: 'cookie sync',
        accountId: lastValue(query, 'ttd_pid'),
        params: [requestKind('Cookie sync (match.adsrvr.org)'), ...named(query, ttdLabel)],
        secondary: 'The Trade Desk cookie sync: not an event',
      }),
    ];
  }
  const match = /^\/track\/(up|conv|pxl|evnt)\/?$/.exec(path);
  if (!match) return null;
  const pairs = formPairs(request, query);
  const value = (key: string) => lastValue(pairs, key);
  const universal = match[1] === 'up';
  return [
    hitOf(request, {
      vendor: 'trade-desk',
      type: universal ? `universal pixel${value('upid') ? ` ${value('upid')}` : ''}` : `conversion${value('ct') ? ` ${value('ct')}` : ''}`,
      accountId: value('adv'),
      page: value('ref'),
      params: [
        requestKind(universal ? 'Universal pixel (/track/up)' : `Conversion tracking tag (/track/${match[1]})`),
        ...named(pairs, ttdLabel),
      ],
      ...(universal
        ? {}
        : {
            formatNote: `Older format: the conversion tracking tag (/track/${match[1]}, ct=0:<tag>); current tags use the universal pixel (/track/up)`,
          }),
    }),
  ];
}

export const tradeDesk: VendorDecoder<'trade-desk'> = {
  id: 'trade-desk',
  label: 'The Trade Desk',
  kind: 'ads',
  hosts: ['adsrvr.org'],
  accountLabel: 'advertiser ID (adv)',
  labels: TRADE_DESK_LABELS,
  decode,
  check(hit, warn) {
    if (paramOf(hit, 'v') && !paramOf(hit, 'vf')) {
      warn('purchase_missing_value', 'warning', 'The Trade Desk value (v) without its currency (vf)');
    }
  },
};
