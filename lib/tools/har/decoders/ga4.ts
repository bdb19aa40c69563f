import { decodeConsent } from '../consent.js';
import { GA4_ITEM_LABELS, GA4_LABELS, ga4Label } from '../labels.js';
import { lastValue, mergePairs, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { DecodedItem, DecodedParam } from '../types.js';
import { invalidHit, named, type VendorDecoder } from '../vendor.js';

/**
 * GA4 (gtag.js / GTM) requests: `…/g/collect?v=2&tid=G-…`. Recognised by parameters, not by host:
 * server-side GTM on a first-party domain (and region1.google-analytics.com, analytics.google.com)
 * is decoded too, and so is a server container whose client listens on a custom path (e.g.
 * `https://sst.example.com/data?v=2&tid=G-…` or a renamed `/g/collect`), and Google tag gateway's
 * first-party path (`https://www.example.com/metrics/g/collect?…`, or its shortened `…/ag/g/c?…`): a
 * query with `v=2`, a `tid=G-…` and one of the keys gtag.js always sends (the page-load id `_p`, the
 * client id `cid`, the build `gtm`, an event `en`) is a GA4 hit whatever the path.
 *
 * Batching (gtag.js): when several events are queued they are sent in one POST. The query string
 * holds the parameters shared by all of them (v, tid, gtm, _p, cid, ul, sr, sid, sct, seg, dl, dt,
 * consent …) and the body holds one event per line, each line a URL-encoded parameter list (en,
 * _et, ep.*, epn.*, pr1 …) that extends or overrides the shared ones. A single event is usually sent
 * entirely in the query string with an empty body.
 *
 * Google signals: with signals on, gtag.js repeats the hit's ids (tid, cid, gtm, consent, `aip=1`)
 * to stats.g.doubleclick.net/g/collect and then to www.google.<tld>/ads/ga-audiences (remarketing
 * audiences). Neither measures anything new: they are secondary requests of the hit they follow.
 */
export function isGa4(request: CapturedRequest, shared: Pairs): boolean {
  if (lastValue(shared, 'v') !== '2' || !/^G-/i.test(lastValue(shared, 'tid') ?? '')) return false;
  if (endsWithCollect(request.path)) return true;
  // gtag.js always sends its build (gtm), the page-load id (_p), the client id (cid) or an event.
  return (
    lastValue(shared, '_p') !== undefined ||
    lastValue(shared, 'cid') !== undefined ||
    lastValue(shared, 'gtm') !== undefined ||
    lastValue(shared, 'en') !== undefined
  );
}

/** `/g/collect`, and Google tag gateway's shortened `/g/c` (e.g. `https://www.example.com/metrics/ag/g/c?…`). */
const endsWithCollect = (path: string) => /\/g\/c(?:ollect)?\/?$/i.test(path);

/** Google's own GA4 collectors: a request there to /g/collect is always shown. */
const GA4_HOST = /(^|\.)(google-analytics\.com|analytics\.google\.com)$/;
const SIGNALS_HOST = 'stats.g.doubleclick.net';
const GOOGLE_HOST = /(^|\.)google\.[a-z.]+$/;

export function decodeItem(key: string, value: string): DecodedItem {
  const params: DecodedParam[] = [];
  const customKeys = new Map<string, string>();
  const customValues = new Map<string, string>();
  for (const chunk of value.split('~')) {
    if (chunk.length < 2) continue;
    const sub = chunk.slice(0, 2);
    const subValue = chunk.slice(2);
    const custom = /^([kv])(\d)$/.exec(sub);
    if (custom) {
      (custom[1] === 'k' ? customKeys : customValues).set(custom[2]!, subValue);
      continue;
    }
    params.push({ key: sub, name: GA4_ITEM_LABELS[sub] ?? sub, value: subValue });
  }
  for (const [index, name] of customKeys) {
    params.push({ key: `k${index}/v${index}`, name: `${name} (item param)`, value: customValues.get(index) ?? '' });
  }
  return { key, params };
}

function toDraft(request: CapturedRequest, pairs: Pairs, body: string | null, batch: HitDraft['batch'], secondary?: string): HitDraft {
  const params: DecodedParam[] = [];
  const items: DecodedItem[] = [];
  const values = new Map<string, string>();
  for (const [key, value] of pairs) {
    params.push({ key, name: ga4Label(key), value });
    values.set(key, value);
    if (key.charCodeAt(0) === 112 /* p */ && /^pr\d+$/.test(key)) items.push(decodeItem(key, value));
  }
  const value = (key: string) => values.get(key);
  const draft: HitDraft = {
    entryIndex: request.entryIndex,
    method: request.method,
    url: request.url,
    host: request.host,
    path: request.path,
    status: request.status,
    time: request.time,
    timeMs: request.timeMs,
    batch,
    vendor: 'ga4',
    type: value('en') ?? (secondary ? 'signals ping' : '(no event name)'),
    accountId: value('tid') ?? null,
    page: value('dl') ?? request.referer,
    referrer: value('dr') ?? null,
    title: value('dt') ?? null,
    clientId: value('cid') ?? null,
    params,
    items,
    consent: decodeConsent(value('gcs'), value('gcd')),
    body,
  };
  if (secondary) draft.secondary = secondary;
  return draft;
}

function bodyLines(request: CapturedRequest): string[] {
  if (!request.body) return [];
  return request.body
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export function decodeGa4(request: CapturedRequest, shared: Pairs): HitDraft[] {
  const lines = bodyLines(request);
  if (lines.length === 0) return [toDraft(request, shared, null, null)];
  // A body line is URL-encoded like the query string (keys and values escaped, `+` is a space).
  const events = lines.map((line) => ({ line, pairs: parsePairs(line) }));
  return events.map(({ line, pairs }, index) =>
    toDraft(request, mergePairs(shared, pairs), line, events.length > 1 ? { index: index + 1, size: events.length } : null),
  );
}

/** Why a request to Google's /g/collect is not a GA4 hit (null when it is one). */
function invalidReason(pairs: Pairs): string | null {
  const v = lastValue(pairs, 'v');
  const tid = lastValue(pairs, 'tid');
  if (v === '1') return "Protocol version v=1 (Universal Analytics' payload) sent to GA4's /g/collect endpoint: GA4 ignores it";
  if (!tid) return 'No measurement ID (tid): GA4 cannot attribute the hit to a property';
  if (!/^G-/i.test(tid)) return `Measurement ID "${tid}" is not a GA4 ID (G-…): GA4 ignores the hit`;
  if (v !== '2') return v ? `Protocol version v=${v}: GA4 web hits are v=2` : 'No protocol version (v=2): GA4 ignores the hit';
  return null;
}

function decode(request: CapturedRequest, shared: Pairs): HitDraft[] | null {
  const host = request.host;
  if (GOOGLE_HOST.test(host) && /\/ads\/ga-audiences\/?$/i.test(request.path)) {
    const tid = lastValue(shared, 'tid') ?? '';
    if (/^UA-/i.test(tid)) return null;
    return [toDraft(request, shared, request.body, null, 'Google signals: remarketing audiences ping (repeats the GA4 hit’s ids)')];
  }
  if (host === SIGNALS_HOST) {
    if (!endsWithCollect(request.path)) return null;
    return [toDraft(request, shared, request.body, null, 'Google signals ping (repeats the GA4 hit’s ids to stats.g.doubleclick.net)')];
  }
  if (isGa4(request, shared)) return decodeGa4(request, shared);
  if (!GA4_HOST.test(host) || !endsWithCollect(request.path)) return null;
  // Google's own endpoint: never hidden. The payload may be in the body only (lines), or broken.
  const lines = bodyLines(request);
  const payload = lines.length ? mergePairs(shared, parsePairs(lines[0]!)) : shared;
  const reason = invalidReason(payload);
  // Valid once the body's first line is read: each line is merged with the query as usual.
  if (!reason) return decodeGa4(request, shared);
  return [
    invalidHit(request, {
      vendor: 'ga4',
      type: lastValue(payload, 'en'),
      accountId: lastValue(payload, 'tid'),
      clientId: lastValue(payload, 'cid'),
      page: lastValue(payload, 'dl'),
      params: named(payload, ga4Label),
      reason,
    }),
  ];
}

export const ga4: VendorDecoder<'ga4'> = {
  id: 'ga4',
  label: 'Google Analytics 4',
  kind: 'analytics',
  hosts: ['google-analytics.com', 'analytics.google.com', SIGNALS_HOST, 'google.*'],
  anyHost: /\/g\/collect|[?&]tid=G-/i,
  labels: GA4_LABELS,
  decode,
};
