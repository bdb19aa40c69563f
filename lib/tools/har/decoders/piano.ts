import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { ConsentState } from '../types.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { field, flatten, isObject, tryJson } from './shared.js';

/**
 * Piano Analytics (formerly AT Internet). The Piano Analytics SDK sends its events to the site's
 * collection domain — `https://<collect domain>/event?s=<site id>&idclient=<visitor id>` (Piano's
 * `*.pa-cd.com`, `logs*.xiti.com`, or a first-party domain) — as a POST JSON body
 * `{"events":[{"name":"page.display","data":{"page":…,"page_chapter1":…}}]}`, one hit per event (or,
 * for a GET, the same JSON in an `events` query parameter). Privacy modes travel as
 * `visitor_privacy_mode` (optin, optout, exempt, no-consent, no-storage). The older AT Internet
 * SmartTag sent `…/hit.xiti?s=<site>&s2=<level 2>&p=<page>&…` (still served): decoded with a note.
 * Sources: Piano Analytics' "Collection API" and "Standard properties" documentation, the "Privacy"
 * guide (privacy modes), and AT Internet's SmartTag "Hit parameters" reference.
 */
const PIANO_LABELS: Record<string, string> = {
  s: 'Site ID',
  idclient: 'Visitor ID',
  events: 'Events (JSON)',
  name: 'Event name',
  'data.page': 'Page name',
  'data.page_chapter1': 'Page chapter 1',
  'data.page_chapter2': 'Page chapter 2',
  'data.page_chapter3': 'Page chapter 3',
  'data.page_full_name': 'Page full name',
  'data.site_level2': 'Site level 2',
  'data.event_url_full': 'Page URL',
  'data.event_url_domain': 'Page domain',
  'data.previous_url': 'Referrer',
  'data.previous_url_domain': 'Referrer domain',
  'data.click': 'Click name',
  'data.click_chapter1': 'Click chapter 1',
  'data.click_full_name': 'Click full name',
  'data.visitor_privacy_mode': 'Privacy mode',
  'data.visitor_privacy_consent': 'Privacy consent',
  'data.user_id': 'User ID',
  'data.user_category': 'User category',
  'data.src': 'Traffic source',
  'data.src_medium': 'Traffic source medium',
  'data.device_type': 'Device type',
  'data.browser': 'Browser',
  'data.os': 'Operating system',
  'data.app_id': 'Application ID',
  'data.event_collection_platform': 'Collection platform',
  'data.event_collection_version': 'SDK version',
  'data.transaction_id': 'Transaction ID',
  'data.cart_id': 'Cart ID',
  'data.cart_turnovertaxincluded': 'Cart amount (tax included)',
  'data.cart_currency': 'Cart currency',
  // AT Internet SmartTag (hit.xiti)
  s2: 'Level 2 site',
  p: 'Page name (chapters::page)',
  col: 'Protocol version',
  vtag: 'SmartTag version',
  ptag: 'Tag type',
  r: 'Screen (resolution, colour depth)',
  re: 'Window size',
  ref: 'Referrer',
  lng: 'Language',
  ts: 'Timestamp',
  from: 'Hit generation method',
  an: 'Visitor numeric ID',
  at: 'Visitor text ID',
  ac: 'Visitor category',
  dg: 'Display size type',
  click: 'Click type (A action, N navigation, S exit, T download)',
  pclick: 'Clicked page name',
  s2click: 'Clicked page level 2',
  mc: 'Search keyword',
  np: 'Search result count',
  mcrg: 'Clicked search result position',
  type: 'Hit type',
  stc: 'Custom variables (JSON)',
  idp: 'Hit ID',
};

const pianoLabel = labeller(
  PIANO_LABELS,
  (key) => {
    const site = /^x(\d+)$/.exec(key);
    if (site) return `Site custom variable ${site[1]}`;
    const page = /^f(\d+)$/.exec(key);
    return page ? `Page custom variable ${page[1]}` : undefined;
  },
  (key) => (key.startsWith('data.') ? `${key.slice(5)} (property)` : undefined),
);

