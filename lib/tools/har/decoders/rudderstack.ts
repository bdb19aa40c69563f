import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { VendorDecoder } from '../vendor.js';
import { checkSpec, decodeSpec, isRudderBody, SEGMENT_SPEC_LABELS } from './segment.js';
import { tryJson } from './shared.js';

/**
 * RudderStack: the JavaScript SDK posts Segment-Spec messages to the customer's data plane —
 * `https://<name>.dataplane.rudderstack.com/v1/<track|page|identify|group|alias|screen|batch>`, a
 * self-hosted or first-party data plane with the same paths, or `…/beacon/v1/batch?writeKey=…` (the
 * beacon plugin). The write key travels in the Authorization header (not in the capture), except for
 * the beacon form. Messages carry RudderStack's own fields (`rudderId`, `channel`,
 * `originalTimestamp`, `context.library.name` "RudderLabs JavaScript SDK"): a first-party data plane is
 * recognised by them.
 * Sources: RudderStack's "HTTP API" and "JavaScript SDK" documentation (event spec: common fields).
 */
const RUDDERSTACK_LABELS: Record<string, string> = {
  ...SEGMENT_SPEC_LABELS,
  rudderId: 'RudderStack ID',
  channel: 'Channel',
  originalTimestamp: 'Original timestamp',
  'context.sessionId': 'Session ID',
  'context.sessionStart': 'Session start',
  'context.consentManagement.allowedConsentIds': 'Consent: allowed categories',
  'context.consentManagement.deniedConsentIds': 'Consent: denied categories',
};

const RUDDER_HOST = /(^|\.)(rudderstack\.com|rudderlabs\.com)$/;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const beacon = /\/beacon\/v1\/batch\/?$/i.test(request.path);
  if (!beacon && !/\/v1\/(?:track|page|identify|group|alias|screen|batch)\/?$/i.test(request.path)) return null;
  const ours = RUDDER_HOST.test(request.host);
  if (!ours && !isRudderBody(tryJson(request.body))) return null;
  return decodeSpec(request, query, {
    vendor: 'rudderstack',
    kind: `RudderStack data plane ${beacon ? 'beacon batch' : (/\/v1\/([a-z]+)/i.exec(request.path)?.[1] ?? 'call')}${ours ? '' : ` (${request.host})`}`,
    accountId: () => lastValue(query, 'writeKey') ?? /^([^.]+)\.dataplane\.rudderstack\.com$/.exec(request.host)?.[1] ?? undefined,
  });
}

export const rudderstack: VendorDecoder<'rudderstack'> = {
  id: 'rudderstack',
  label: 'RudderStack',
  kind: 'analytics',
  hosts: ['rudderstack.com', 'rudderlabs.com'],
  anyHost: /\/v1\/(?:track|page|identify|group|alias|screen|batch)(?:[?#]|$)/i,
  labels: RUDDERSTACK_LABELS,
  decode,
  check: (hit, warn) => checkSpec(hit, warn, 'RudderStack'),
};
