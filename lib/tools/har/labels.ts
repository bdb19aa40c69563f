/**
 * Readable names of the parameters each vendor sends. Sources: Google's GA4 Measurement Protocol
 * and gtag.js parameter references, the Universal Analytics Measurement Protocol parameter
 * reference, Google Ads / Floodlight tag documentation, Meta pixel documentation; undocumented
 * gtag.js keys follow the community references (David Vallejo's GA4 parameter sheet, Simo Ahava).
 */
import type { DecodedParam } from './types.js';

/** User-agent client hints, which gtag.js adds to GA4, Google Ads and Floodlight requests alike. */
const CLIENT_HINT_LABELS: Record<string, string> = {
  uaa: 'Client hints: architecture',
  uab: 'Client hints: bitness',
  uafvl: 'Client hints: full version list',
  uam: 'Client hints: model',
  uamb: 'Client hints: mobile',
  uap: 'Client hints: platform',
  uapv: 'Client hints: platform version',
  uaw: 'Client hints: Windows on Windows 64',
};

export const GA4_LABELS: Record<string, string> = {
  v: 'Protocol version',
  tid: 'Measurement ID',
  gtm: 'Container / gtag build hash',
  _p: 'Page load ID (random)',
  _gaz: 'Google Ads cookie allowed',
  gcs: 'Consent status (gcs)',
  gcd: 'Consent mode v2 state (gcd)',
  gcu: 'Consent updated',
  gcut: 'Consent update type',
  npa: 'Non-personalised ads',
  dma: 'DMA (EEA) obligations apply',
  dma_cps: 'DMA consent purposes',
  pscdl: 'Privacy Sandbox cookie deprecation label',
  tag_exp: 'Tag experiments',
  cid: 'Client ID',
  uid: 'User ID',
  ecid: 'Extra client ID',
  ul: 'User language',
  sr: 'Screen resolution',
  ...CLIENT_HINT_LABELS,
  are: 'Ads redaction enabled',
  frm: 'Sent from an iframe',
  ir: 'Ignore referrer (ignore_referrer)',
  tt: 'Traffic type (traffic_type)',
  ur: 'User region (consent region, ISO 3166-2)',
  _geo: 'Geo granularity flag (gtag internal)',
  _rdi: 'Redact device info flag (gtag internal)',
  _glv: 'Linker value flag (gtag internal)',
  gtm_up: 'GTM: user-provided data flag (gtag internal)',
  _gsid: 'Google session ID for Ads (gtag internal)',
  gaf: 'Google Ads feature flags (gtag internal)',
  lps: 'Landing page session flag (gtag internal)',
  rcb: 'Request counter (gtag internal)',
  edid: 'Enhanced data ID (gtag internal)',
  pae: 'Privacy Sandbox attribution enabled (gtag internal)',
  _tu: 'Tag usage flags (gtag internal)',
  ptag_exp: 'Page tag experiments',
  apve: 'Attribution Reporting API: event-level (gtag internal)',
  apvc: 'Attribution Reporting API: cookie (gtag internal)',
  ae: 'Attribution eligibility (gtag internal)',
  navt: 'Navigation type',
  scrsrc: 'Script source host',
  rnd: 'Random number / cache buster',
  ecid_type: 'Extra client ID type',
  _ecid: 'Extra client ID',
  up: 'User-provided data (enhanced conversions, hashed)',
  em: 'Hashed user data (enhanced conversions)',
  _s: 'Hit sequence number',
  sid: 'Session ID',
  sct: 'Session count',
  seg: 'Session engaged',
  dl: 'Document location',
  dr: 'Document referrer',
  dt: 'Document title',
  dh: 'Document hostname',
  en: 'Event name',
  _et: 'Engagement time (ms)',
  _ee: 'Enhanced conversions: user data provided',
  _eu: 'Event usage flags',
  _fv: 'First visit',
  _ss: 'Session start',
  _nsi: 'New session ID',
  _c: 'Conversion',
  _dbg: 'Debug mode',
  _fid: 'Firebase ID',
  _uc: 'User country',
  _z: 'Cache buster',
  cu: 'Currency',
  tfd: 'Time to first dispatch (ms)',
  richsstsse: 'Server-side tagging: streamed response requested',
  sst_rnd: 'Server-side tagging random',
  ngs: 'Non-Google signals',
  gdid: 'Google developer ID',
  ep_debug_mode: 'Debug mode',
  // Campaign parameters gtag copies from the landing page URL.
  cs: 'Campaign source',
  cm: 'Campaign medium',
  cn: 'Campaign name',
  cc: 'Campaign content',
  ck: 'Campaign term',
  ci: 'Campaign ID',
  gclid: 'Google Ads click ID',
  dclid: 'Display click ID',
  gbraid: 'Google Ads app click ID (gbraid)',
  wbraid: 'Google Ads web click ID (wbraid)',
};