const PIANO_HOST = /(^|\.)(pa-cd\.com|xiti\.com|ati-host\.net)$/;

function privacy(mode: string | undefined): ConsentState | null {
  if (!mode) return null;
  const state =
    mode === 'optin' || mode === 'exempt'
      ? 'granted'
      : mode === 'optout' || mode === 'no-consent' || mode === 'no-storage'
        ? 'denied'
        : 'not set';
  return { source: 'piano', signals: [{ type: 'privacy_mode', state, code: mode }], text: `Piano privacy mode: ${mode}` };
}

function decodeXiti(request: CapturedRequest, query: Pairs): HitDraft[] {
  const value = (key: string) => lastValue(query, key);
  const click = value('click');
  const type = click ? `click (${click})` : value('type') ? value('type')! : 'page view';
  return [
    hitOf(request, {
      vendor: 'piano',
      type,
      accountId: value('s'),
      title: value('p'),
      referrer: value('ref'),
      clientId: value('idclient'),
      params: [requestKind('AT Internet SmartTag hit (hit.xiti)'), ...named(query, pianoLabel)],
      formatNote: 'Older format: the AT Internet SmartTag hit (hit.xiti); the Piano Analytics SDK posts JSON events to /event',
    }),
  ];
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (/\/hit\.xiti$/i.test(request.path)) return decodeXiti(request, query);
  if (!/^\/event\/?$/i.test(request.path)) return null;
  const site = lastValue(query, 's');
  const ours = PIANO_HOST.test(request.host);
  const body = tryJson(request.body) ?? tryJson(lastValue(query, 'events'));
  const list = isObject(body) && Array.isArray(body.events) ? body.events : Array.isArray(body) ? body : null;
  // On a first-party domain, `/event` is only Piano's with a numeric site id and Piano's event shape.
  if (!ours && !(site && /^\d+$/.test(site) && list && list.some((event) => isObject(event) && /\./.test(field(event.name) ?? ''))))
    return null;
  const kind = requestKind(`Piano Analytics collection (${request.method === 'GET' ? 'GET' : 'POST'})`);
  const shared = query.filter(([key]) => key !== 'events');
  const events = (list ?? []).filter(isObject);
  if (events.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'piano',
        accountId: site,
        params: [kind, ...named(query, pianoLabel)],
        reason:
          request.body || lastValue(query, 'events')
            ? 'No events could be read (the JSON does not parse, or has no "events")'
            : 'No events: neither a body nor an events parameter',
      }),
    ];
  }
  return events.map((event, index) => {
    const pairs = [...flatten(event, '', 'dot', []), ...shared];
    const value = (key: string) => lastValue(pairs, key);
    const fields = {
      vendor: 'piano' as const,
      accountId: site,
      page: value('data.event_url_full'),
      title: value('data.page'),
      referrer: value('data.previous_url'),
      clientId: lastValue(query, 'idclient') ?? value('data.user_id'),
      params: [kind, ...named(pairs, pianoLabel)],
      consent: privacy(value('data.visitor_privacy_mode')),
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
    };
    const name = field(event.name);
    if (!name) return invalidHit(request, { ...fields, reason: 'An event without a name: Piano Analytics rejects it' });
    return hitOf(request, { ...fields, type: name });
  });
}

export const piano: VendorDecoder<'piano'> = {
  id: 'piano',
  label: 'Piano Analytics (AT Internet)',
  kind: 'analytics',
  hosts: ['pa-cd.com', 'xiti.com', 'ati-host.net'],
  anyHost: /\/hit\.xiti(?:[?#]|$)|\/event\?(?:[^#]*&)?s=\d/i,
  accountLabel: 'site ID (s)',
  labels: PIANO_LABELS,
  decode,
  check(hit, warn) {
    const mode = hit.consent?.source === 'piano' ? hit.consent.signals[0]?.code : undefined;
    if (mode === 'optout' || mode === 'no-consent' || mode === 'no-storage') {
      warn(
        'consent_denied',
        'info',
        `Piano Analytics event sent in privacy mode "${mode}": Piano keeps only the properties that mode allows`,
      );
    }
  },
};
