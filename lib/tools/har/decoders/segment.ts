import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { Hit } from '../types.js';
import { hitOf, invalidHit, labeller, named, paramOf, requestKind, type VendorDecoder, type Warn } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * Segment (analytics.js / Analytics 2.0): POST requests to `https://api.segment.io/v1/<call>` (EU:
 * `events.eu1.segmentapis.com`, or a custom proxy domain) with a JSON body following Segment's Spec —
 * `type`, `event`, `name`, `properties`, `traits`, `userId`, `anonymousId`, `messageId`, `context`
 * (page, library, campaign …), `writeKey`. analytics.js shortens the path (`/v1/t` track, `/p` page,
 * `/i` identify, `/g` group, `/a` alias, `/s` screen); `/v1/batch` (`/v1/b`) carries
 * `{"batch":[…],"writeKey":…}` — one hit per message. The library and its settings
 * (`cdn.segment.com/analytics.js/v1/<write key>/analytics.min.js`, `…/v1/projects/<write key>/settings`)
 * are "tag loaded" entries.
 * Sources: Segment's "Spec" (common fields, track, page, identify, group, alias, screen) and its
 * "HTTP Tracking API" reference (batch, the 500 KB / 32 KB limits).
 */
export const SEGMENT_SPEC_LABELS: Record<string, string> = {
  type: 'Call type',
  event: 'Event name (track)',
  name: 'Page / screen name',
  category: 'Page category',
  userId: 'User ID',
  anonymousId: 'Anonymous ID',
  previousId: 'Previous ID (alias)',
  groupId: 'Group ID',
  messageId: 'Message ID (deduplication)',
  timestamp: 'Timestamp',
  sentAt: 'Sent at',
  originalTimestamp: 'Original timestamp',
  receivedAt: 'Received at',
  writeKey: 'Write key (source)',
  'context.page.url': 'Page URL',
  'context.page.path': 'Page path',
  'context.page.title': 'Page title',
  'context.page.referrer': 'Referrer',
  'context.page.search': 'Query string',
  'context.userAgent': 'User agent',
  'context.locale': 'Locale',
  'context.timezone': 'Time zone',
  'context.ip': 'IP address',
  'context.library.name': 'Library',
  'context.library.version': 'Library version',
  'context.campaign.name': 'Campaign name',
  'context.campaign.source': 'Campaign source',
  'context.campaign.medium': 'Campaign medium',
  'context.campaign.term': 'Campaign term',
  'context.campaign.content': 'Campaign content',
  'context.consent.categoryPreferences': 'Consent category preferences',
  'properties.revenue': 'Revenue',
  'properties.total': 'Order total',
  'properties.value': 'Value',
  'properties.currency': 'Currency',
  'properties.order_id': 'Order ID',
  'properties.url': 'Page URL (properties)',
  'properties.title': 'Page title (properties)',
  'properties.path': 'Page path (properties)',
  'properties.referrer': 'Referrer (properties)',
  'traits.email': 'E-mail (trait)',
  'traits.name': 'Name (trait)',
  '_metadata.bundled': 'Integrations bundled in the page',
  '_metadata.unbundled': 'Integrations sent server-side',
};

export const specLabel = labeller(SEGMENT_SPEC_LABELS, (key) => {
  if (key.startsWith('properties.')) return `${key.slice(11)} (property)`;
  if (key.startsWith('traits.')) return `${key.slice(7)} (trait)`;
  if (key.startsWith('context.traits.')) return `${key.slice(15)} (context trait)`;
  if (key.startsWith('integrations.')) return `${key.slice(13)} (integration switch)`;
  return undefined;
});

const SHORT_CALLS: Record<string, string> = { t: 'track', p: 'page', i: 'identify', g: 'group', a: 'alias', s: 'screen', b: 'batch' };

/** The call a path names (`/v1/t`, `/v1/track` …), or undefined. */
export function callOfPath(path: string): string | undefined {
  const match = /\/v1\/([a-z]+)\/?$/i.exec(path);
  if (!match) return undefined;
  const name = match[1]!.toLowerCase();
  return SHORT_CALLS[name] ?? (['track', 'page', 'identify', 'group', 'alias', 'screen', 'batch'].includes(name) ? name : undefined);
}

/** A message's type as people read it: the event for track, the name for page and screen. */
export function messageType(message: Record<string, unknown>, call: string | undefined): string {
  const type = (field(message.type) ?? call ?? '').toLowerCase();
  if (type === 'track') return field(message.event) ?? 'track';
  if (type === 'page' || type === 'screen') {
    const name = field(message.name);
    return name ? `${type}: ${name}` : type;
  }
  return type || '(no type)';
}

/** Whether a JSON body is RudderStack's (its SDK's markers), not Segment's. */
export function isRudderBody(body: unknown): boolean {
  const first = isObject(body) && Array.isArray(body.batch) ? body.batch[0] : body;
  if (!isObject(first)) return false;
  const library = isObject(first.context) && isObject(first.context.library) ? (field(first.context.library.name) ?? '') : '';
  return 'rudderId' in first || 'channel' in first || /rudder/i.test(library);
}

export interface SpecProtocol {
  vendor: 'segment' | 'rudderstack';
  kind: string;
  accountId: (body: Record<string, unknown>) => string | undefined;
}

