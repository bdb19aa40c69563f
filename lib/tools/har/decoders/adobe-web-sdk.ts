import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { ConsentState } from '../types.js';
import { hitOf, invalidHit, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * Adobe Experience Platform Web SDK (alloy.js, the Web SDK tag extension): POST requests to the Edge
 * Network, `https://edge.adobedc.net/ee/v1/interact?configId=<datastream>&requestId=<uuid>` (also
 * `/ee/v2/…`, a region before the version: `/ee/irl1/v1/…`, and a first-party CNAME host). `interact`
 * expects a response (personalisation, identity); `collect` is the sendBeacon form used when the
 * page is unloading. The body is JSON: `{"events":[{"xdm":{"eventType":"web.webpagedetails.pageViews",
 * "web":{"webPageDetails":{"URL":…,"name":…}},"identityMap":{"ECID":[{"id":…}]}…},"data":{…}}],
 * "meta":{…},"query":{…}}` — one hit per event (the SDK may batch several). Also
 * `/ee/v1/identity/acquire` (an ECID request) and `/ee/v1/privacy/set-consent` (the consent command:
 * Adobe standard `collect.val` y/n, or an IAB TCF string), shown as secondary requests.
 * Sources: Adobe's Edge Network Server API ("Interactive data collection", "Non-interactive data
 * collection"), the Web SDK `sendEvent` and `setConsent` command references.
 */
const ADOBE_WEB_SDK_LABELS: Record<string, string> = {
  configId: 'Datastream ID (configId)',
  requestId: 'Request ID',
  'xdm.eventType': 'Event type',
  'xdm.timestamp': 'Timestamp',
  'xdm._id': 'Event ID',
  'xdm.web.webPageDetails.URL': 'Page URL',
  'xdm.web.webPageDetails.name': 'Page name',
  'xdm.web.webPageDetails.viewName': 'View name (single-page app)',
  'xdm.web.webPageDetails.pageViews.value': 'Page views',
  'xdm.web.webPageDetails.siteSection': 'Site section',
  'xdm.web.webPageDetails.server': 'Server',
  'xdm.web.webPageDetails.isErrorPage': 'Error page',
  'xdm.web.webReferrer.URL': 'Referrer',
  'xdm.web.webInteraction.name': 'Link name',
  'xdm.web.webInteraction.type': 'Link type (other, download, exit)',
  'xdm.web.webInteraction.URL': 'Link URL',
  'xdm.web.webInteraction.region': 'Link region',
  'xdm.web.webInteraction.linkClicks.value': 'Link clicks',
  'xdm.device.screenHeight': 'Screen height',
  'xdm.device.screenWidth': 'Screen width',
  'xdm.device.screenOrientation': 'Screen orientation',
  'xdm.environment.type': 'Environment type',
  'xdm.environment.browserDetails.viewportWidth': 'Viewport width',
  'xdm.environment.browserDetails.viewportHeight': 'Viewport height',
  'xdm.placeContext.localTime': 'Local time',
  'xdm.placeContext.localTimezoneOffset': 'Time zone offset (minutes)',
  'xdm.implementationDetails.name': 'Library',
  'xdm.implementationDetails.version': 'Library version',
  'xdm.implementationDetails.environment': 'Library environment',
  'xdm.marketing.trackingCode': 'Campaign tracking code',
  'xdm.commerce.order.purchaseID': 'Order ID (purchaseID)',
  'xdm.commerce.order.priceTotal': 'Order total',
  'xdm.commerce.order.currencyCode': 'Currency',
  'xdm.commerce.purchases.value': 'Purchases',
  'xdm.commerce.productViews.value': 'Product views',
  'xdm.commerce.productListAdds.value': 'Cart additions',
  'xdm.commerce.productListRemovals.value': 'Cart removals',
  'xdm.commerce.checkouts.value': 'Checkouts',
  'xdm.identityMap.ECID.0.id': 'Experience Cloud ID (ECID)',
  'xdm.identityMap.ECID.0.authenticatedState': 'ECID authenticated state',
  'meta.state.domain': 'Cookie domain',
  'meta.state.cookiesEnabled': 'Cookies enabled',
  'query.personalization.decisionScopes.0': 'Personalisation decision scope',
  'query.identity.fetch.0': 'Identity requested',
  'consent.0.standard': 'Consent standard',
  'consent.0.version': 'Consent standard version',
  'consent.0.value.collect.val': 'Consent: collect (y/n)',
  'consent.0.value': 'Consent value (IAB TCF string)',
  'consent.0.gdprApplies': 'GDPR applies',
};

const webSdkLabel = labeller(
  ADOBE_WEB_SDK_LABELS,
  (key) => {
    const evar = /^data\.__adobe\.analytics\.(?:eVar|v)(\d+)$/.exec(key);
    if (evar) return `eVar${evar[1]} (Analytics, data object)`;
    const prop = /^data\.__adobe\.analytics\.(?:prop|c)(\d+)$/.exec(key);
    if (prop) return `prop${prop[1]} (Analytics, data object)`;
    return key.startsWith('data.__adobe.analytics.') ? `${key.slice(23)} (Analytics, data object)` : undefined;
  },
  (key) => {
    const item = /^xdm\.productListItems\.(\d+)\.(.+)$/.exec(key);
    return item ? `Product ${Number(item[1]) + 1} ${item[2]}` : undefined;
  },
  (key) => (key.startsWith('data.') ? `${key.slice(5)} (data object)` : undefined),
);

const PATH = /\/ee\/(?:([a-z0-9]+)\/)?v(\d)\/(interact|collect|identity\/acquire|privacy\/set-consent)\/?$/i;

function consentOf(body: Record<string, unknown>): ConsentState | null {
  const first = Array.isArray(body.consent) ? (body.consent[0] as unknown) : undefined;
  if (!isObject(first)) return null;
  const standard = field(first.standard) ?? '';
  const value = first.value;
  if (standard === 'Adobe' && isObject(value) && isObject(value.collect)) {
    const val = field(value.collect.val);
    const state = val === 'y' ? 'granted' : val === 'n' ? 'denied' : 'not set';
    return {
      source: 'adobe',
      signals: [{ type: 'collect', state, code: val ?? '' }],
      text: `Adobe consent standard: collect ${state} (val=${val ?? '?'})`,
    };
  }
  if (/TCF/i.test(standard)) {
    return {
      source: 'adobe',
      signals: [{ type: 'tcf', state: 'not set', code: 'TCF' }],
      text: `IAB TCF consent string sent (${field(first.version) ?? '?'}): read it in your CMP`,
    };
  }
  return null;
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const match = PATH.exec(request.path);
  if (!match) return null;
  const action = match[3]!.toLowerCase();
  const configId = lastValue(query, 'configId') ?? lastValue(query, 'dataStreamId') ?? lastValue(query, 'edgeConfigId');
  const body = tryJson(request.body);
  const kind = requestKind(`Edge Network ${action} (v${match[2]}${match[1] ? `, region ${match[1]}` : ''})`);
  const shared: Pairs = [...query];
  if (isObject(body)) for (const [key, value] of Object.entries(body)) if (key !== 'events') flatten(value, key, 'dot', shared);
  const common = { vendor: 'adobe-web-sdk' as const, accountId: configId };
  if (!isObject(body)) {
    return [
      invalidHit(request, {
        ...common,
        params: [kind, ...named(shared, webSdkLabel)],
        reason: request.body
          ? 'The body is not JSON: the Edge Network cannot read it'
          : 'No body: Web SDK requests carry their events as JSON',
      }),
    ];
  }
  if (action === 'identity/acquire' || action === 'privacy/set-consent') {
    const consent = action === 'privacy/set-consent' ? consentOf(body) : null;
    return [
      hitOf(request, {
        ...common,
        type: action === 'privacy/set-consent' ? 'set-consent' : 'identity/acquire',
        params: [kind, ...named(shared, webSdkLabel)],
        consent,
        secondary:
          action === 'privacy/set-consent'
            ? 'Consent preferences sent to the Edge Network (setConsent): not an event'
            : 'Identity request (ECID) to the Edge Network: not an event',
      }),
    ];
  }
  const events = Array.isArray(body.events) ? body.events : [];
  if (!configId || events.length === 0) {
    return [
      invalidHit(request, {
        ...common,
        params: [kind, ...named(shared, webSdkLabel)],
        reason: !configId
          ? 'No datastream ID (configId) in the query string: the Edge Network rejects the request'
          : 'No events in the body',
      }),
    ];
  }
  return events.map((event, index) => {
    const pairs = flatten(event, '', 'dot', []);
    const value = (key: string) => lastValue(pairs, key);
    return hitOf(request, {
      ...common,
      type: value('xdm.eventType') ?? (value('xdm.web.webInteraction.name') ? 'link click' : action),
      page: value('xdm.web.webPageDetails.URL'),
      title: value('xdm.web.webPageDetails.name'),
      referrer: value('xdm.web.webReferrer.URL'),
      clientId: value('xdm.identityMap.ECID.0.id') ?? lastValue(shared, 'xdm.identityMap.ECID.0.id'),
      params: [kind, ...named(pairs, webSdkLabel), ...named(shared, webSdkLabel)],
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
    });
  });
}

export const adobeWebSdk: VendorDecoder<'adobe-web-sdk'> = {
  id: 'adobe-web-sdk',
  label: 'Adobe Experience Platform Web SDK',
  kind: 'analytics',
  hosts: ['adobedc.net'],
  anyHost: /\/ee\/(?:[a-z0-9]+\/)?v\d\/(?:interact|collect|identity\/acquire|privacy\/set-consent)/i,
  accountLabel: 'datastream ID (configId)',
  labels: ADOBE_WEB_SDK_LABELS,
  decode,
  check(hit, warn) {
    const type = paramOf(hit, 'xdm.eventType');
    if (type === 'commerce.purchases' && !paramOf(hit, 'xdm.commerce.order.purchaseID')) {
      warn(
        'purchase_missing_value',
        'warning',
        'Web SDK commerce.purchases without xdm.commerce.order.purchaseID: the order cannot be deduplicated',
      );
    }
    if (!type) warn('event_unnamed', 'warning', 'Web SDK event without xdm.eventType: reports cannot tell what it measured');
  },
};
