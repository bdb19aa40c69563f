import { lastValue, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Criteo OneTag: `https://sslwidget.criteo.com/event?a=<account>&v=<tag version>&p0=e%3Dexd%26site_type%3Dd
 * &p1=e%3Dvh&…` (also widget.criteo.com, and the GET/POST forms of `gum`-less OneTag). Every `pN`
 * parameter is one OneTag call, itself URL-encoded (`e=<event>&k=v…`): the page's events (viewHome,
 * viewList, viewItem, viewBasket, trackTransaction, viewSearch, viewPage …) are one hit each; the
 * setters sent with them (setSiteType `exd`, setEmail `ce`, setZipcode `sz`, the deduplication flag
 * `dis`) are shown as parameters of each hit.
 * Sources: Criteo's OneTag implementation guide (events, setSiteType, setEmail, trackTransaction),
 * and captured OneTag requests (Omnibug's Criteo OneTag provider as a cross-check).
 */
const CRITEO_LABELS: Record<string, string> = {
  a: 'Account ID',
  v: 'OneTag version',
  tld: 'Top-level domain',
  fu: 'Page URL',
  pu: 'Previous page URL',
  ref: 'Referrer',
  otl: 'OneTag loader',
  dy: 'Dynamic flag',
  adce: 'Ad blocker check',
  bundle: 'Cookie bundle',
  ceid: 'Client event ID',
  cw: 'Cookie write allowed',
  rt: 'Response type',
  sc_r: 'Screen resolution',
  sc_d: 'Screen colour depth',
  'e.site_type': 'Site type (d desktop, m mobile, t tablet)',
  'e.p': 'Product ID(s)',
  'e.id': 'Transaction ID',
  'e.kw': 'Search keywords',
  'e.m': 'E-mail (hashed)',
  'e.zip': 'Zip code',
  'e.c': 'Deduplication channel',
  'e.cur': 'Currency',
  'e.nc': 'New customer',
  'e.ui_checkin': 'Check-in date',
  'e.ui_checkout': 'Check-out date',
};

const criteoLabel = labeller(CRITEO_LABELS, (key) => (/^p\d+$/.test(key) ? `OneTag call ${Number(key.slice(1)) + 1}` : undefined));

const EVENTS: Record<string, string> = {
  vh: 'viewHome',
  vl: 'viewList',
  vp: 'viewItem',
  vb: 'viewBasket',
  vc: 'trackTransaction',
  vs: 'viewSearch',
  vpg: 'viewPage',
  vst: 'viewStore',
  exd: 'setSiteType',
  ce: 'setEmail',
  sz: 'setZipcode',
  dis: 'setDeduplication',
  sa: 'setAccount',
};
const SETTERS = new Set(['exd', 'ce', 'sz', 'dis', 'sa', 'ac']);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (!/^\/(?:m\/)?event\/?$/.test(request.path)) return null;
  const pairs = formPairs(request, query);
  const calls = pairs.filter(([key]) => /^p\d+$/.test(key)).map(([key, value]) => ({ key, pairs: parsePairs(value) }));
  const kind = requestKind('OneTag event request');
  const shared = pairs.filter(([key]) => !/^p\d+$/.test(key));
  const setterParams: Pairs = [];
  for (const call of calls) {
    const code = lastValue(call.pairs, 'e') ?? '';
    if (SETTERS.has(code)) for (const [key, value] of call.pairs) if (key !== 'e') setterParams.push([`e.${key}`, value]);
  }
  const views = calls.filter((call) => !SETTERS.has(lastValue(call.pairs, 'e') ?? ''));
  const accountId = lastValue(pairs, 'a');
  const base = [kind, ...named(shared, criteoLabel), ...named(setterParams, criteoLabel)];
  if (calls.length === 0) {
    return [
      invalidHit(request, { vendor: 'criteo', accountId, params: base, reason: 'No OneTag call (p0, p1 …): the request carries no event' }),
    ];
  }
  if (views.length === 0) {
    return [hitOf(request, { vendor: 'criteo', type: 'settings only', accountId, page: lastValue(pairs, 'fu'), params: base })];
  }
  return views.map((view, index) => {
    const code = lastValue(view.pairs, 'e') ?? '';
    return hitOf(request, {
      vendor: 'criteo',
      type: EVENTS[code] ?? (code || '(no event)'),
      accountId,
      page: lastValue(pairs, 'fu'),
      referrer: lastValue(pairs, 'ref'),
      params: [
        ...base,
        { key: view.key, name: criteoLabel(view.key), value: code },
        ...named(
          view.pairs.filter(([key]) => key !== 'e').map(([key, value]) => [`e.${key}`, value] as [string, string]),
          criteoLabel,
        ),
      ],
      batch: views.length > 1 ? { index: index + 1, size: views.length } : null,
    });
  });
}

export const criteo: VendorDecoder<'criteo'> = {
  id: 'criteo',
  label: 'Criteo OneTag',
  kind: 'ads',
  hosts: ['criteo.com', 'criteo.net'],
  accountLabel: 'account ID (a)',
  labels: CRITEO_LABELS,
  decode,
  check(hit, warn) {
    if (hit.type === 'trackTransaction' && !paramOf(hit, 'e.id')) {
      warn('purchase_missing_value', 'warning', 'Criteo trackTransaction without a transaction ID (id): sales cannot be deduplicated');
    }
    if (/^view(Item|List|Basket)$|^trackTransaction$/.test(hit.type) && !paramOf(hit, 'e.p')) {
      warn('vendor_rule', 'warning', `Criteo ${hit.type} without products (p): product retargeting cannot use it`);
    }
  },
};