/** Sub-keys of a GA4 item (`pr1=id123~nmShirt~pr9.99…`). */
export const GA4_ITEM_LABELS: Record<string, string> = {
  id: 'item_id',
  nm: 'item_name',
  af: 'affiliation',
  cp: 'coupon',
  ds: 'discount',
  lp: 'index',
  br: 'item_brand',
  ca: 'item_category',
  c2: 'item_category2',
  c3: 'item_category3',
  c4: 'item_category4',
  c5: 'item_category5',
  li: 'item_list_id',
  ln: 'item_list_name',
  va: 'item_variant',
  lo: 'location_id',
  pr: 'price',
  qt: 'quantity',
  cr: 'creative_name',
  cs: 'creative_slot',
  pi: 'promotion_id',
  pn: 'promotion_name',
};

/** Names repeat across thousands of hits: each key is named once. */
function memo(label: (key: string) => string): (key: string) => string {
  const cache = new Map<string, string>();
  return (key) => {
    let name = cache.get(key);
    if (name === undefined) {
      name = label(key);
      if (cache.size < 10_000) cache.set(key, name);
    }
    return name;
  };
}

/** GA4 keys with a prefix: event and user parameters (string and number). */
export const ga4Label = memo((key: string): string => {
  const known = GA4_LABELS[key];
  if (known) return known;
  if (key.startsWith('ep.')) return `${key.slice(3)} (event param)`;
  if (key.startsWith('epn.')) return `${key.slice(4)} (event param, number)`;
  if (key.startsWith('up.')) return `${key.slice(3)} (user property)`;
  if (key.startsWith('upn.')) return `${key.slice(4)} (user property, number)`;
  const item = /^pr(\d+)$/.exec(key);
  if (item) return `Item ${item[1]}`;
  if (key.startsWith('sst.')) return `${key.slice(4)} (server-side tagging)`;
  return key;
});

export const UA_LABELS: Record<string, string> = {
  v: 'Protocol version',
  tid: 'Tracking ID',
  cid: 'Client ID',
  uid: 'User ID',
  t: 'Hit type',
  dl: 'Document location',
  dh: 'Document hostname',
  dp: 'Document path',
  dt: 'Document title',
  dr: 'Document referrer',
  ec: 'Event category',
  ea: 'Event action',
  el: 'Event label',
  ev: 'Event value',
  ni: 'Non-interaction hit',
  ul: 'User language',
  sr: 'Screen resolution',
  vp: 'Viewport size',
  de: 'Document encoding',
  sd: 'Screen colours',
  je: 'Java enabled',
  fl: 'Flash version',
  _v: 'Library version',
  _u: 'Usage flags',
  _gid: 'Google ID (_gid)',
  _s: 'Hit sequence number',
  _r: 'Remarketing',
  a: 'AdSense link',
  z: 'Cache buster',
  jid: 'Join ID',
  gjid: 'Google join ID',
  qt: 'Queue time (ms)',
  ds: 'Data source',
  sc: 'Session control',
  uip: 'IP override',
  ua: 'User agent override',
  gclid: 'Google Ads click ID',
  dclid: 'Display click ID',
  cn: 'Campaign name',
  cs: 'Campaign source',
  cm: 'Campaign medium',
  ck: 'Campaign keyword',
  cc: 'Campaign content',
  ci: 'Campaign ID',
  ti: 'Transaction ID',
  ta: 'Transaction affiliation',
  tr: 'Transaction revenue',
  ts: 'Transaction shipping',
  tt: 'Transaction tax',
  tcc: 'Coupon code',
  pa: 'Product action',
  pal: 'Product action list',
  cos: 'Checkout step',
  col: 'Checkout step option',
  cu: 'Currency',
  promoa: 'Promotion action',
  sn: 'Social network',
  sa: 'Social action',
  st: 'Social target',
  utc: 'Timing category',
  utv: 'Timing variable',
  utt: 'Timing time (ms)',
  utl: 'Timing label',
  exd: 'Exception description',
  exf: 'Exception is fatal',
  an: 'Application name',
  av: 'Application version',
  aid: 'Application ID',
  cd: 'Screen name',
  gtm: 'Container hash',
  gcs: 'Consent status (gcs)',
  gcd: 'Consent mode v2 state (gcd)',
};

