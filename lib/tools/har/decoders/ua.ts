import { decodeConsent } from '../consent.js';
import { uaLabel } from '../labels.js';
import { lastValue, mergePairs, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';
import type { DecodedItem } from '../types.js';

/**
 * Universal Analytics (analytics.js, v=1): `/collect`, `/j/collect`, `/r/collect` with the payload in
 * the query string (GET) or in the body (POST, beacon/XHR transport), and `/batch` with up to 20
 * hits, one complete payload per body line.
 */
const UA_PATH = /\/(?:[jr]\/)?collect$|\/batch$/;

function isUaPayload(pairs: Pairs): boolean {
  return lastValue(pairs, 'v') === '1' && /^UA-|^MO-|^YT-/i.test(lastValue(pairs, 'tid') ?? '');
}

export function matchesUaPath(path: string): boolean {
  return UA_PATH.test(path) && !path.endsWith('/g/collect');
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

function toDraft(request: CapturedRequest, pairs: Pairs, body: string | null, batch: HitDraft['batch']): HitDraft {
  const value = (key: string) => lastValue(pairs, key);
  const page = value('dl') ?? (value('dh') && value('dp') ? `https://${value('dh')}${value('dp')}` : null) ?? request.referer;
  return {
    ...baseOf(request),
    batch,
    vendor: 'ua',
    type: value('t') ?? '(no hit type)',
    accountId: value('tid') ?? null,
    page,
    referrer: value('dr') ?? null,
    title: value('dt') ?? null,
    clientId: value('cid') ?? null,
    params: pairs.map(([key, val]) => ({ key, name: uaLabel(key), value: val })),
    items: products(pairs),
    consent: decodeConsent(value('gcs'), value('gcd')),
    body,
  };
}

export function decodeUa(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!matchesUaPath(request.path)) return null;
  const lines = (request.body ?? '')
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  if (request.path.endsWith('/batch')) {
    const hits = lines.map((line) => ({ line, pairs: mergePairs(queryPairs, parsePairs(line)) })).filter((each) => isUaPayload(each.pairs));
    if (hits.length === 0) return null;
    return hits.map(({ line, pairs }, index) =>
      toDraft(request, pairs, line, hits.length > 1 ? { index: index + 1, size: hits.length } : null),
    );
  }
  const pairs = lines.length ? mergePairs(queryPairs, parsePairs(lines.join('&'))) : queryPairs;
  if (!isUaPayload(pairs)) return null;
  return [toDraft(request, pairs, request.body, null)];
}
