import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { flatten, formPairs, isObject, tryJson } from './shared.js';

/**
 * HubSpot's tracking code: the loader `https://js.hs-scripts.com/<Hub ID>.js` (a "tag loaded"
 * entry; the analytics script it loads, `js.hs-analytics.net/analytics/<time>/<Hub ID>.js`, is
 * secondary) and the page-view / event pixel `https://track.hubspot.com/__ptq.gif?a=<Hub ID>&k=<kind>…`
 * (`track-eu1.hubspot.com` for EU portals). Collected-forms submissions
 * (`forms.hscollectedforms.net/collected-forms/submit/form`) and CTA tracking
 * (`cta-*.hubspot.com/web-interactives/public/v1/track/…`) are hits too. HubSpot does not document
 * the pixel's parameters: the names here come from captured traffic and the tracking code's
 * documented settings (_hsq: setPath, trackPageView, trackCustomBehavioralEvent), cross-checked
 * with Omnibug's HubSpot provider.
 * Sources: HubSpot's "Install the HubSpot tracking code" and "Tracking code API overview" (developers).
 */
const HUBSPOT_LABELS: Record<string, string> = {
  a: 'Hub ID (portal)',
  k: 'Request kind (1 page view, 3 event)',
  n: 'Event name (custom behavioral event)',
  m: 'Event value',
  id: 'Event ID',
  value: 'Event value',
  pu: 'Page URL',
  t: 'Page title',
  po: 'Page path (setPath)',
  r: 'Referrer',
  ct: 'Content type',
  cs: 'Character set',
  cts: 'Timestamp (ms)',
  vi: 'Visitor ID (hubspotutk)',
  nc: 'New contact',
  u: 'Visitor cookie (__hstc)',
  b: 'Session cookie (__hssc)',
  cc: 'Session marker (__hssrc)',
  pi: 'Page ID',
  lvc: 'Language',
  sd: 'Screen size',
  portalId: 'Hub ID (portal)',
  '(portal)': 'Hub ID (portal)',
};

const hubspotLabel = labeller(HUBSPOT_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const host = request.host;
  const path = request.path;
  const loader = /^js(?:-[a-z0-9]+)?\.hs-scripts\.com$/.test(host) ? /^\/(\d+)\.js$/.exec(path) : null;
  const analytics = /^js(?:-[a-z0-9]+)?\.hs-analytics\.net$/.test(host) ? /^\/analytics\/\d+\/(\d+)\.js$/.exec(path) : null;
  if (loader || analytics) {
    const portal = (loader ?? analytics)![1]!;
    return [
      hitOf(request, {
        vendor: 'hubspot',
        type: loader ? 'tag loaded' : 'analytics script loaded',
        accountId: portal,
        params: [
          requestKind(loader ? 'Tracking code loader' : 'Analytics script'),
          { key: '(portal)', name: hubspotLabel('(portal)'), value: portal },
        ],
        container: true,
        body: null,
        ...(analytics ? { secondary: 'The analytics script the HubSpot loader loads' } : {}),
      }),
    ];
  }
  if (/^track(?:-[a-z0-9]+)?\.hubspot\.com$/.test(host) && /^\/__pt[qb]\.gif$/.test(path)) {
    const pairs = formPairs(request, query);
    const value = (key: string) => lastValue(pairs, key);
    const event = value('n') ?? value('id');
    return [
      hitOf(request, {
        vendor: 'hubspot',
        type: event ? `event: ${event}` : value('k') === '1' || !value('k') ? 'page view' : `kind ${value('k')}`,
        accountId: value('a'),
        page: value('pu'),
        title: value('t'),
        referrer: value('r'),
        clientId: value('vi'),
        params: [requestKind('Tracking pixel (__ptq.gif)'), ...named(pairs, hubspotLabel)],
      }),
    ];
  }
  const body = tryJson(request.body);
  const pairs: Pairs = [...query];
  if (isObject(body)) flatten(body, '', 'dot', pairs);
  if (/hscollectedforms\.net$/.test(host) && /^\/collected-forms\/submit\/form\/?$/.test(path)) {
    return [
      hitOf(request, {
        vendor: 'hubspot',
        type: 'collected form submission',
        accountId: lastValue(pairs, 'portalId'),
        page: lastValue(pairs, 'pageUrl'),
        params: [requestKind('Collected forms (non-HubSpot form) submission'), ...named(pairs, hubspotLabel)],
      }),
    ];
  }
  const cta = /^\/web-interactives\/public\/v\d\/track\/([a-z]+)/.exec(path);
  if (cta && /^cta(?:-[a-z0-9]+)?\.hubspot\.com$/.test(host)) {
    return [
      hitOf(request, {
        vendor: 'hubspot',
        type: `CTA ${cta[1]}`,
        accountId: lastValue(pairs, 'portalId'),
        params: [requestKind('Call-to-action tracking'), ...named(pairs, hubspotLabel)],
      }),
    ];
  }
  return null;
}

export const hubspot: VendorDecoder<'hubspot'> = {
  id: 'hubspot',
  label: 'HubSpot',
  kind: 'analytics',
  hosts: ['hubspot.com', 'hs-scripts.com', 'hs-analytics.net', 'hscollectedforms.net'],
  accountLabel: 'Hub ID',
  labels: HUBSPOT_LABELS,
  decode,
};