export const uaLabel = memo((key: string): string => {
  const known = UA_LABELS[key];
  if (known) return known;
  let match = /^cd(\d+)$/.exec(key);
  if (match) return `Custom dimension ${match[1]}`;
  match = /^cm(\d+)$/.exec(key);
  if (match) return `Custom metric ${match[1]}`;
  match = /^cg(\d+)$/.exec(key);
  if (match) return `Content group ${match[1]}`;
  match = /^pr(\d+)(id|nm|br|ca|va|pr|qt|cc|ps)$/.exec(key);
  if (match) {
    const sub: Record<string, string> = {
      id: 'ID',
      nm: 'name',
      br: 'brand',
      ca: 'category',
      va: 'variant',
      pr: 'price',
      qt: 'quantity',
      cc: 'coupon',
      ps: 'position',
    };
    return `Product ${match[1]} ${sub[match[2]!]}`;
  }
  match = /^il(\d+)pi(\d+)(id|nm|br|ca|va|pr|ps)$/.exec(key);
  if (match) return `Impression list ${match[1]} product ${match[2]} ${match[3]}`;
  return key;
});

export const ADS_LABELS: Record<string, string> = {
  label: 'Conversion label',
  value: 'Conversion value',
  currency_code: 'Currency',
  transaction_id: 'Transaction ID',
  oid: 'Order ID',
  en: 'Event name',
  data: 'Event data',
  url: 'Page URL',
  ref: 'Referrer',
  tiba: 'Page title',
  hn: 'Host name',
  random: 'Cache buster',
  cv: 'Tag version',
  fst: 'First-seen time',
  fmt: 'Response format',
  rfmt: 'Request format',
  bg: 'Background colour',
  guid: 'Google user ID lookup',
  async: 'Asynchronous tag',
  gtm: 'Container / gtag build hash',
  gcs: 'Consent status (gcs)',
  gcd: 'Consent mode v2 state (gcd)',
  dma: 'DMA (EEA) obligations apply',
  dma_cps: 'DMA consent purposes',
  npa: 'Non-personalised ads',
  pscdl: 'Privacy Sandbox cookie deprecation label',
  auid: 'Google Ads cookie ID (_gcl_au)',
  gclaw: 'Google Ads click cookie (_gcl_aw)',
  gac: 'Google Ads click ID (linked GA)',
  u_w: 'Screen width',
  u_h: 'Screen height',
  frm: 'Sent from an iframe',
  did: 'Developer ID',
  ec_mode: 'Enhanced conversions mode',
  em: 'Hashed user data (enhanced conversions)',
  eitems: 'Encrypted items',
  ...CLIENT_HINT_LABELS,
  tag_exp: 'Tag experiments',
  gcl_ctr: 'Click cookie counter',
  ct_cookie_present: 'Conversion cookie present',
  sscte: 'Server-side conversion tracking',
  crd: 'Conversion request data',
  item: 'Items (remarketing)',
  userId: 'User ID',
  ptag_exp: 'Page tag experiments',
  bttype: 'Conversion type hint',
  fledge: 'Protected Audience (FLEDGE) allowed',
  capi: 'Attribution Reporting API available',
  _tu: 'Tag usage flags (gtag internal)',
  gdid: 'Google developer ID',
  tcfd: 'TCF data flags',
  tid: 'Tag ID (AW-…)',
  rnd: 'Random number / cache buster',
  navt: 'Navigation type',
  scrsrc: 'Script source host',
  rcb: 'Request counter (gtag internal)',
  apvc: 'Attribution Reporting API: cookie (gtag internal)',
  ae: 'Attribution eligibility (gtag internal)',
};

/** Google Ads keys; `ccm/collect` pings also carry GA4-style keys (en, dl, dt …). */
export function adsLabel(key: string): string {
  return ADS_LABELS[key] ?? GA4_LABELS[key] ?? key;
}

