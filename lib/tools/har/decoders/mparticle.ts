import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * mParticle (the web SDK): events are uploaded in batches, POST
 * `https://jssdks.mparticle.com/v3/JS/<api key>/events` with a JSON body — `{"mpid":…,"environment":…,
 * "events":[{"event_type":"custom_event","data":{"event_name":…,"custom_event_type":…,
 * "custom_attributes":{…}}},{"event_type":"screen_view","data":{"screen_name":…}}…],"user_identities":…,
 * "consent_state":…}` — one hit per event. SDK versions before the v3 batch upload posted one message
 * at a time to `/v2/JS/<api key>/Events` in a short-key format (`dt` message type, `n` name, `et` event
 * type, `attrs`): decoded with an "older format" note. Identity calls (`identity.mparticle.com/v1/
 * identify|login|logout|modify`) are secondary.
 * Sources: mParticle's "Events API" (JSON reference: batch, event types, custom event types) and the
 * open-source mParticle web SDK (message types of the v2 upload).
 */
const MPARTICLE_LABELS: Record<string, string> = {
  mpid: 'mParticle ID (MPID)',
  environment: 'Environment',
  source_request_id: 'Source request ID',
  timestamp_unixtime_ms: 'Batch time (ms)',
  sdk_version: 'SDK version',
  event_type: 'Event type',
  'data.event_name': 'Event name',
  'data.custom_event_type': 'Custom event type',
  'data.screen_name': 'Screen / page name',
  'data.session_uuid': 'Session ID',
  'data.session_start_unixtime_ms': 'Session start (ms)',
  'data.timestamp_unixtime_ms': 'Event time (ms)',
  'data.event_id': 'Event ID',
  'data.source_message_id': 'Message ID',
  'data.location.latitude': 'Latitude',
  'data.location.longitude': 'Longitude',
  'data.product_action.action': 'Product action',
  'data.product_action.transaction_id': 'Transaction ID',
  'data.product_action.total_amount': 'Total amount',
  'data.product_action.tax_amount': 'Tax',
  'data.product_action.shipping_amount': 'Shipping',
  'data.currency_code': 'Currency',
  'device_info.platform': 'Platform',
  'application_info.application_name': 'Application name',
  'application_info.application_version': 'Application version',
  dt: 'Message type (older format)',
  n: 'Name (older format)',
  et: 'Event type (older format)',
  sid: 'Session ID (older format)',
  ct: 'Time (ms, older format)',
  sdk: 'SDK version (older format)',
  attrs: 'Attributes (older format)',
  ua: 'User attributes (older format)',
  ui: 'User identities (older format)',
  str: 'Store (older format)',
  das: 'Device application stamp',
  dbg: 'Debug',
  av: 'Application version',
  o: 'Opted out',
};

const mparticleLabel = labeller(MPARTICLE_LABELS, (key) => {
  const custom = /^(?:data\.custom_attributes|attrs)\.(.+)$/.exec(key);
  if (custom) return `${custom[1]} (custom attribute)`;
  if (key.startsWith('user_attributes.') || key.startsWith('ua.')) return `${key.replace(/^(user_attributes|ua)\./, '')} (user attribute)`;
  if (key.startsWith('user_identities.')) return `${key.slice(16)} (user identity)`;
  if (key.startsWith('consent_state.')) return `${key.slice(14)} (consent)`;
  return undefined;
});

/** Message types of the older v2 upload (`dt`). */
const V2_TYPES: Record<string, string> = {
  ss: 'session start',
  se: 'session end',
  pv: 'page view',
  e: 'event',
  cm: 'commerce event',
  o: 'opt out',
  ast: 'application state transition',
  uic: 'user identity change',
  uac: 'user attribute change',
  pre: 'push registration',
};

function v3Type(event: Record<string, unknown>): string {
  const type = field(event.event_type) ?? '';
  const data = isObject(event.data) ? event.data : {};
  if (type === 'custom_event') return field(data.event_name) ?? 'custom_event';
  if (type === 'screen_view') return `screen view: ${field(data.screen_name) ?? '?'}`;
  if (type === 'commerce_event' && isObject(data.product_action)) return `commerce: ${field(data.product_action.action) ?? '?'}`;
  return type || '(no event type)';
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (/^identity\.mparticle\.com$/.test(request.host) && /^\/v1\/(?:identify|login|logout|[^/]+\/modify)\/?$/.test(request.path)) {
    return [
      hitOf(request, {
        vendor: 'mparticle',
        type: `identity ${request.path.split('/').filter(Boolean).pop()}`,
        accountId: null,
        params: [requestKind('Identity API call'), ...named(flatten(tryJson(request.body) ?? {}, '', 'dot', []), mparticleLabel)],
        secondary: 'mParticle identity call: resolves the user, not an event',
      }),
    ];
  }
  const match = /^\/v(\d)\/JS\/([^/]+)\/events\/?$/i.exec(request.path);
  if (!match) return null;
  const version = Number(match[1]);
  const apiKey = match[2]!;
  const body = tryJson(request.body);
  const kind = requestKind(`Web SDK upload v${version}`);
  if (!isObject(body)) {
    return [
      invalidHit(request, {
        vendor: 'mparticle',
        accountId: apiKey,
        params: [kind, ...named(query, mparticleLabel)],
        reason: 'The body is not JSON: the upload cannot be read',
      }),
    ];
  }
  if (version < 3 || !Array.isArray(body.events)) {
    const pairs = flatten(body, '', 'dot', [...query]);
    const dt = field(body.dt);
    const name = field(body.n);
    return [
      hitOf(request, {
        vendor: 'mparticle',
        type: name ?? (dt ? (V2_TYPES[dt] ?? dt) : 'message'),
        accountId: apiKey,
        clientId: field(body.mpid),
        params: [kind, ...named(pairs, mparticleLabel)],
        formatNote: 'Older format: the v2 one-message upload (dt, n, et, attrs); current SDKs upload v3 batches',
      }),
    ];
  }
  const shared: Pairs = [...query];
  for (const [key, value] of Object.entries(body)) if (key !== 'events') flatten(value, key, 'dot', shared);
  const events = body.events.filter(isObject);
  if (events.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'mparticle',
        accountId: apiKey,
        params: [kind, ...named(shared, mparticleLabel)],
        reason: 'A batch without events',
      }),
    ];
  }
  return events.map((event, index) =>
    hitOf(request, {
      vendor: 'mparticle',
      type: v3Type(event),
      accountId: apiKey,
      clientId: lastValue(shared, 'mpid'),
      params: [kind, ...named([...flatten(event, '', 'dot', []), ...shared], mparticleLabel)],
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
    }),
  );
}

export const mparticle: VendorDecoder<'mparticle'> = {
  id: 'mparticle',
  label: 'mParticle',
  kind: 'analytics',
  hosts: ['mparticle.com'],
  anyHost: /\/v[23]\/JS\/[^/]+\/events/i,
  accountLabel: 'API key',
  labels: MPARTICLE_LABELS,
  decode,
};
