import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { bodyPairs, field, flatten, isObject, maybeBase64, tryJson } from './shared.js';

/**
 * Klaviyo onsite tracking: `static.klaviyo.com/onsite/js/klaviyo.js?company_id=<public key>` (a "tag
 * loaded" entry), then events as JSON:API documents to
 * `https://a.klaviyo.com/client/events/?company_id=…` — `{"data":{"type":"event","attributes":{"metric":
 * {"data":{"type":"metric","attributes":{"name":"Viewed Product"}}},"properties":{…},"profile":{…}}}}`
 * (also `/client/profiles/`, `/client/subscriptions/`). The older track API,
 * `a.klaviyo.com/api/track?data=<base64 JSON>` (`{"token":…,"event":…,"properties":{…}}`), is decoded with
 * a note.
 * Sources: Klaviyo's "Client API" reference (Create Client Event, revision headers) and its legacy
 * "Track and Identify API" documentation.
 */
const KLAVIYO_LABELS: Record<string, string> = {
  company_id: 'Public API key (company ID)',
  token: 'Public API key (legacy)',
  event: 'Event (legacy)',
  'data.type': 'Document type',
  'data.attributes.metric.data.attributes.name': 'Metric (event) name',
  'data.attributes.value': 'Value',
  'data.attributes.value_currency': 'Currency',
  'data.attributes.unique_id': 'Unique ID (deduplication)',
  'data.attributes.time': 'Time',
  'data.attributes.profile.data.attributes.email': 'Profile e-mail',
  'data.attributes.profile.data.attributes.external_id': 'Profile external ID',
  'data.attributes.profile.data.attributes._kx': 'Klaviyo exchange ID (_kx)',
  'data.attributes.properties.page': 'Page URL',
  'data.attributes.properties.$value': 'Value ($value)',
  'customer_properties.$email': 'Customer e-mail (legacy)',
  'customer_properties.$exchange_id': 'Klaviyo exchange ID (legacy)',
};

const klaviyoLabel = labeller(KLAVIYO_LABELS, (key) => {
  if (key.startsWith('data.attributes.properties.')) return `${key.slice(27)} (property)`;
  if (key.startsWith('properties.')) return `${key.slice(11)} (property)`;
  return undefined;
});

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const path = request.path;
  if (request.host === 'static.klaviyo.com' && /^\/onsite\/js\/klaviyo\.js$/.test(path)) {
    return [
      hitOf(request, {
        vendor: 'klaviyo',
        type: 'tag loaded',
        accountId: lastValue(query, 'company_id'),
        params: [requestKind('Klaviyo onsite script'), ...named(query, klaviyoLabel)],
        container: true,
        body: null,
      }),
    ];
  }
  if (request.host !== 'a.klaviyo.com') return null;
  const client = /^\/client\/(events|profiles|subscriptions|push-tokens)\/?$/.exec(path);
  const legacy = /^\/api\/(track|identify)\/?$/.exec(path);
  if (!client && !legacy) return null;
  if (legacy) {
    const raw = lastValue(query, 'data') ?? lastValue(bodyPairs(request), 'data');
    const json = tryJson(maybeBase64(raw)) ?? tryJson(raw);
    const pairs = isObject(json) ? flatten(json, '', 'dot', []) : [...query];
    if (!isObject(json)) {
      return [
        invalidHit(request, {
          vendor: 'klaviyo',
          accountId: null,
          params: named(pairs, klaviyoLabel),
          reason: 'The data parameter is neither base64 JSON nor JSON',
        }),
      ];
    }
    return [
      hitOf(request, {
        vendor: 'klaviyo',
        type: legacy[1] === 'track' ? (field(json.event) ?? '(no event)') : 'identify',
        accountId: field(json.token),
        params: [requestKind(`Legacy /api/${legacy[1]}`), ...named(pairs, klaviyoLabel)],
        formatNote:
          'Older format: the legacy Track and Identify API (a.klaviyo.com/api/track?data=…); klaviyo.js now posts to /client/events/',
      }),
    ];
  }
  const json = tryJson(request.body);
  const pairs = flatten(isObject(json) ? json : {}, '', 'dot', [...query]);
  const value = (key: string) => lastValue(pairs, key);
  const type =
    client![1] === 'events'
      ? (value('data.attributes.metric.data.attributes.name') ?? '(no metric)')
      : `${client![1]!.replace(/s$/, '').replace('-', ' ')} update`;
  return [
    hitOf(request, {
      vendor: 'klaviyo',
      type,
      accountId: value('company_id'),
      page: value('data.attributes.properties.page'),
      clientId: value('data.attributes.profile.data.attributes._kx'),
      params: [requestKind(`Client API /client/${client![1]}/`), ...named(pairs, klaviyoLabel)],
    }),
  ];
}

export const klaviyo: VendorDecoder<'klaviyo'> = {
  id: 'klaviyo',
  label: 'Klaviyo',
  kind: 'ads',
  hosts: ['klaviyo.com'],
  accountLabel: 'public API key',
  labels: KLAVIYO_LABELS,
  decode,
};
