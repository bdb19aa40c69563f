import { decodeConsent } from '../consent.js';
import { UA_LABELS, uaLabel } from '../labels.js';
import { lastValue, mergePairs, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { DecodedItem } from '../types.js';
import { hitOf, invalidHit, labeller, named, type VendorDecoder } from '../vendor.js';

/**
 * Universal Analytics (analytics.js, v=1): `/collect`, `/j/collect`, `/r/collect` with the payload in
 * the query string (GET) or in the body (POST, beacon/XHR transport), and `/batch` with up to 20
 * hits, one complete payload per body line (Measurement Protocol reference). Also:
 * - display features: analytics.js sends a `t=dc` copy of the hit to stats.g.doubleclick.net
 *   (`/r/collect`, `/j/collect`) and then www.google.<tld>/ads/ga-audiences: secondary requests;
 * - ga.js (Classic Google Analytics), the format before analytics.js, still seen on old sites:
 *   `/__utm.gif?utmwv=5.7.2&utmac=UA-…&utmp=/path&utmt=event&utme=5(cat*action*label)`. Decoded with
 *   an "older format" note.
 */
const UA_PATH = /\/(?:[jr]\/)?collect\/?$|\/batch\/?$/i;
const GOOGLE_COLLECTOR = /(^|\.)(google-analytics\.com|stats\.g\.doubleclick\.net)$/;
const GOOGLE_HOST = /(^|\.)google\.[a-z.]+$/;

export function matchesUaPath(path: string): boolean {
  return UA_PATH.test(path) && !/\/g\/collect\/?$/i.test(path);
}

function products(pairs: Pairs): DecodedItem[] {
  const byIndex = new Map<string, DecodedItem>();
  for (const [key, value] of pairs) {
    const match = /^pr(\d+)([a-z]{2})$/.exec(key);
    if (!match) continue;
    const item = byIndex.get(match[1]!) ?? { key: `pr${match[1]}`, params: [] };
    item.params.push({ key: match[2]!, name: uaLabel(key).replace(/^Product \d+ /, ''), value });
    byIndex.set(match[1]!, item);
  }
  return [...byIndex.values()];
}

function toDraft(request: CapturedRequest, pairs: Pairs, body: string | null, batch: HitDraft['batch'], secondary?: string): HitDraft {
  const value = (key: string) => lastValue(pairs, key);
  const page = value('dl') ?? (value('dh') && value('dp') ? `https://${value('dh')}${value('dp')}` : null) ?? request.referer;
  return hitOf(request, {
    batch,
    vendor: 'ua',
    type: value('t') ?? '(no hit type)',
    accountId: value('tid'),
    page,
    referrer: value('dr'),
    title: value('dt'),
    clientId: value('cid'),
    params: named(pairs, uaLabel),
    items: products(pairs),
    consent: decodeConsent(value('gcs'), value('gcd')),
    body,
    ...(secondary ? { secondary } : {}),
  });
}

/** Why a payload sent to Google's UA endpoint is not a UA hit (null when it is one). */
function invalidReason(pairs: Pairs): string | null {
  const v = lastValue(pairs, 'v');
  const tid = lastValue(pairs, 'tid');
  if (v !== '1') return v ? `Protocol version v=${v}: Universal Analytics hits are v=1` : 'No protocol version (v=1): the hit is dropped';
  if (!tid) return 'No tracking ID (tid): the hit cannot be attributed to a property';
  if (!/^UA-|^MO-|^YT-/i.test(tid)) return `Tracking ID "${tid}" is not a Universal Analytics ID (UA-…)`;
  if (!lastValue(pairs, 't')) return 'No hit type (t): Universal Analytics drops the hit';
  return null;
}

function draftOrInvalid(
  request: CapturedRequest,
  pairs: Pairs,
  body: string | null,
  batch: HitDraft['batch'],
  known: boolean,
): HitDraft | null {
  const reason = invalidReason(pairs);
  if (!reason) {
    const dc = lastValue(pairs, 't') === 'dc';
    return toDraft(request, pairs, body, batch, dc ? 'Display features ping (t=dc): repeats the hit for remarketing' : undefined);
  }
  if (!known) return null;
  return invalidHit(request, {
    vendor: 'ua',
    type: lastValue(pairs, 't'),
    accountId: lastValue(pairs, 'tid'),
    clientId: lastValue(pairs, 'cid'),
    params: named(pairs, uaLabel),
    body,
    batch,
    reason,
  });
}

export function decodeUa(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!matchesUaPath(request.path)) return null;
  const known = GOOGLE_COLLECTOR.test(request.host);
  const lines = (request.body ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (/\/batch\/?$/i.test(request.path)) {
    const payloads = lines.map((line) => ({ line, pairs: mergePairs(queryPairs, parsePairs(line)) }));
    const drafts = payloads
      .map(({ line, pairs }, index) =>
        draftOrInvalid(request, pairs, line, payloads.length > 1 ? { index: index + 1, size: payloads.length } : null, known),
      )
      .filter((each): each is HitDraft => each !== null);
    if (drafts.length === 0 && known) {
      return [
        invalidHit(request, {
          vendor: 'ua',
          accountId: null,
          params: named(queryPairs, uaLabel),
          reason: 'A /batch request without any hit in its body',
        }),
      ];
    }
    return drafts.length ? drafts : null;
  }
  const pairs = lines.length ? mergePairs(queryPairs, parsePairs(lines.join('&'))) : queryPairs;
  const draft = draftOrInvalid(request, pairs, request.body, null, known);
  return draft ? [draft] : null;
}

/** ga.js's `utm` parameters (Classic Google Analytics; developers.google.com/analytics/resources/concepts/gaConceptsTrackingOverview). */
const GAJS_LABELS: Record<string, string> = {
  utmwv: 'Tracking code version',
  utmac: 'Account ID',
  utmn: 'Cache buster',
  utmhn: 'Host name',
  utmcs: 'Character set',
  utmsr: 'Screen resolution',
  utmvp: 'Viewport size',
  utmsc: 'Screen colour depth',
  utmul: 'Browser language',
  utmje: 'Java enabled',
  utmfl: 'Flash version',
  utmdt: 'Page title',
  utmhid: 'Hit ID (AdSense linking)',
  utmr: 'Referrer',
  utmp: 'Page path',
  utmt: 'Hit type (empty for a page view)',
  utme: 'Event / custom variable data (X10 format)',
  utmcc: 'Cookie values (__utma, __utmz …)',
  utmu: 'Usage flags',
  utmht: 'Hit time (ms)',
  utmni: 'Non-interaction hit',
  utmtid: 'Transaction ID',
  utmtto: 'Transaction total',
  utmttx: 'Transaction tax',
  utmtsp: 'Transaction shipping',
  utmipn: 'Item name',
  utmipc: 'Item SKU',
  utmipr: 'Item price',
  utmiqt: 'Item quantity',
  utmjid: 'Remarketing join ID',
  utmredir: 'Redirect (remarketing)',
};

const gajsLabel = labeller(GAJS_LABELS);

/** `5(category*action*label)(value)`: the event part of ga.js's utme. */
function utmeEvent(utme: string | undefined): { category: string; action: string } | null {
  const match = /(?:^|\))5\(([^*)]*)\*([^*)]*)/.exec(utme ?? '');
  return match ? { category: match[1]!, action: match[2]! } : null;
}

