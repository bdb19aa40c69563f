import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Yandex Metrica: the tag (`mc.yandex.ru/metrika/tag.js`, a "tag loaded" entry) sends hits to
 * `https://mc.yandex.ru/watch/<counter id>?page-url=…&page-ref=…&browser-info=…` (also mc.yandex.com,
 * `/watch/<counter>/1`); `browser-info` is a `:`-separated list of `key:value` pairs (`ar:1` a hit,
 * `pv:1` a page view, `t:<title>` …), shown as `bi.*` parameters. Session replay uploads
 * (`/webvisor/<counter>`) are secondary.
 * Sources: Yandex Metrica's "Tag installation" and "Data sent to Metrica" documentation, and captured
 * requests.
 */
const YANDEX_METRICA_LABELS: Record<string, string> = {
  'page-url': 'Page URL',
  'page-ref': 'Referrer',
  'browser-info': 'Browser info',
  charset: 'Character set',
  'site-info': 'Visit parameters (JSON)',
  ut: 'Not bounce flag',
  wmode: 'Response mode',
  'bi.t': 'Page title',
  'bi.pv': 'Page view',
  'bi.ar': 'Hit',
  'bi.ln': 'Language',
  'bi.rn': 'Random number',
  'bi.hid': 'Hit ID',
  'bi.ds': 'Document size',
  'bi.z': 'Time zone offset',
  'bi.i': 'Time',
  'bi.et': 'Event time',
  'bi.en': 'Encoding',
  'bi.v': 'Tag version',
  'bi.cn': 'Counter number on the page',
  'bi.vf': 'Visitor fingerprint',
  'bi.u': 'User ID (_ym_uid)',
  'bi.w': 'Window size',
  'bi.s': 'Screen size',
  'bi.fu': 'Fragment URL flag',
  '(counter)': 'Counter ID',
};

const yandexLabel = labeller(YANDEX_METRICA_LABELS, (key) => (key.startsWith('bi.') ? `Browser info: ${key.slice(3)}` : undefined));

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (/^\/metrika\/(?:tag|watch)\.js$/.test(request.path)) {
    return [
      hitOf(request, {
        vendor: 'yandex-metrica',
        type: 'tag loaded',
        accountId: null,
        params: [requestKind('Metrica tag')],
        container: true,
        body: null,
      }),
    ];
  }
  const match = /^\/(watch|webvisor)\/(\d+)(?:\/\d+)?\/?$/.exec(request.path);
  if (!match) return null;
  const pairs = formPairs(request, query);
  // browser-info is key:value:key:value…: the split gives keys and values in turn.
  const browser: Pairs = [];
  const flat = (lastValue(pairs, 'browser-info') ?? '').split(':');
  for (let i = 0; i + 1 < flat.length; i += 2) browser.push([`bi.${flat[i]}`, flat[i + 1]!]);
  const value = (key: string) => lastValue(browser, key);
  const replay = match[1] === 'webvisor';
  return [
    hitOf(request, {
      vendor: 'yandex-metrica',
      type: replay ? 'session replay data' : value('bi.pv') === '1' ? 'page view' : value('bi.ar') === '1' ? 'hit' : 'event',
      accountId: match[2],
      page: lastValue(pairs, 'page-url'),
      referrer: lastValue(pairs, 'page-ref'),
      title: value('bi.t'),
      clientId: value('bi.u'),
      params: [
        requestKind(replay ? 'Webvisor upload' : 'Hit (/watch)'),
        { key: '(counter)', name: yandexLabel('(counter)'), value: match[2]! },
        ...named(pairs, yandexLabel),
        ...named(browser, yandexLabel),
      ],
      ...(replay ? { secondary: 'Webvisor (session replay) data: not a hit' } : {}),
    }),
  ];
}

export const yandexMetrica: VendorDecoder<'yandex-metrica'> = {
  id: 'yandex-metrica',
  label: 'Yandex Metrica',
  kind: 'analytics',
  hosts: ['mc.yandex.ru', 'mc.yandex.com', 'mc.yandex.com.tr', 'mc.yandex.by', 'mc.yandex.kz'],
  accountLabel: 'counter ID',
  labels: YANDEX_METRICA_LABELS,
  decode,
};