export const FLOODLIGHT_LABELS: Record<string, string> = {
  src: 'Advertiser ID',
  dc_pre: 'Click / impression reference (dc_pre)',
  type: 'Activity group',
  cat: 'Activity tag',
  ord: 'Order ID / cache buster',
  num: 'Session number (unique counting)',
  qty: 'Quantity',
  cost: 'Revenue',
  tran: 'Transaction count',
  dc_lat: 'Limit ad tracking',
  dc_rdid: 'Device ID',
  tag_for_child_directed_treatment: 'Child-directed treatment',
  tfua: 'Under age of consent',
  npa: 'Non-personalised ads',
  gcs: 'Consent status (gcs)',
  gcd: 'Consent mode v2 state (gcd)',
  dma: 'DMA (EEA) obligations apply',
  dma_cps: 'DMA consent purposes',
  gtm: 'Container / gtag build hash',
  auiddc: 'Floodlight cookie ID',
  ps: 'Personalised ads allowed',
  pscdl: 'Privacy Sandbox cookie deprecation label',
  epver: 'Enhanced conversions version',
  tag_exp: 'Tag experiments',
  '~oref': 'Page URL',
  u_w: 'Screen width',
  u_h: 'Screen height',
  ...CLIENT_HINT_LABELS,
};

export const floodlightLabel = memo((key: string): string => {
  const known = FLOODLIGHT_LABELS[key];
  if (known) return known;
  const match = /^u(\d+)$/.exec(key);
  if (match) return `Custom variable u${match[1]}`;
  return key;
});

export const META_LABELS: Record<string, string> = {
  id: 'Pixel ID',
  ev: 'Event',
  eid: 'Event ID (deduplication)',
  dl: 'Page URL',
  rl: 'Referrer',
  if: 'Sent from an iframe',
  ts: 'Timestamp (ms)',
  sw: 'Screen width',
  sh: 'Screen height',
  v: 'Pixel version',
  r: 'Release segment',
  ec: 'Event count on the page',
  o: 'Pixel options flags',
  fbp: 'Browser ID (_fbp)',
  fbc: 'Click ID (_fbc)',
  it: 'Pixel init time (ms)',
  coo: 'Cookies disabled',
  rqm: 'Request method',
  es: 'Event source',
  tm: 'Traffic mode',
  exp: 'Experiments',
  a: 'Agent (partner integration)',
  cs_est: 'Automatic event setup',
  cas: 'Automatic advanced matching source',
  expv2: 'Experiments v2',
  ler: 'Load event result',
  plt: 'Page load time',
  pmd: 'Page metadata',
  dpo: 'Data processing options (LDU = Limited Data Use)',
  dpoco: 'Data processing options: country (0 = geolocate, 1 = USA)',
  dpost: 'Data processing options: state (0 = geolocate, 1000 = California …)',
  cdl: 'Conversion data layer status',
  noscript: 'No-JavaScript image tag',
  cf: 'Consent flags',
  hrl: 'Hashed referrer',
  ri: 'Request info',
};

export const metaLabel = memo((key: string): string => {
  const known = META_LABELS[key];
  if (known) return known;
  let match = /^cd\[(.+)\]$/.exec(key);
  if (match) return `${match[1]} (custom data)`;
  match = /^ud\[(.+)\]$/.exec(key);
  if (match) return `${match[1]} (user data, hashed)`;
  match = /^pmd\[(.+)\]$/.exec(key);
  if (match) return `${match[1]} (page metadata)`;
  return key;
});

// The ad pixels' tables live in their decoders' files (one file per vendor); re-exported here for
// the code that imported them from this module.
export { LINKEDIN_LABELS } from './decoders/linkedin.js';
export { UET_LABELS } from './decoders/microsoft-uet.js';
export { PINTEREST_LABELS } from './decoders/pinterest.js';
export { REDDIT_LABELS } from './decoders/reddit.js';
export { SNAPCHAT_LABELS } from './decoders/snapchat.js';
export { TIKTOK_LABELS } from './decoders/tiktok.js';
export { X_LABELS } from './decoders/x.js';

/** Label for a flattened key: known names first, then the last path segment of JSON keys. */
export function pathLabel(labels: Record<string, string>): (key: string) => string {
  return memo((key: string): string => labels[key] ?? key);
}

export function labelled(pairs: Iterable<[string, string]>, label: (key: string) => string): DecodedParam[] {
  const params: DecodedParam[] = [];
  for (const [key, value] of pairs) params.push({ key, name: label(key), value });
  return params;
}
