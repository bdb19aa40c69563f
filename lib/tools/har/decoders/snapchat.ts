import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { field, flatten, formPairs, isObject, tryJson } from './shared.js';

/**
 * Snap pixel: POST tr.snapchat.com/p (form body pid=…&ev=PAGE_VIEW…; tr-shadow.snapchat.com,
 * tr6.snapchat.com and /gateway/p too), or — from the current pixel — a JSON body
 * `{"ctx":{…},"req":[{"t":{"pid":…,"ev":"PAGE_VIEW",…}},{"i":{"pids":[…]}}]}`: each `t` (track) entry is
 * a hit, `i` (init) and `log` entries only are a secondary request. tr.snapchat.com/cm/i?pid=… is
 * the pixel's cookie matching: a secondary request.
 */
export const SNAPCHAT_LABELS: Record<string, string> = {
  pid: 'Pixel ID',
  ev: 'Event',
  pl: 'Page URL',
  ts: 'Timestamp (ms)',
  rf: 'Referrer',
  v: 'Pixel version',
  if: 'Sent from an iframe',
  bt: 'Build',
  u_hem: 'E-mail (hashed)',
  u_hpn: 'Phone number (hashed)',
  u_c1: 'Cookie ID (_scid)',
  u_sclid: 'Click ID (ScCid)',
  e_desc: 'Description',
  e_sm: 'Sign-up method',
  e_su: 'Success',
  e_ni: 'Number of items',
  e_iids: 'Item IDs',
  e_ic: 'Item category',
  e_pia: 'Payment info available',
  e_cur: 'Currency',
  e_pr: 'Price',
  e_tid: 'Transaction ID',
  e_ss: 'Search keyword',
  m_sl: 'Script load time (ms)',
  m_rd: 'Render time (ms)',
  m_pi: 'Page interactive (ms)',
  m_pl: 'Page load (ms)',
  m_ic: 'Initial connection (ms)',
};

const snapchatLabel = labeller(SNAPCHAT_LABELS);

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/^tr(?:\d+|-shadow)?\.snapchat\.com$/.test(request.host)) return null;
  const matching = /^\/cm\/[a-z]+\/?$/.test(request.path);
  if (!matching && !/^\/(?:gateway\/)?p\/?$/.test(request.path)) return null;
  const json = tryJson(request.body);
  if (isObject(json) && Array.isArray(json.req)) return decodeJson(request, queryPairs, json);
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  return [
    hitOf(request, {
      vendor: 'snapchat',
      type: matching ? 'cookie matching' : (value('ev') ?? ''),
      accountId: value('pid'),
      page: value('pl'),
      referrer: value('rf'),
      clientId: value('u_c1'),
      params: named(pairs, snapchatLabel),
      ...(matching ? { secondary: 'Snap pixel cookie matching (tr.snapchat.com/cm/): not an event' } : {}),
    }),
  ];
}

/** The current pixel's JSON body: `req` entries `t` (track), `i` (init), `log`. */
function decodeJson(request: CapturedRequest, queryPairs: Pairs, json: Record<string, unknown>): HitDraft[] {
  const context = flatten(json.ctx ?? {}, 'ctx', 'dot', []);
  const tracks = (json.req as unknown[])
    .filter(isObject)
    .filter((entry) => isObject(entry.t))
    .map((entry) => entry.t as Record<string, unknown>);
  if (tracks.length === 0) {
    const first = (json.req as unknown[]).find(isObject) ?? {};
    const init = isObject(first.i) ? first.i : null;
    const pids = init && Array.isArray(init.pids) ? init.pids.map(field).filter(Boolean) : [];
    return [
      hitOf(request, {
        vendor: 'snapchat',
        type: init ? 'init' : 'log' in first ? 'log' : 'request',
        accountId: pids[0],
        params: named([...queryPairs, ...flatten(json.req, 'req', 'dot', []), ...context], snapchatLabel),
        secondary: 'Snap pixel init / log request: not an event',
      }),
    ];
  }
  return tracks.map((track, index) => {
    const pairs = [...queryPairs, ...flatten(track, '', 'dot', []), ...context];
    const value = (key: string) => lastValue(pairs, key);
    return hitOf(request, {
      vendor: 'snapchat',
      type: value('ev') ?? '',
      accountId: value('pid'),
      page: value('pl') ?? value('ctx.url'),
      referrer: value('rf'),
      clientId: value('u_c1'),
      params: named(pairs, snapchatLabel),
      batch: tracks.length > 1 ? { index: index + 1, size: tracks.length } : null,
    });
  });
}

export const snapchat: VendorDecoder<'snapchat'> = {
  id: 'snapchat',
  label: 'Snap pixel',
  kind: 'ads',
  hosts: ['snapchat.com'],
  accountLabel: 'pixel ID (pid)',
  labels: SNAPCHAT_LABELS,
  decode,
};
