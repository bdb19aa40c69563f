import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { bodyPairs, field, flatten, isObject, looksCompressed, maybeBase64, tryJson } from './shared.js';

/**
 * PostHog (posthog-js): events to `https://us.i.posthog.com/e/` (EU: `eu.i.posthog.com`, also
 * `/i/v0/e/`, `/batch/`, a reverse proxy on the site's domain) as JSON — one event
 * `{"event":"$pageview","properties":{"token":…,"distinct_id":…,"$current_url":…}}`, an array, or
 * `{"api_key":…,"batch":[…]}` — one hit per event. posthog-js compresses bodies when it can
 * (`compression=gzip-js` in the query): such a request is shown as compressed. Older releases sent
 * the JSON base64-encoded in a `data=` form field: decoded with a note. `/decide/` and `/flags/`
 * (settings, feature flags) and `/s/` (session recording) are secondary.
 * Sources: PostHog's "Capture API" and "Batch API" references, and "Reverse proxy" documentation.
 */
const POSTHOG_LABELS: Record<string, string> = {
  event: 'Event',
  api_key: 'Project API key',
  timestamp: 'Timestamp',
  uuid: 'Event ID',
  'properties.token': 'Project API key',
  'properties.distinct_id': 'Distinct ID',
  'properties.$current_url': 'Page URL',
  'properties.$host': 'Host',
  'properties.$pathname': 'Page path',
  'properties.$referrer': 'Referrer',
  'properties.$title': 'Page title',
  'properties.$session_id': 'Session ID',
  'properties.$window_id': 'Window ID',
  'properties.$device_id': 'Device ID',
  'properties.$lib': 'Library',
  'properties.$lib_version': 'Library version',
  'properties.$browser': 'Browser',
  'properties.$os': 'Operating system',
  'properties.$pageview_id': 'Page view ID',
  ver: 'Library version (query)',
  compression: 'Compression (gzip-js, base64)',
  ip: 'Geolocate from the IP',
  _: 'Cache buster',
};

const posthogLabel = labeller(POSTHOG_LABELS, (key) => {
  if (key.startsWith('properties.$set.')) return `${key.slice(16)} (person property)`;
  if (key.startsWith('properties.$')) return `${key.slice(12)} (PostHog property)`;
  if (key.startsWith('properties.')) return `${key.slice(11)} (property)`;
  return undefined;
});

const POSTHOG_HOST = /(^|\.)posthog\.com$/;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const match = /^(?:\/i\/v0)?\/(e|batch|capture|track|decide|flags|s)\/?$/.exec(request.path);
  if (!match) return null;
  const ours = POSTHOG_HOST.test(request.host);
  const endpoint = match[1]!;
  if (endpoint === 'decide' || endpoint === 'flags' || endpoint === 's') {
    if (!ours) return null;
    return [
      hitOf(request, {
        vendor: 'posthog',
        type: endpoint === 's' ? 'session recording' : `settings (${endpoint})`,
        accountId: lastValue(query, 'token') ?? null,
        params: [requestKind(`/${endpoint}/`), ...named(query, posthogLabel)],
        secondary:
          endpoint === 's' ? 'Session recording data: not an event' : 'posthog-js fetching its settings or feature flags: not an event',
      }),
    ];
  }
  const compressed = /gzip/.test(lastValue(query, 'compression') ?? '') || looksCompressed(request.body);
  let body = tryJson(request.body);
  let base64 = false;
  if (body === undefined) {
    body = tryJson(maybeBase64(lastValue(bodyPairs(request), 'data') ?? lastValue(query, 'data')));
    base64 = body !== undefined;
  }
  // On another host, only PostHog's event shape makes the request PostHog's (a reverse proxy).
  const events = Array.isArray(body) ? body : isObject(body) && Array.isArray(body.batch) ? body.batch : isObject(body) ? [body] : [];
  const first = events.find(isObject);
  if (
    !ours &&
    !(first && 'event' in first && isObject(first.properties) && ('token' in first.properties || 'distinct_id' in first.properties))
  ) {
    if (!(compressed && lastValue(query, 'ver'))) return null;
  }
  const kind = requestKind(`Capture (/${endpoint}/)${compressed ? ', gzip-compressed' : ''}`);
  if (compressed && !first) {
    return [
      hitOf(request, {
        vendor: 'posthog',
        type: 'events (compressed)',
        accountId: null,
        params: [kind, ...named(query, posthogLabel)],
        body: '(compressed body)',
      }),
    ];
  }
  const objects = events.filter(isObject);
  if (objects.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'posthog',
        accountId: null,
        params: [kind, ...named(query, posthogLabel)],
        reason: 'No event could be read from the body',
      }),
    ];
  }
  const apiKey = isObject(body) && !Array.isArray(body) ? field(body.api_key) : undefined;
  return objects.map((event, index) => {
    const pairs = [...flatten(event, '', 'dot', []), ...query];
    const value = (key: string) => lastValue(pairs, key);
    return hitOf(request, {
      vendor: 'posthog',
      type: value('event') ?? '(no event)',
      accountId: value('properties.token') ?? apiKey,
      page: value('properties.$current_url'),
      title: value('properties.$title'),
      referrer: value('properties.$referrer'),
      clientId: value('properties.distinct_id'),
      params: [kind, ...named(pairs, posthogLabel)],
      batch: objects.length > 1 ? { index: index + 1, size: objects.length } : null,
      ...(base64 ? { formatNote: 'Older format: base64-encoded data= form field (older posthog-js releases)' } : {}),
    });
  });
}

export const posthog: VendorDecoder<'posthog'> = {
  id: 'posthog',
  label: 'PostHog',
  kind: 'analytics',
  hosts: ['posthog.com'],
  anyHost: /\/(?:i\/v0\/)?e\/?\?(?:[^#]*&)?(?:ver|compression)=/i,
  accountLabel: 'project API key',
  labels: POSTHOG_LABELS,
  decode,
};
