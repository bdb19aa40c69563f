import { lastValue, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { Hit } from '../types.js';
import { hitOf, invalidHit, labeller, named, paramOf, requestKind, type VendorDecoder, type Warn } from '../vendor.js';
import { bodyPairs, isObject, tryJson } from './shared.js';

/**
 * Matomo (formerly Piwik): the JavaScript tracker's requests to `…/matomo.php` (`…/piwik.php` before
 * Matomo 4, still served) on any host — self-hosted, Matomo Cloud (`*.matomo.cloud`), a first-party
 * proxy. Parameters in the query string (GET) or a form body (POST, sendBeacon). Several actions in
 * one request use the bulk format: a POST JSON body `{"requests":["?idsite=1&rec=1&…","?…"]}`, one
 * hit per entry. `idsite` and `rec=1` are required: without them Matomo drops the request.
 * Source: Matomo's "Tracking HTTP API" reference (developer.matomo.org/api-reference/tracking-api)
 * and the JavaScript tracker's bulk requests.
 */
export const MATOMO_LABELS: Record<string, string> = {
  idsite: 'Site ID',
  rec: 'Record (must be 1)',
  action_name: 'Action name (page title)',
  url: 'Page URL',
  _id: 'Visitor ID (16 hex characters)',
  rand: 'Cache buster',
  r: 'Cache buster',
  apiv: 'API version',
  urlref: 'Referrer',
  _cvar: 'Visit custom variables (JSON)',
  cvar: 'Page custom variables (JSON)',
  _idvc: 'Visit count',
  _viewts: 'Previous visit timestamp',
  _idts: 'First visit timestamp',
  _idn: 'New visitor',
  _rcn: 'Campaign name',
  _rck: 'Campaign keyword',
  _refts: 'Referrer timestamp',
  _ref: 'Referrer (attribution cookie)',
  res: 'Screen resolution',
  h: 'Local hour',
  m: 'Local minute',
  s: 'Local second',
  fla: 'Plug-in: Flash',
  java: 'Plug-in: Java',
  dir: 'Plug-in: Director',
  qt: 'Plug-in: QuickTime',
  realp: 'Plug-in: RealPlayer',
  pdf: 'Plug-in: PDF',
  wma: 'Plug-in: Windows Media',
  gears: 'Plug-in: Gears',
  ag: 'Plug-in: Silverlight',
  cookie: 'Cookies supported',
  ua: 'User agent override',
  uadata: 'Client hints (JSON)',
  lang: 'Accept-Language override',
  uid: 'User ID',
  cid: 'Visitor ID (forced)',
  new_visit: 'Force a new visit',
  link: 'Outlink URL',
  download: 'Download URL',
  search: 'Site search keyword',
  search_cat: 'Site search category',
  search_count: 'Site search result count',
  pv_id: 'Page view ID',
  idgoal: 'Goal ID (0 = ecommerce)',
  revenue: 'Revenue',
  cs: 'Character set',
  ca: 'Custom action (not a page view)',
  c_n: 'Content name',
  c_p: 'Content piece',
  c_t: 'Content target',
  c_i: 'Content interaction',
  e_c: 'Event category',
  e_a: 'Event action',
  e_n: 'Event name',
  e_v: 'Event value',
  ec_id: 'Order ID',
  ec_items: 'Ecommerce items (JSON)',
  ec_st: 'Order subtotal',
  ec_tx: 'Order tax',
  ec_sh: 'Order shipping',
  ec_dt: 'Order discount',
  _ects: 'Last order timestamp',
  token_auth: 'Authentication token',
  cip: 'Visitor IP override',
  cdt: 'Request time override',
  country: 'Country override',
  region: 'Region override',
  city: 'City override',
  lat: 'Latitude override',
  long: 'Longitude override',
  gt_ms: 'Generation time (ms)',
  pf_net: 'Performance: network time (ms)',
  pf_srv: 'Performance: server time (ms)',
  pf_tfr: 'Performance: transfer time (ms)',
  pf_dm1: 'Performance: DOM processing (ms)',
  pf_dm2: 'Performance: DOM completion (ms)',
  pf_onl: 'Performance: on-load time (ms)',
  send_image: 'Answer with an image',
  ping: 'Heart beat ping',
  bots: 'Track bots',
  debug: 'Debug',
  queuedtracking: 'Queued tracking',
  source: 'Tracker source',
  ma_id: 'Media ID',
  ma_ti: 'Media title',
  ma_re: 'Media resource URL',
  ma_mt: 'Media type',
  ma_pn: 'Media player name',
  ma_st: 'Media seconds played',
  ma_le: 'Media length (s)',
  ma_ps: 'Media progress (s)',
  ma_ttp: 'Media time to play (s)',
  ma_w: 'Media width',
  ma_h: 'Media height',
  ma_fs: 'Media full screen',
  ma_se: 'Media positions played',
  fa_vid: 'Form analytics: view ID',
  fa_fv: 'Form analytics: form view',
  fa_fp: 'Form analytics: form ID',
  fa_name: 'Form analytics: form name',
  fa_st: 'Form analytics: form started',
  fa_su: 'Form analytics: form submitted',
  fa_co: 'Form analytics: form converted',
  fa_ts: 'Form analytics: time spent (ms)',
  fa_fields: 'Form analytics: fields (JSON)',
};

const matomoLabel = labeller(MATOMO_LABELS, (key) => {
  const dimension = /^dimension(\d+)$/.exec(key);
  return dimension ? `Custom dimension ${dimension[1]}` : undefined;
});

/** What a Matomo-protocol request records, from its parameters (Matomo's own precedence). */
export function matomoType(pairs: Pairs): string {
  const value = (key: string) => lastValue(pairs, key);
  if (value('ping') === '1') return 'heart beat ping';
  if (value('e_c') !== undefined || value('e_a') !== undefined) return `event: ${value('e_c') ?? '?'} / ${value('e_a') ?? '?'}`;
  if (value('search') !== undefined) return 'site search';
  if (value('link') !== undefined) return 'outlink';
  if (value('download') !== undefined) return 'download';
  if (value('c_n') !== undefined) return value('c_i') ? 'content interaction' : 'content impression';
  if (value('ma_id') !== undefined) return 'media';
  if (value('fa_vid') !== undefined || value('fa_fp') !== undefined) return 'form';
  const goal = value('idgoal');
  if (goal === '0') return value('ec_id') ? 'ecommerce order' : 'cart update';
  if (goal !== undefined) return `goal ${goal}`;
  return 'page view';
}

/** The actions of a request: the query string and form body, or each entry of a bulk body. */
function actionsOf(request: CapturedRequest, query: Pairs): Array<{ pairs: Pairs; body: string | null }> {
  const json = tryJson(request.body);
  if (isObject(json) && Array.isArray(json.requests)) {
    return json.requests
      .filter((entry): entry is string => typeof entry === 'string')
      .map((entry) => ({ pairs: [...query, ...parsePairs(entry.replace(/^[^?]*\?/, ''))], body: entry }));
  }
  const body = bodyPairs(request);
  return [{ pairs: body.length ? [...query, ...body] : query, body: request.body }];
}

export interface MatomoProtocol {
  vendor: 'matomo' | 'piwik-pro';
  label: (key: string) => string;
  kindOf: (request: CapturedRequest) => string;
  formatNote?: (request: CapturedRequest) => string | undefined;
}

/** Decodes a request in the Matomo tracking protocol (shared by Matomo and Piwik PRO). */
export function decodeMatomoProtocol(request: CapturedRequest, query: Pairs, protocol: MatomoProtocol): HitDraft[] {
  const actions = actionsOf(request, query);
  const kind = requestKind(protocol.kindOf(request));
  const note = protocol.formatNote?.(request);
  return actions.map(({ pairs, body }, index) => {
    const value = (key: string) => lastValue(pairs, key);
    const fields = {
      vendor: protocol.vendor,
      accountId: value('idsite'),
      page: value('url'),
      referrer: value('urlref'),
      title: value('action_name'),
      clientId: value('_id') ?? value('cid') ?? value('uid'),
      params: [kind, ...named(pairs, protocol.label)],
      body,
      batch: actions.length > 1 ? { index: index + 1, size: actions.length } : null,
    };
    const reason = !value('idsite')
      ? 'No site ID (idsite): the request is dropped'
      : value('rec') !== '1'
        ? `rec=${value('rec') ?? '(missing)'}: without rec=1 the request is not recorded`
        : null;
    if (reason) return invalidHit(request, { ...fields, type: matomoType(pairs), reason });
    return hitOf(request, { ...fields, type: matomoType(pairs), ...(note ? { formatNote: note } : {}) });
  });
}

/** Checks from the tracking API reference, shared by Matomo and Piwik PRO. */
export function checkMatomoProtocol(hit: Hit, warn: Warn, label: string) {
  const id = paramOf(hit, '_id');
  if (id !== undefined && !/^[0-9a-f]{16}$/i.test(id) && label === 'Matomo') {
    warn('vendor_rule', 'warning', `${label} visitor ID (_id) "${id}" is not 16 hexadecimal characters: ${label} ignores it`);
  }
  if (hit.type === 'ecommerce order' && !paramOf(hit, 'revenue')) {
    warn('purchase_missing_value', 'warning', `${label} ecommerce order without revenue`);
  }
  if ((paramOf(hit, 'e_n') !== undefined || paramOf(hit, 'e_v') !== undefined) && (!paramOf(hit, 'e_c') || !paramOf(hit, 'e_a'))) {
    warn('event_unnamed', 'warning', `${label} event without its category (e_c) and action (e_a), both required`);
  }
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  // Matomo Tag Manager: `…/js/container_<id>.js` (self-hosted) or `cdn.matomo.cloud/<site>/container_<id>.js`.
  const container = /\/container_([A-Za-z0-9]+)(?:_(?:dev|staging|[a-z]+))?\.js$/.exec(request.path);
  if (container && (request.host.endsWith('matomo.cloud') || /\/js\/container_/.test(request.path))) {
    return [
      hitOf(request, {
        vendor: 'matomo',
        type: 'container loaded',
        accountId: container[1],
        params: [requestKind('Matomo Tag Manager container')],
        container: true,
        body: null,
      }),
    ];
  }
  const file = /\/(matomo|piwik)\.php$/i.exec(request.path);
  if (!file) return null;
  return decodeMatomoProtocol(request, query, {
    vendor: 'matomo',
    label: matomoLabel,
    kindOf: () => `Matomo tracking request (${file[1]!.toLowerCase()}.php)`,
    formatNote: () =>
      file[1]!.toLowerCase() === 'piwik'
        ? 'Older endpoint name: piwik.php (Matomo 4 and later use matomo.php; both are served)'
        : undefined,
  });
}

export const matomo: VendorDecoder<'matomo'> = {
  id: 'matomo',
  label: 'Matomo',
  kind: 'analytics',
  hosts: ['matomo.cloud'],
  anyHost: /\/(?:matomo|piwik)\.php(?:[?#]|$)|\/js\/container_[A-Za-z0-9]+(?:_[a-z]+)?\.js/i,
  accountLabel: 'site ID (idsite)',
  labels: MATOMO_LABELS,
  decode,
  check: (hit, warn) => checkMatomoProtocol(hit, warn, 'Matomo'),
};
