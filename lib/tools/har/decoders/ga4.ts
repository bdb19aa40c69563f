import { decodeConsent } from '../consent.js';
import { GA4_ITEM_LABELS, ga4Label } from '../labels.js';
import { lastValue, mergePairs, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';
import type { DecodedItem, DecodedParam } from '../types.js';

/**
 * GA4 (gtag.js / GTM) requests: `…/g/collect?v=2&tid=G-…`. Recognised by parameters, not by host:
 * server-side GTM on a first-party domain (and region1.google-analytics.com, analytics.google.com)
 * is decoded too, and so is a server container whose client listens on a custom path (e.g.
 * `https://sst.example.com/data?v=2&tid=G-…` or a renamed `/g/collect`): a query with `v=2`, a
 * `tid=G-…` and the page-load id `_p` or the client id `cid` that gtag.js always sends is a GA4 hit
 * whatever the path.
 *
 * Batching (gtag.js): when several events are queued they are sent in one POST. The query string
 * holds the parameters shared by all of them (v, tid, gtm, _p, cid, ul, sr, sid, sct, seg, dl, dt,
 * consent …) and the body holds one event per line, each line a URL-encoded parameter list (en,
 * _et, ep.*, epn.*, pr1 …) that extends or overrides the shared ones. A single event is usually sent
 * entirely in the query string with an empty body.
 */
export function isGa4(request: CapturedRequest, shared: Pairs): boolean {
  if (lastValue(shared, 'v') !== '2' || !/^G-/i.test(lastValue(shared, 'tid') ?? '')) return false;
  if (request.path.endsWith('/g/collect')) return true;
  return lastValue(shared, '_p') !== undefined || lastValue(shared, 'cid') !== undefined;
}

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

function toDraft(request: CapturedRequest, pairs: Pairs, body: string | null, batch: HitDraft['batch']): HitDraft {
  const params: DecodedParam[] = [];
  const items: DecodedItem[] = [];
  const values = new Map<string, string>();
  for (const [key, value] of pairs) {
    params.push({ key, name: ga4Label(key), value });
    values.set(key, value);
    if (key.charCodeAt(0) === 112 /* p */ && /^pr\d+$/.test(key)) items.push(decodeItem(key, value));
  }
  const value = (key: string) => values.get(key);
  return {
    ...baseOf(request),
    batch,
    vendor: 'ga4',
    type: value('en') ?? '(no event name)',
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
}

export function decodeGa4(request: CapturedRequest, shared: Pairs): HitDraft[] {
  const lines = (request.body ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (lines.length === 0) return [toDraft(request, shared, null, null)];
  // A body line is URL-encoded like the query string (keys and values escaped, `+` is a space).
  const events = lines.map((line) => ({ line, pairs: parsePairs(line) }));
  return events.map(({ line, pairs }, index) =>
    toDraft(request, mergePairs(shared, pairs), line, events.length > 1 ? { index: index + 1, size: events.length } : null),
  );
}
