import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, formPairs, isObject, subdomain, tryJson } from './shared.js';

/**
 * Adobe Target. at.js 2.x calls the Delivery API: POST
 * `https://<client>.tt.omtrdc.net/rest/v1/delivery?client=<client>&sessionId=<id>&version=2.x` with a
 * JSON body (`context`, `id`, `execute.pageLoad`, `execute.mboxes`, `prefetch`, `notifications`).
 * at.js 1.x and mbox.js call `/m2/<client>/mbox/json?mbox=…&mboxSession=…&mboxPC=…&mboxURL=…`
 * (`/mbox/ajax`, `/mbox/standard` for mbox.js): decoded with an "older format" note. First-party
 * Target CNAMEs are recognised by the Delivery API path with its `client` and `sessionId`.
 * Sources: Adobe's Target Delivery API reference ("Getting started", "Single or batch delivery",
 * "Notifications") and at.js 1.x "mbox parameters".
 */
const ADOBE_TARGET_LABELS: Record<string, string> = {
  client: 'Client code',
  sessionId: 'Session ID',
  version: 'at.js version',
  requestId: 'Request ID',
  'context.channel': 'Channel',
  'context.address.url': 'Page URL',
  'context.address.referringUrl': 'Referrer',
  'context.browser.host': 'Host',
  'context.screen.width': 'Screen width',
  'context.screen.height': 'Screen height',
  'context.window.width': 'Window width',
  'context.window.height': 'Window height',
  'context.timeOffsetInMinutes': 'Time zone offset (minutes)',
  'id.tntId': 'Target visitor ID (tntId)',
  'id.marketingCloudVisitorId': 'Experience Cloud ID (ECID)',
  'id.thirdPartyId': 'Third-party ID (mbox3rdPartyId)',
  'property.token': 'Property token (at_property)',
  'experienceCloud.analytics.logging': 'Analytics for Target logging (client_side / server_side)',
  'experienceCloud.analytics.supplementalDataId': 'Supplemental data ID (A4T)',
  'experienceCloud.analytics.trackingServer': 'Analytics tracking server (A4T)',
  'experienceCloud.audienceManager.locationHint': 'Audience Manager location hint',
  mbox: 'Mbox name',
  mboxSession: 'Session ID',
  mboxPC: 'Visitor profile ID (PC)',
  mboxPage: 'Page ID',
  mboxRid: 'Request ID',
  mboxVersion: 'Library version',
  mboxCount: 'Mbox count',
  mboxTime: 'Timestamp',
  mboxHost: 'Page host',
  mboxURL: 'Page URL',
  mboxReferrer: 'Referrer',
  mboxXDomain: 'Cross-domain mode',
  mboxMCGVID: 'Experience Cloud ID (ECID)',
  mboxMCSDID: 'Supplemental data ID (A4T)',
  mboxAAMB: 'Audience Manager blob',
  mboxMCGLH: 'Audience Manager location hint',
  screenHeight: 'Screen height',
  screenWidth: 'Screen width',
  browserHeight: 'Browser height',
  browserWidth: 'Browser width',
  browserTimeOffset: 'Time zone offset (minutes)',
  colorDepth: 'Colour depth',
  at_property: 'Property token',
  orderId: 'Order ID',
  orderTotal: 'Order total',
  productPurchasedId: 'Purchased product IDs',
};

const targetLabel = labeller(ADOBE_TARGET_LABELS, (key) => {
  if (key.startsWith('profile.')) return `${key.slice(8)} (profile attribute)`;
  const mbox = /^(?:execute|prefetch)\.mboxes\.(\d+)\.name$/.exec(key);
  if (mbox) return `Mbox ${Number(mbox[1]) + 1} name`;
  return undefined;
});

/** What a Delivery API call asks for: page load, mboxes, prefetch, notifications. */
function deliveryType(body: Record<string, unknown>): string {
  const parts: string[] = [];
  const execute = isObject(body.execute) ? body.execute : null;
  if (execute && isObject(execute.pageLoad)) parts.push('pageLoad');
  const mboxes = [execute?.mboxes, isObject(body.prefetch) ? body.prefetch.mboxes : undefined]
    .flatMap((list) => (Array.isArray(list) ? list : []))
    .map((mbox) => (isObject(mbox) ? field(mbox.name) : undefined))
    .filter((name): name is string => Boolean(name));
  parts.push(...mboxes);
  if (isObject(body.prefetch) && Array.isArray(body.prefetch.views)) parts.push('prefetch views');
  if (Array.isArray(body.notifications) && body.notifications.length) {
    const types = [...new Set(body.notifications.map((each) => (isObject(each) ? field(each.type) : undefined)).filter(Boolean))];
    parts.push(`notification${types.length ? ` (${types.join(', ')})` : ''}`);
  }
  return parts.join(', ') || 'delivery';
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const client = subdomain(request.host, '.tt.omtrdc.net');
  const onTarget = client !== null;
  const delivery = /\/rest\/v\d\/delivery\/?$/i.test(request.path);
  const legacy = /^\/m2\/([^/]+)\/(mbox|viztarget)\/([a-z]+)\/?$/i.exec(request.path);
  if (!delivery && !legacy) return null;
  if (!onTarget && !(delivery && lastValue(query, 'client') !== undefined && lastValue(query, 'sessionId') !== undefined)) return null;
  if (legacy) {
    const pairs = formPairs(request, query);
    const value = (key: string) => lastValue(pairs, key);
    return [
      hitOf(request, {
        vendor: 'adobe-target',
        type: value('mbox') ?? legacy[2]!,
        accountId: legacy[1],
        page: value('mboxURL'),
        referrer: value('mboxReferrer'),
        clientId: value('mboxPC') ?? value('mboxMCGVID'),
        params: [requestKind(`/m2/ ${legacy[2]}/${legacy[3]} call`), ...named(pairs, targetLabel)],
        formatNote: `Older format: the ${legacy[3] === 'json' ? 'at.js 1.x' : 'mbox.js'} /m2/ mbox call (at.js 2.x uses the Delivery API, /rest/v1/delivery)`,
      }),
    ];
  }
  const body = tryJson(request.body);
  const pairs: Pairs = [...query];
  const accountId = lastValue(query, 'client') ?? client;
  if (!isObject(body)) {
    return [
      invalidHit(request, {
        vendor: 'adobe-target',
        accountId,
        params: named(pairs, targetLabel),
        reason: 'Delivery API call without a JSON body: Target cannot tell what to deliver',
      }),
    ];
  }
  flatten(body, '', 'dot', pairs);
  const value = (key: string) => lastValue(pairs, key);
  return [
    hitOf(request, {
      vendor: 'adobe-target',
      type: deliveryType(body),
      accountId,
      page: value('context.address.url'),
      referrer: value('context.address.referringUrl'),
      clientId: value('id.tntId') ?? value('id.marketingCloudVisitorId'),
      params: [requestKind(`Delivery API (at.js ${value('version') ?? '2.x'})`), ...named(pairs, targetLabel)],
    }),
  ];
}

export const adobeTarget: VendorDecoder<'adobe-target'> = {
  id: 'adobe-target',
  label: 'Adobe Target',
  kind: 'experience',
  hosts: ['tt.omtrdc.net'],
  anyHost: /\/rest\/v\d\/delivery\b/i,
  accountLabel: 'client code',
  labels: ADOBE_TARGET_LABELS,
  decode,
};
