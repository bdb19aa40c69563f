import { lastValue, type Pairs, safeDecode } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { bodyPairs, firstOf } from './shared.js';

/**
 * Adobe Analytics (AppMeasurement, the Analytics tag extension, the mobile SDKs): image requests to
 * `https://<tracking server>/b/ss/<report suite(s)>/<1|0|10>/<library version>/s<random>?AQB=1&…&AQE=1`
 * — on Adobe's hosts (`*.sc.omtrdc.net`, `*.2o7.net`) or, most often, on a first-party CNAME
 * (`smetrics.example.com`). When the URL would be too long, or with `s.useBeacon`, AppMeasurement
 * POSTs the same parameters as a form body (sendBeacon or XHR) to the same path.
 *
 * Parameters (Adobe's "Data collection query parameters" reference): `pageName`/`gn`, `g` (page URL,
 * continued in `-g`), `r`, `events`/`ev`, `products`, `purchaseID`, props `c1`…`c75`, eVars
 * `v1`…`v250`, hierarchies `h1`…`h5`, list variables `l1`…`l3`, link tracking `pe` (lnk_o, lnk_d,
 * lnk_e) with `pev1` (URL) and `pev2` (name). Context data is sent between `c.` and `.c` markers,
 * nested levels likewise (`c.`, `a.`, `media.`, `.media`, `.a`, `.c`): it is shown as `c.a.media.view`.
 * `AQB`/`AQE` mark the start and end of the query: a request without `AQE` was cut short.
 *
 * The library version in the path tells the code generation: `JS-2.x` (AppMeasurement 2), `JS-1.x`
 * (AppMeasurement 1) and `H.xx` (the H-code s_code.js, end of support 2018) are still seen: the last
 * two are decoded with a note.
 */
const ADOBE_ANALYTICS_LABELS: Record<string, string> = {
  AQB: 'Start of the request (AQB)',
  AQE: 'End of the request (AQE: not truncated)',
  aamb: 'Audience Manager blob',
  aamlh: 'Audience Manager location hint',
  aid: 'Analytics visitor ID (legacy s_vi)',
  bh: 'Browser height',
  bw: 'Browser width',
  c: 'Colour depth',
  cc: 'Currency code (currencyCode)',
  cdp: 'Cookie domain periods',
  ce: 'Character set',
  ch: 'Channel (site section)',
  cl: 'Cookie lifetime',
  cp: 'Hit type (cp)',
  ct: 'Connection type',
  D: 'Dynamic variable prefix',
  ev: 'Events (short form)',
  events: 'Events',
  fid: 'Fallback visitor ID (s_fid)',
  g: 'Page URL (first 255 bytes)',
  '-g': 'Page URL (continued)',
  gn: 'Page name (short form)',
  gt: 'Page type (short form)',
  hp: 'Home page (no longer used)',
  j: 'JavaScript version',
  k: 'Cookies supported',
  lrt: 'Last request time (ms)',
  mcorgid: 'Experience Cloud organisation ID',
  mid: 'Experience Cloud ID (ECID)',
  ndh: 'Image request from AppMeasurement',
  ns: 'Visitor namespace',
  oid: 'Object ID (Activity Map)',
  oidt: 'Object ID type',
  ot: 'Object tag name',
  p: 'Browser plug-ins (no longer used)',
  pageName: 'Page name',
  pageType: 'Page type (404 error page)',
  pccr: 'Prevent infinite redirects (new visitors)',
  pe: 'Link type (lnk_o custom, lnk_d download, lnk_e exit)',
  pev1: 'Link URL',
  pev2: 'Link name',
  pev3: 'Media / video milestone',
  pf: 'Platform flag',
  pid: 'Page ID (Activity Map)',
  pidt: 'Page ID type',
  products: 'Products',
  purchaseID: 'Purchase ID (deduplication)',
  r: 'Referrer',
  s: 'Screen resolution',
  sdid: 'Supplemental data ID (Analytics for Target)',
  server: 'Server',
  state: 'Visitor state',
  t: 'Browser time (dd/mm/yyyy hh:mm:ss day offset)',
  ts: 'Timestamp',
  v: 'JavaScript enabled',
  v0: 'Campaign tracking code (campaign)',
  vid: 'Visitor ID (visitorID)',
  vidn: 'New visitor ID',
  vmk: 'Visitor migration key',
  vvp: 'Variable provider',
  xact: 'Transaction ID (integration data sources)',
  zip: 'ZIP / postal code',
  mcaam: 'Audience Manager region (Experience Cloud)',
  mcaamlh: 'Audience Manager location hint (Experience Cloud)',
  'h.': 'Client hints (high entropy)',
  'c.a.activitymap.page': 'Activity Map: page',
  'c.a.activitymap.link': 'Activity Map: link',
  'c.a.activitymap.region': 'Activity Map: region',
  'c.a.activitymap.pageIDType': 'Activity Map: page ID type',
};

const adobeAnalyticsLabel = labeller(
  ADOBE_ANALYTICS_LABELS,
  (key) => {
    const match = /^(?:c|prop)(\d+)$/.exec(key);
    return match ? `prop${match[1]} (traffic variable)` : undefined;
  },
  (key) => {
    const match = /^(?:v|eVar)(\d+)$/.exec(key);
    return match ? `eVar${match[1]} (conversion variable)` : undefined;
  },
  (key) => {
    const match = /^(?:h|hier)(\d+)$/.exec(key);
    return match ? `Hierarchy ${match[1]}` : undefined;
  },
  (key) => {
    const match = /^(?:l|list)(\d+)$/.exec(key);
    return match ? `List variable ${match[1]}` : undefined;
  },
  (key) => (key.startsWith('c.a.') ? `${key.slice(4)} (Adobe context data)` : undefined),
  (key) => (key.startsWith('c.') ? `${key.slice(2)} (context data)` : undefined),
  (key) => (key.startsWith('h.') ? `Client hint: ${key.slice(2)}` : undefined),
);