/** Decodes a body in the Segment Spec (Segment and RudderStack): one hit per message. */
export function decodeSpec(request: CapturedRequest, query: Pairs, protocol: SpecProtocol): HitDraft[] {
  const call = callOfPath(request.path);
  const body = tryJson(request.body);
  const kind = requestKind(protocol.kind);
  if (!isObject(body)) {
    return [
      invalidHit(request, {
        vendor: protocol.vendor,
        type: call,
        accountId: lastValue(query, 'writeKey'),
        params: [kind, ...named(query, specLabel)],
        reason: request.body ? 'The body is not JSON: the message cannot be read' : 'No body: messages are sent as JSON',
      }),
    ];
  }
  const shared: Pairs = [...query];
  for (const [key, value] of Object.entries(body)) if (key !== 'batch') flatten(value, key, 'dot', shared);
  const messages = Array.isArray(body.batch) ? body.batch.filter(isObject) : [body];
  const accountId = protocol.accountId(body) ?? lastValue(query, 'writeKey');
  if (messages.length === 0) {
    return [
      invalidHit(request, {
        vendor: protocol.vendor,
        accountId,
        params: [kind, ...named(shared, specLabel)],
        reason: 'A batch without messages',
      }),
    ];
  }
  return messages.map((message, index) => {
    const pairs = message === body ? shared : [...flatten(message, '', 'dot', []), ...shared.filter(([key]) => !(key in message))];
    const value = (key: string) => lastValue(pairs, key);
    const type = messageType(message, Array.isArray(body.batch) ? undefined : call);
    const fields = {
      vendor: protocol.vendor,
      accountId,
      page: value('context.page.url') ?? value('properties.url'),
      referrer: value('context.page.referrer') ?? value('properties.referrer'),
      title: value('context.page.title') ?? value('properties.title'),
      clientId: value('anonymousId') ?? value('userId'),
      params: [kind, ...named(pairs, specLabel)],
      batch: messages.length > 1 ? { index: index + 1, size: messages.length } : null,
    };
    const messageCall = (field(message.type) ?? call ?? '').toLowerCase();
    if (!messageCall) return invalidHit(request, { ...fields, reason: 'No message type (type) and no call in the path' });
    if (messageCall === 'track' && !field(message.event)) {
      return invalidHit(request, { ...fields, type: 'track', reason: 'A track call without an event name (event): it is rejected' });
    }
    return hitOf(request, { ...fields, type });
  });
}

/** Spec rules both Segment and RudderStack document. */
export function checkSpec(hit: Hit, warn: Warn, label: string) {
  if (!paramOf(hit, 'anonymousId') && !paramOf(hit, 'userId')) {
    warn('vendor_rule', 'error', `${label} message without anonymousId or userId: one of them is required`);
  }
  if (paramOf(hit, 'type') === 'identify' && !paramOf(hit, 'userId') && !hit.params.some((param) => param.key.startsWith('traits.'))) {
    warn('vendor_rule', 'warning', `${label} identify call without userId or traits: it says nothing about the user`);
  }
  if (/^order completed$/i.test(hit.type) && !paramOf(hit, 'properties.order_id')) {
    warn('purchase_missing_value', 'warning', `${label} Order Completed without properties.order_id`);
  }
}

const SEGMENT_HOST = /(^|\.)(segment\.io|segment\.com|segmentapis\.com)$/;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const library = /^\/(?:analytics\.js\/v1\/([^/]+)\/analytics(?:\.min)?\.js|v1\/projects\/([^/]+)\/settings)$/.exec(request.path);
  if (library && request.host === 'cdn.segment.com') {
    return [
      hitOf(request, {
        vendor: 'segment',
        type: library[1] ? 'tag loaded' : 'settings loaded',
        accountId: library[1] ?? library[2],
        params: [requestKind(library[1] ? 'analytics.js library' : 'Source settings')],
        container: true,
        body: null,
        ...(library[2] ? { secondary: 'analytics.js loading its source settings' } : {}),
      }),
    ];
  }
  const call = callOfPath(request.path);
  if (!call && !/\/v1\/m\/?$/.test(request.path)) return null;
  const ours = SEGMENT_HOST.test(request.host);
  const body = tryJson(request.body);
  if (!ours && (!isObject(body) || isRudderBody(body) || !('writeKey' in body || (Array.isArray(body.batch) && 'writeKey' in body))))
    return null;
  if (!call) {
    return [
      hitOf(request, {
        vendor: 'segment',
        type: 'library metrics',
        accountId: null,
        params: [requestKind('analytics.js metrics (/v1/m)')],
        secondary: 'analytics.js’ own delivery metrics: not a message',
      }),
    ];
  }
  return decodeSpec(request, query, {
    vendor: 'segment',
    kind: `Segment ${call} call${ours ? '' : ` (proxy on ${request.host})`}`,
    accountId: (json) => field(json.writeKey),
  });
}

export const segment: VendorDecoder<'segment'> = {
  id: 'segment',
  label: 'Segment',
  kind: 'analytics',
  hosts: ['segment.io', 'segment.com', 'segmentapis.com'],
  anyHost: /\/v1\/(?:[tpigasb]|track|page|identify|group|alias|screen|batch)(?:[?#]|$)/i,
  accountLabel: 'write key',
  labels: SEGMENT_SPEC_LABELS,
  decode,
  check: (hit, warn) => checkSpec(hit, warn, 'Segment'),
};
