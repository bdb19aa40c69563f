import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { bodyPairs, field, flatten, isObject, maybeBase64, tryJson } from './shared.js';

/**
 * Mixpanel (mixpanel-js): `https://api-js.mixpanel.com/track/?verbose=1&ip=1&_=…` (also api.mixpanel.com,
 * api-eu.mixpanel.com, api-in.mixpanel.com, a proxy), `/engage/` for profile updates and `/groups/`
 * for group profiles. The events travel in a `data` parameter — in the form body of a POST (or the
 * query string of a GET) — as JSON (`data=[{"event":"$mp_web_page_view","properties":{"token":…,
 * "distinct_id":…,"$current_url":…}}]`, batched: one hit per event) or, in the older format still
 * sent by older releases and by `api_payload_format: 'base64'`, as base64-encoded JSON: decoded
 * with a note.
 * Sources: Mixpanel's "Ingestion API" reference (track, engage, groups: the `data` parameter),
 * "Default properties" and the mixpanel-js configuration reference.
 */
const MIXPANEL_LABELS: Record<string, string> = {
  event: 'Event',
  'properties.token': 'Project token',
  'properties.distinct_id': 'Distinct ID',
  'properties.$device_id': 'Device ID',
  'properties.$user_id': 'User ID',
  'properties.time': 'Time',
  'properties.$insert_id': 'Insert ID (deduplication)',
  'properties.$current_url': 'Page URL',
  'properties.$referrer': 'Referrer',
  'properties.$referring_domain': 'Referring domain',
  'properties.$initial_referrer': 'Initial referrer',
  'properties.$initial_referring_domain': 'Initial referring domain',
  'properties.$browser': 'Browser',
  'properties.$browser_version': 'Browser version',
  'properties.$os': 'Operating system',
  'properties.$device': 'Device',
  'properties.$screen_height': 'Screen height',
  'properties.$screen_width': 'Screen width',
  'properties.mp_lib': 'Library',
  'properties.$lib_version': 'Library version',
  'properties.mp_page_view_id': 'Page view ID',
  'properties.$mp_api_endpoint': 'API endpoint',
  'properties.$mp_api_timestamp_ms': 'API timestamp (ms)',
  'properties.current_page_title': 'Page title',
  'properties.current_domain': 'Domain',
  'properties.current_url_path': 'Page path',
  'properties.utm_source': 'Campaign source',
  'properties.utm_medium': 'Campaign medium',
  'properties.utm_campaign': 'Campaign name',
  'properties.$duration': 'Duration (time_event)',
  $token: 'Project token',
  $distinct_id: 'Distinct ID',
  $set: 'Set properties',
  $set_once: 'Set properties once',
  $add: 'Increment properties',
  $append: 'Append to list properties',
  $union: 'Union into list properties',
  $unset: 'Remove properties',
  $delete: 'Delete profile',
  $group_key: 'Group key',
  $group_id: 'Group ID',
  verbose: 'Verbose response',
  ip: 'Geolocate from the IP',
  _: 'Cache buster',
};

const mixpanelLabel = labeller(MIXPANEL_LABELS, (key) => {
  if (key.startsWith('properties.$')) return `${key.slice(12)} (Mixpanel property)`;
  if (key.startsWith('properties.')) return `${key.slice(11)} (property)`;
  if (key.startsWith('$set.')) return `${key.slice(5)} (profile property set)`;
  return undefined;
});

const ENDPOINT = /^\/(track|engage|groups|decide|flags|record|import)\/?$/;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const endpoint = ENDPOINT.exec(request.path)?.[1];
  if (!endpoint) return null;
  if (endpoint === 'decide' || endpoint === 'flags' || endpoint === 'record') {
    return [
      hitOf(request, {
        vendor: 'mixpanel',
        type: endpoint === 'record' ? 'session replay upload' : `settings (${endpoint})`,
        accountId: lastValue(query, 'token'),
        params: [requestKind(`/${endpoint}`), ...named(query, mixpanelLabel)],
        secondary:
          endpoint === 'record' ? 'Session replay data: not an event' : 'mixpanel-js fetching its settings or feature flags: not an event',
      }),
    ];
  }
  const form = bodyPairs(request);
  const raw = lastValue(form, 'data') ?? lastValue(query, 'data');
  let json = tryJson(raw) ?? tryJson(request.body);
  let base64 = false;
  if (json === undefined && raw) {
    json = tryJson(maybeBase64(raw));
    base64 = json !== undefined;
  }
  const kind = requestKind(`Mixpanel /${endpoint}${base64 ? ' (base64 data)' : ''}`);
  const rest = [...query, ...form].filter(([key]) => key !== 'data');
  const events = Array.isArray(json) ? json.filter(isObject) : isObject(json) ? [json] : [];
  if (events.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'mixpanel',
        accountId: null,
        params: [kind, ...named([...query, ...form], mixpanelLabel)],
        reason: raw ? 'The data parameter is neither JSON nor base64-encoded JSON' : 'No data parameter: nothing to record',
      }),
    ];
  }
  const note = base64
    ? 'Older format: base64-encoded data (older mixpanel-js releases, or api_payload_format "base64"); current releases send JSON'
    : undefined;
  return events.map((event, index) => {
    const pairs = [...flatten(event, '', 'dot', []), ...rest];
    const value = (key: string) => lastValue(pairs, key);
    const fields = {
      vendor: 'mixpanel' as const,
      accountId: value('properties.token') ?? value('$token'),
      page: value('properties.$current_url'),
      referrer: value('properties.$referrer'),
      title: value('properties.current_page_title'),
      clientId: value('properties.distinct_id') ?? value('$distinct_id'),
      params: [kind, ...named(pairs, mixpanelLabel)],
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
      ...(note ? { formatNote: note } : {}),
    };
    if (endpoint === 'engage' || endpoint === 'groups') {
      const operation = Object.keys(event).find(
        (key) => key.startsWith('$') && !['$token', '$distinct_id', '$group_key', '$group_id', '$ip', '$time'].includes(key),
      );
      return hitOf(request, { ...fields, type: `${endpoint === 'engage' ? 'profile' : 'group'} ${operation ?? 'update'}` });
    }
    const name = field(event.event);
    if (!name) return invalidHit(request, { ...fields, reason: 'An event without a name (event): Mixpanel rejects it' });
    return hitOf(request, { ...fields, type: name });
  });
}

export const mixpanel: VendorDecoder<'mixpanel'> = {
  id: 'mixpanel',
  label: 'Mixpanel',
  kind: 'analytics',
  hosts: ['mixpanel.com'],
  accountLabel: 'project token',
  labels: MIXPANEL_LABELS,
  decode,
};