/**
 * Context data arrives flat with level markers: `c.` opens a level, `.c` closes it, each key in
 * between belongs to every open level (`c.` `a.` `media.` `view=true` `.media` `.a` `.c`).
 */
export function stackContextData(pairs: Pairs): Pairs {
  const out: Pairs = [];
  const stack: string[] = [];
  for (const [key, value] of pairs) {
    if (key.length > 1 && key.endsWith('.') && value === '') {
      stack.push(key);
      continue;
    }
    if (key.length > 1 && key.startsWith('.') && value === '') {
      stack.pop();
      continue;
    }
    out.push([stack.length ? stack.join('') + key : key, value]);
  }
  return out;
}

const PATH = /\/b\/ss\/([^/?#]*)(?:\/([^/?#]*))?(?:\/([^/?#]*))?/i;

function linkType(pe: string | undefined, pev2: string | undefined): string {
  if (!pe) return 'page view';
  if (pe === 'lnk_o') return `link: ${pev2 || 'custom link'}`;
  if (pe === 'lnk_d') return `download: ${pev2 || 'file'}`;
  if (pe === 'lnk_e') return `exit link: ${pev2 || 'link'}`;
  if (/^m(s)?_/.test(pe)) return 'media';
  return pe;
}

function versionNote(version: string | undefined): string | undefined {
  if (!version) return undefined;
  if (/^H\./i.test(version)) {
    return `Older format: H-code (s_code.js, library ${version}), replaced by AppMeasurement in 2014 and out of support since 2018`;
  }
  if (/^JS-1\./i.test(version)) return `Older format: AppMeasurement 1.x (library ${version}); current libraries are JS-2.x`;
  return undefined;
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const match = PATH.exec(request.path);
  if (!match) {
    // The Analytics visitor ID service on Adobe's hosts (`…/id?d_visid_ver=…&mcorgid=…`): not a hit.
    if (!/^\/id\/?$/.test(request.path) || !/(^|\.)(omtrdc\.net|2o7\.net)$/.test(request.host)) return null;
    return [
      hitOf(request, {
        vendor: 'adobe-analytics',
        type: 'visitor ID request',
        accountId: lastValue(query, 'mcorgid') ?? lastValue(query, 'd_orgid'),
        clientId: lastValue(query, 'mid'),
        params: [requestKind('Visitor ID service (/id)'), ...named(query, adobeAnalyticsLabel)],
        secondary: 'Adobe visitor ID request: not a hit',
      }),
    ];
  }
  const [, rsid, , version] = match;
  const raw = [...query, ...bodyPairs(request)];
  const pairs = stackContextData(raw);
  const value = (key: string) => lastValue(pairs, key);
  const kind = requestKind(
    `Adobe Analytics image request${request.method === 'POST' ? ' (POST body)' : ''}${version ? ` · library ${version}` : ''} · tracking server ${request.host}`,
  );
  const params = [kind, ...named(pairs, adobeAnalyticsLabel)];
  const common = {
    vendor: 'adobe-analytics' as const,
    accountId: rsid ? safeDecode(rsid) : null,
    page: (value('g') ?? '') + (value('-g') ?? '') || null,
    referrer: value('r'),
    title: firstOf(pairs, 'pageName', 'gn'),
    clientId: firstOf(pairs, 'mid', 'aid', 'vid', 'fid'),
    params,
  };
  let reason: string | null = null;
  if (!rsid) reason = 'No report suite in the path (/b/ss/<report suite>/…): Adobe cannot store the hit';
  else if (raw.length === 0) reason = 'No parameters at all, neither in the query string nor in a body';
  else if (value('AQB') !== undefined && value('AQE') === undefined) {
    reason = 'Cut short: the request starts with AQB but has no AQE end marker (a URL too long for the browser or a proxy)';
  }
  if (reason) return [invalidHit(request, { ...common, type: linkType(value('pe'), value('pev2')), reason })];
  const note = versionNote(version);
  return [hitOf(request, { ...common, type: linkType(value('pe'), value('pev2')), ...(note ? { formatNote: note } : {}) })];
}

export const adobeAnalytics: VendorDecoder<'adobe-analytics'> = {
  id: 'adobe-analytics',
  label: 'Adobe Analytics',
  kind: 'analytics',
  hosts: ['omtrdc.net', '2o7.net'],
  anyHost: /\/b\/ss\//i,
  accountLabel: 'report suite',
  labels: ADOBE_ANALYTICS_LABELS,
  decode,
  check(hit, warn) {
    const events = (paramOf(hit, 'events') ?? paramOf(hit, 'ev') ?? '').split(',').map((each) => each.split(/[=:]/)[0]!.trim());
    if (events.includes('purchase')) {
      if (!paramOf(hit, 'purchaseID')) {
        warn('purchase_missing_value', 'warning', 'Adobe purchase event without purchaseID: a reload counts the order twice');
      }
      if (!paramOf(hit, 'products')) {
        warn('purchase_missing_value', 'warning', 'Adobe purchase event without products: revenue and units are not recorded');
      }
    }
    if (paramOf(hit, 'pe') === 'lnk_o' && !paramOf(hit, 'pev2')) {
      warn('event_unnamed', 'warning', 'Adobe custom link (s.tl, pe=lnk_o) without a link name (pev2)');
    }
    if (!paramOf(hit, 'pe') && !paramOf(hit, 'pageName') && !paramOf(hit, 'gn')) {
      warn('vendor_rule', 'info', 'Adobe page view without pageName: reports use the page URL as the page name');
    }
  },
};