function decodeGaJs(request: CapturedRequest, pairs: Pairs): HitDraft[] {
  const value = (key: string) => lastValue(pairs, key);
  const t = value('utmt');
  const event = utmeEvent(value('utme'));
  const type = !t ? 'page view' : t === 'event' && event ? `event: ${event.category} / ${event.action}` : t;
  const host = value('utmhn');
  const path = value('utmp');
  // __utma=<domain hash>.<visitor id>.<first visit>.<previous>.<current>.<session count>
  const utma = /__utma=\d+\.(\d+)\.(\d+)/.exec(value('utmcc') ?? '');
  return [
    hitOf(request, {
      vendor: 'ua',
      type,
      accountId: value('utmac'),
      page: host && path ? `https://${host}${path}` : null,
      referrer: value('utmr') === '-' ? null : value('utmr'),
      title: value('utmdt'),
      clientId: utma ? `${utma[1]}.${utma[2]}` : null,
      params: named(pairs, gajsLabel),
      formatNote: `Older format: ga.js (Classic Google Analytics${value('utmwv') ? `, version ${value('utmwv')}` : ''}), the tracking code before analytics.js`,
    }),
  ];
}

/** The libraries on www.google-analytics.com: analytics.js, and the older ga.js and urchin.js. */
const LIBRARY = /^\/(analytics(?:_debug)?|ga|urchin)\.js$/;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const library = /(^|\.)google-analytics\.com$/.test(request.host) ? LIBRARY.exec(request.path) : null;
  if (library) {
    const older = library[1] === 'ga' || library[1] === 'urchin';
    return [
      hitOf(request, {
        vendor: 'ua',
        type: 'tag loaded',
        accountId: null,
        params: [{ key: '(library)', name: 'Library file', value: request.path.slice(1) }],
        container: true,
        body: null,
        ...(older ? { formatNote: `Older format: ${library[1]}.js, the tracking code before analytics.js` } : {}),
      }),
    ];
  }
  if (/\/__utm\.gif$/i.test(request.path)) {
    if (!GOOGLE_COLLECTOR.test(request.host) && !/^UA-/i.test(lastValue(query, 'utmac') ?? '')) return null;
    return decodeGaJs(request, query);
  }
  if (GOOGLE_HOST.test(request.host) && /\/ads\/ga-audiences\/?$/i.test(request.path)) {
    if (!/^UA-/i.test(lastValue(query, 'tid') ?? '')) return null;
    return [toDraft(request, query, request.body, null, 'Remarketing audiences ping (display features): repeats the hit’s ids')];
  }
  return decodeUa(request, query);
}

export const ua: VendorDecoder<'ua'> = {
  id: 'ua',
  label: 'Universal Analytics',
  kind: 'analytics',
  hosts: ['google-analytics.com', 'stats.g.doubleclick.net', 'google.*'],
  anyHost: /\/(?:[jr]\/)?collect(?:[/?#]|$)|\/batch(?:[/?#]|$)|\/__utm\.gif/i,
  labels: { ...UA_LABELS, ...GAJS_LABELS, '(library)': 'Library file' },
  decode,
};
