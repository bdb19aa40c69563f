import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * Plausible Analytics: the script (`plausible.io/js/script.js`, or `pa-<id>.js`: a "tag loaded" entry)
 * posts `{"n":"pageview","u":<url>,"d":<domain>,"r":<referrer>,"p":{…props}}` to
 * `https://plausible.io/api/event` — or to the same path on the site's own domain (a proxy), where the
 * body's shape identifies it.
 * Source: Plausible's "Events API reference" (plausible.io/docs/events-api) and "Proxying Plausible".
 */
const PLAUSIBLE_LABELS: Record<string, string> = {
  n: 'Event name',
  name: 'Event name',
  u: 'Page URL',
  url: 'Page URL',
  d: 'Site domain',
  domain: 'Site domain',
  r: 'Referrer',
  referrer: 'Referrer',
  p: 'Custom properties',
  props: 'Custom properties',
  h: 'Hash-based routing',
  $: 'Revenue (amount, currency)',
  revenue: 'Revenue (amount, currency)',
  i: 'Interactive event',
  interactive: 'Interactive event',
};

const plausibleLabel = labeller(PLAUSIBLE_LABELS, (key) => {
  const prop = /^(?:p|props)\.(.+)$/.exec(key);
  return prop ? `${prop[1]} (property)` : undefined;
});

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const script = /^\/js\/(pa-[A-Za-z0-9_-]+|script(?:\.[a-z.-]+)?)\.js$/.exec(request.path);
  if (script && request.host === 'plausible.io') {
    return [
      hitOf(request, {
        vendor: 'plausible',
        type: 'tag loaded',
        accountId: script[1]!.startsWith('pa-') ? script[1] : null,
        params: [requestKind('Plausible script')],
        container: true,
        body: null,
      }),
    ];
  }
  if (!/^\/api\/event\/?$/.test(request.path)) return null;
  const ours = request.host === 'plausible.io';
  const json = tryJson(request.body);
  const body = isObject(json) ? json : null;
  const name = body ? (field(body.n) ?? field(body.name)) : undefined;
  const domain = body ? (field(body.d) ?? field(body.domain)) : undefined;
  if (!ours && !(name && domain && (field(body!.u) ?? field(body!.url)))) return null;
  const pairs = body ? flatten(body, '', 'dot', [...query]) : [...query];
  const kind = requestKind(`Events API${ours ? '' : ` (proxied by ${request.host})`}`);
  if (!name || !domain) {
    return [
      invalidHit(request, {
        vendor: 'plausible',
        accountId: domain,
        params: [kind, ...named(pairs, plausibleLabel)],
        reason: !body ? 'The body is not the Events API’s JSON' : 'An event needs its name (n) and the site’s domain (d)',
      }),
    ];
  }
  return [
    hitOf(request, {
      vendor: 'plausible',
      type: name,
      accountId: domain,
      page: lastValue(pairs, 'u') ?? lastValue(pairs, 'url'),
      referrer: lastValue(pairs, 'r') ?? lastValue(pairs, 'referrer'),
      params: [kind, ...named(pairs, plausibleLabel)],
    }),
  ];
}

export const plausible: VendorDecoder<'plausible'> = {
  id: 'plausible',
  label: 'Plausible Analytics',
  kind: 'analytics',
  hosts: ['plausible.io'],
  anyHost: /\/api\/event(?:[?#]|$)/i,
  accountLabel: 'site domain',
  labels: PLAUSIBLE_LABELS,
  decode,
};
