import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { flatten, isObject, tryJson } from './shared.js';

/**
 * Hotjar. The tracking code loads `https://static.hotjar.com/c/hotjar-<site id>.js?sv=<snippet
 * version>` (now also `static.hj.contentsquare.net`): a "tag loaded" entry with the site ID; the
 * modules it loads (`script.hotjar.com/modules.<hash>.js`) are secondary. Data goes to
 * `in.hotjar.com/api/v2/client/sites/<site id>/visit-data` (the page visit), `…/feedback…`,
 * `…/poll…` (surveys), the page snapshot to `content.hotjar.io/?site_id=…` and the recording over a
 * WebSocket (`wss://ws*.hotjar.com/api/v2/client/ws?…&site_id=…`); `vc.hotjar.io/sessions/…` (the
 * session-capture decision) is secondary.
 * Sources: Hotjar's "Installing Hotjar" and "Hotjar's network requirements / domains to allow"
 * help articles.
 */
const HOTJAR_LABELS: Record<string, string> = {
  sv: 'Snippet version',
  site_id: 'Site ID',
  v: 'Protocol version',
  gzip: 'Gzip-compressed',
  '(site)': 'Site ID',
  '(module)': 'Module file',
  url: 'Page URL',
  r_value: 'Recording sample rate',
  user_id: 'Hotjar user ID (_hjSessionUser)',
  window_width: 'Window width',
  window_height: 'Window height',
  referrer: 'Referrer',
};

const hotjarLabel = labeller(HOTJAR_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const path = request.path;
  const host = request.host;
  const script = /^\/c\/hotjar-(\d+)\.js$/.exec(path);
  if (script) {
    return [
      hitOf(request, {
        vendor: 'hotjar',
        type: 'tag loaded',
        accountId: script[1],
        params: [
          requestKind('Hotjar tracking code'),
          { key: '(site)', name: hotjarLabel('(site)'), value: script[1]! },
          ...named(query, hotjarLabel),
        ],
        container: true,
        body: null,
      }),
    ];
  }
  if (/^script\.hotjar\.com$/.test(host) && /\.js$/.test(path)) {
    return [
      hitOf(request, {
        vendor: 'hotjar',
        type: 'module loaded',
        accountId: null,
        params: [requestKind('Hotjar module'), { key: '(module)', name: hotjarLabel('(module)'), value: path.slice(1) }],
        secondary: 'A module the Hotjar tracking code loads',
        container: true,
        body: null,
      }),
    ];
  }
  if (/^vc\.hotjar\.io$/.test(host)) {
    return [
      hitOf(request, {
        vendor: 'hotjar',
        type: 'session capture check',
        accountId: /\/sessions\/(\d+)/.exec(path)?.[1],
        params: [requestKind('Session capture decision'), ...named(query, hotjarLabel)],
        secondary: 'Hotjar asking whether to capture the session: not data',
      }),
    ];
  }
  const api = /^\/api\/v\d\/client\/(?:sites\/(\d+)\/)?([a-z-]+)/.exec(path);
  const snapshot = /^content\.hotjar\.io$/.test(host);
  if (!api && !snapshot) return null;
  const site = api?.[1] ?? lastValue(query, 'site_id');
  const body = tryJson(request.body);
  const pairs: Pairs = [...query];
  if (isObject(body)) flatten(body, '', 'dot', pairs);
  const what = snapshot
    ? 'page snapshot'
    : api![2] === 'ws'
      ? 'recording stream (WebSocket)'
      : api![2] === 'visit-data'
        ? 'visit (page view)'
        : api![2]!.replace(/-/g, ' ');
  return [
    hitOf(request, {
      vendor: 'hotjar',
      type: what,
      accountId: site,
      page: lastValue(pairs, 'url'),
      clientId: lastValue(pairs, 'user_id'),
      params: [requestKind(snapshot ? 'Page content upload' : `Client API: ${api![2]}`), ...named(pairs, hotjarLabel)],
    }),
  ];
}

export const hotjar: VendorDecoder<'hotjar'> = {
  id: 'hotjar',
  label: 'Hotjar',
  kind: 'experience',
  hosts: ['hotjar.com', 'hotjar.io', 'hj.contentsquare.net'],
  accountLabel: 'site ID',
  labels: HOTJAR_LABELS,
  decode,
};
