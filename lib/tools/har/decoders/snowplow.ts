import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, isObject, maybeBase64, tryJson } from './shared.js';

/**
 * Snowplow (the JavaScript tracker, and trackers speaking its protocol): events to the customer's
 * collector, on any host — `GET <collector>/i?e=pv&url=…&aid=…` (also Snowplow's `/com.snowplowanalytics.snowplow/i`)
 * or `POST <collector>/com.snowplowanalytics.snowplow/tp2` with a self-describing JSON body
 * `{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":[{…},{…}]}` —
 * one hit per event. Custom contexts (`cx`) and self-describing events (`ue_px`) are base64 JSON,
 * decoded into `co.*` / `ue_pr.*` parameters.
 * Source: Snowplow's "Snowplow Tracker Protocol" reference (docs.snowplow.io, event types pv, pp,
 * ue, se, tr, ti, and every parameter below).
 */
const SNOWPLOW_LABELS: Record<string, string> = {
  e: 'Event type (pv page view, pp page ping, ue self-describing, se structured, tr/ti transaction)',
  aid: 'Application ID',
  p: 'Platform',
  tv: 'Tracker version',
  tna: 'Tracker namespace',
  eid: 'Event ID',
  dtm: 'Device timestamp',
  stm: 'Sent timestamp',
  ttm: 'True timestamp',
  tz: 'Time zone',
  duid: 'Domain user ID',
  nuid: 'Network user ID',
  uid: 'User ID',
  vid: 'Domain session index',
  sid: 'Domain session ID',
  url: 'Page URL',
  page: 'Page title',
  refr: 'Referrer',
  lang: 'Language',
  cs: 'Character set',
  res: 'Screen resolution',
  vp: 'Viewport size',
  ds: 'Document size',
  cd: 'Colour depth',
  cookie: 'Cookies enabled',
  pp_mix: 'Page ping: minimum x offset',
  pp_max: 'Page ping: maximum x offset',
  pp_miy: 'Page ping: minimum y offset',
  pp_may: 'Page ping: maximum y offset',
  se_ca: 'Structured event category',
  se_ac: 'Structured event action',
  se_la: 'Structured event label',
  se_pr: 'Structured event property',
  se_va: 'Structured event value',
  ue_pr: 'Self-describing event (JSON)',
  ue_px: 'Self-describing event (base64)',
  co: 'Contexts (JSON)',
  cx: 'Contexts (base64)',
  tr_id: 'Transaction order ID',
  tr_tt: 'Transaction total',
  tr_tx: 'Transaction tax',
  tr_sh: 'Transaction shipping',
  tr_cu: 'Transaction currency',
  ti_id: 'Item order ID',
  ti_sk: 'Item SKU',
  ti_nm: 'Item name',
  ti_pr: 'Item price',
  ti_qu: 'Item quantity',
};

const snowplowLabel = labeller(SNOWPLOW_LABELS, (key) => {
  if (key.startsWith('ue_pr.')) return `${key.slice(6)} (self-describing event)`;
  if (key.startsWith('co.')) return `${key.slice(3)} (context)`;
  return undefined;
});

const EVENT_TYPES: Record<string, string> = {
  pv: 'page view',
  pp: 'page ping',
  se: 'structured event',
  tr: 'transaction',
  ti: 'transaction item',
  ue: 'self-describing event',
};

/** An event's parameters, its base64 `cx` / `ue_px` decoded into `co` / `ue_pr` leaves. */
function eventPairs(event: Record<string, unknown>): Pairs {
  const pairs: Pairs = [];
  for (const [key, raw] of Object.entries(event)) {
    const value = field(raw) ?? '';
    pairs.push([key, value]);
    if (key === 'cx' || key === 'ue_px' || key === 'co' || key === 'ue_pr') {
      const json = tryJson(key === 'cx' || key === 'ue_px' ? maybeBase64(value) : value);
      const data = isObject(json) ? json.data : undefined;
      const prefix = key === 'cx' || key === 'co' ? 'co' : 'ue_pr';
      const list = Array.isArray(data) ? data : data !== undefined ? [data] : [];
      for (const entry of list) {
        if (!isObject(entry)) continue;
        const schema = (field(entry.schema) ?? '').replace(/^iglu:/, '').split('/jsonschema/')[0]!;
        for (const [name, inner] of Object.entries(isObject(entry.data) ? entry.data : {}))
          pairs.push([`${prefix}.${schema}.${name}`, field(inner) ?? JSON.stringify(inner)]);
      }
    }
  }
  return pairs;
}

function typeOf(pairs: Pairs): string {
  const e = lastValue(pairs, 'e') ?? '';
  if (e === 'se') return `${lastValue(pairs, 'se_ca') ?? '?'} / ${lastValue(pairs, 'se_ac') ?? '?'}`;
  if (e === 'ue') {
    const schema = pairs.find(([key]) => key.startsWith('ue_pr.'))?.[0].split('.')[1];
    return schema ? `self-describing: ${schema.split('/').pop()}` : 'self-describing event';
  }
  return EVENT_TYPES[e] ?? (e || '(no event type)');
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const post = /\/com\.snowplowanalytics\.snowplow\/tp2\/?$/.test(request.path);
  const get = /^(?:\/com\.snowplowanalytics\.snowplow)?\/i\/?$/.test(request.path);
  if (!post && !get) return null;
  // A bare `/i` path is only Snowplow's with the protocol's own parameters.
  if (
    get &&
    !/\/com\.snowplowanalytics/.test(request.path) &&
    !(lastValue(query, 'e') && (lastValue(query, 'tv') || lastValue(query, 'tna')))
  )
    return null;
  const kind = requestKind(post ? 'Collector POST (tp2)' : 'Collector GET (/i)');
  let events: Pairs[];
  if (post) {
    const body = tryJson(request.body);
    const data = isObject(body) && Array.isArray(body.data) ? body.data.filter(isObject) : [];
    if (data.length === 0) {
      return [
        invalidHit(request, {
          vendor: 'snowplow',
          accountId: null,
          params: [kind, ...named(query, snowplowLabel)],
          reason: 'No events: the body is not the tracker protocol’s payload_data JSON',
        }),
      ];
    }
    events = data.map(eventPairs);
  } else {
    events = [eventPairs(Object.fromEntries(query))];
  }
  return events.map((pairs, index) => {
    const value = (key: string) => lastValue(pairs, key);
    const fields = {
      vendor: 'snowplow' as const,
      accountId: value('aid'),
      page: value('url'),
      title: value('page'),
      referrer: value('refr'),
      clientId: value('duid') ?? value('nuid'),
      params: [kind, ...named(pairs, snowplowLabel)],
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
    };
    if (!value('e')) return invalidHit(request, { ...fields, reason: 'An event without its type (e): the collector cannot validate it' });
    return hitOf(request, { ...fields, type: typeOf(pairs) });
  });
}

export const snowplow: VendorDecoder<'snowplow'> = {
  id: 'snowplow',
  label: 'Snowplow',
  kind: 'analytics',
  anyHost: /\/com\.snowplowanalytics\.snowplow\/|\/i\?(?:[^#]*&)?e=(?:pv|pp|se|ue|tr|ti)&/i,
  accountLabel: 'application ID (aid)',
  labels: SNOWPLOW_LABELS,
  decode,
};
