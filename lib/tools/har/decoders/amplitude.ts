import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { bodyPairs, field, flatten, isObject, tryJson } from './shared.js';

/**
 * Amplitude: the Browser SDK 2 (and Analytics-Browser 1.x) POST JSON to
 * `https://api2.amplitude.com/2/httpapi` (EU: `api.eu.amplitude.com/2/httpapi`, `/batch` for the
 * Batch API, or a proxy) — `{"api_key":…,"events":[{"event_type":…,"user_id":…,"device_id":…,
 * "event_properties":{…}}],"options":{…}}`, one hit per event. The legacy amplitude-js SDK posts a form
 * to the root of `api.amplitude.com` — `client=<api key>&e=<JSON events>&v=2&upload_time=…&checksum=…`
 * — decoded with an "older format" note. An event needs a `user_id` or a `device_id`, and
 * Amplitude rejects ids shorter than 5 characters (its default `min_id_length`).
 * Sources: Amplitude's "HTTP V2 API" and "Batch Event Upload API" references, the Browser SDK 2
 * documentation (default tracked events, `[Amplitude] Page Viewed`).
 */
const AMPLITUDE_LABELS: Record<string, string> = {
  api_key: 'API key',
  client: 'API key (legacy form)',
  e: 'Events (legacy form, JSON)',
  v: 'Legacy API version',
  upload_time: 'Upload time (legacy form)',
  checksum: 'Checksum (legacy form)',
  client_upload_time: 'Client upload time',
  'options.min_id_length': 'Minimum ID length',
  event_type: 'Event type',
  user_id: 'User ID',
  device_id: 'Device ID',
  session_id: 'Session ID',
  time: 'Time (ms)',
  event_id: 'Event counter',
  insert_id: 'Insert ID (deduplication)',
  platform: 'Platform',
  os_name: 'OS / browser name',
  os_version: 'OS / browser version',
  device_model: 'Device model',
  device_manufacturer: 'Device manufacturer',
  language: 'Language',
  ip: 'IP address',
  country: 'Country',
  region: 'Region',
  city: 'City',
  library: 'Library',
  app_version: 'App version',
  version_name: 'Version name',
  partner_id: 'Partner ID',
  price: 'Price',
  quantity: 'Quantity',
  revenue: 'Revenue',
  productId: 'Product ID',
  revenueType: 'Revenue type',
  'event_properties.[Amplitude] Page URL': 'Page URL',
  'event_properties.[Amplitude] Page Title': 'Page title',
  'event_properties.[Amplitude] Page Path': 'Page path',
  'event_properties.[Amplitude] Page Domain': 'Page domain',
  'event_properties.[Amplitude] Page Location': 'Page location',
  'event_properties.referrer': 'Referrer',
  'ingestion_metadata.source_name': 'Ingestion source',
  'ingestion_metadata.source_version': 'Ingestion source version',
  'plan.branch': 'Tracking plan branch',
  'plan.source': 'Tracking plan source',
  'plan.version': 'Tracking plan version',
};

const amplitudeLabel = labeller(AMPLITUDE_LABELS, (key) => {
  if (key.startsWith('event_properties.')) return `${key.slice(17)} (event property)`;
  if (key.startsWith('user_properties.')) return `${key.slice(16)} (user property)`;
  if (key.startsWith('groups.')) return `${key.slice(7)} (group)`;
  return undefined;
});

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const v2 = /\/2\/httpapi\/?$/i.test(request.path);
  const batch = /\/batch\/?$/i.test(request.path);
  const legacy = request.path === '/' && /^api\d?(\.eu)?\.amplitude\.com$/.test(request.host);
  if (!v2 && !batch && !legacy) return null;
  const form = bodyPairs(request);
  const body = tryJson(request.body);
  let events: unknown[] = [];
  let apiKey: string | undefined;
  const shared: Pairs = [...query];
  if (isObject(body)) {
    apiKey = field(body.api_key);
    events = Array.isArray(body.events) ? body.events : [];
    for (const [key, value] of Object.entries(body)) if (key !== 'events') flatten(value, key, 'dot', shared);
  } else if (form.length) {
    apiKey = lastValue(form, 'client') ?? lastValue(form, 'api_key');
    const parsed = tryJson(lastValue(form, 'e') ?? lastValue(form, 'events'));
    events = Array.isArray(parsed) ? parsed : isObject(parsed) ? [parsed] : [];
    shared.push(...form.filter(([key]) => key !== 'e' && key !== 'events'));
  }
  const kind = requestKind(
    legacy || form.length ? 'amplitude-js form upload (legacy API)' : batch ? 'Batch Event Upload API' : 'HTTP V2 API',
  );
  const objects = events.filter(isObject);
  if (objects.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'amplitude',
        accountId: apiKey,
        params: [kind, ...named([...shared, ...form], amplitudeLabel)],
        reason: request.body ? 'No events could be read from the body' : 'No body: Amplitude events are sent in the body',
      }),
    ];
  }
  const note =
    legacy || (form.length && !isObject(body))
      ? 'Older format: the amplitude-js form upload (client=…&e=[…]); the Browser SDK sends JSON to /2/httpapi'
      : undefined;
  return objects.map((event, index) => {
    const pairs = [...flatten(event, '', 'dot', []), ...shared];
    const value = (key: string) => lastValue(pairs, key);
    const fields = {
      vendor: 'amplitude' as const,
      accountId: apiKey,
      page: value('event_properties.[Amplitude] Page URL') ?? value('event_properties.[Amplitude] Page Location'),
      title: value('event_properties.[Amplitude] Page Title'),
      referrer: value('event_properties.referrer'),
      clientId: value('device_id') ?? value('user_id'),
      params: [kind, ...named(pairs, amplitudeLabel)],
      batch: objects.length > 1 ? { index: index + 1, size: objects.length } : null,
      ...(note ? { formatNote: note } : {}),
    };
    const type = field(event.event_type);
    if (!type) return invalidHit(request, { ...fields, reason: 'An event without event_type: Amplitude rejects it' });
    return hitOf(request, { ...fields, type });
  });
}

export const amplitude: VendorDecoder<'amplitude'> = {
  id: 'amplitude',
  label: 'Amplitude',
  kind: 'analytics',
  hosts: ['amplitude.com'],
  anyHost: /\/2\/httpapi(?:[?#]|$)/i,
  accountLabel: 'API key',
  labels: AMPLITUDE_LABELS,
  decode,
  check(hit, warn) {
    const userId = paramOf(hit, 'user_id');
    const deviceId = paramOf(hit, 'device_id');
    if (!userId && !deviceId) warn('vendor_rule', 'error', 'Amplitude event without user_id or device_id: one of them is required');
    const minimum = Number(paramOf(hit, 'options.min_id_length') ?? 5);
    for (const [name, id] of [
      ['user_id', userId],
      ['device_id', deviceId],
    ] as const) {
      if (id && id.length < minimum)
        warn('vendor_rule', 'error', `Amplitude ${name} "${id}" is shorter than ${minimum} characters: the event is rejected`);
    }
  },
};
