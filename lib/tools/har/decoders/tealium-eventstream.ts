import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, invalidHit, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { bodyPairs, flatten, isObject, tryJson } from './shared.js';

/**
 * Tealium EventStream (the Tealium Collect tag, Tealium's HTTP API): events to
 * `https://collect.tealiumiq.com/event` (regional `collect-<region>.tealiumiq.com`, or a first-party
 * domain) as a flat JSON body or form (GET: the query string), with `tealium_account`,
 * `tealium_profile`, `tealium_event` … Up to ten events in one request go to `/bulk-event`:
 * `{"shared":{…},"events":[{…},{…}]}`, one hit per event, each with the shared attributes. The older
 * Collect tag sent `https://datacloud.tealiumiq.com/<account>/<profile>/2/i.gif?…` (the "vdata"
 * pixel): decoded with a note.
 * Sources: Tealium's "HTTP API for EventStream" (event and bulk-event endpoints) and the "Tealium
 * Collect tag" documentation.
 */
const TEALIUM_EVENTSTREAM_LABELS: Record<string, string> = {
  tealium_account: 'Account',
  tealium_profile: 'Profile',
  tealium_event: 'Event',
  tealium_datasource: 'Data source key',
  tealium_environment: 'Environment',
  tealium_visitor_id: 'Visitor ID',
  tealium_session_id: 'Session ID',
  tealium_session_number: 'Session number',
  tealium_session_event_number: 'Event number in the session',
  tealium_library_name: 'Library',
  tealium_library_version: 'Library version',
  tealium_timestamp_epoch: 'Timestamp (epoch)',
  tealium_timestamp_utc: 'Timestamp (UTC)',
  tealium_random: 'Random number',
  tealium_firstparty_visitor_id: 'First-party visitor ID',
  'dom.url': 'Page URL',
  'dom.referrer': 'Referrer',
  'dom.title': 'Page title',
  'dom.domain': 'Domain',
  'dom.pathname': 'Page path',
  'dom.query_string': 'Query string',
  'dom.hash': 'URL fragment',
  'dom.viewport_height': 'Viewport height',
  'dom.viewport_width': 'Viewport width',
  'cp.utag_main_v_id': 'Visitor ID (utag_main cookie)',
  'cp.utag_main_ses_id': 'Session ID (utag_main cookie)',
  'cp.utag_main__sn': 'Session number (utag_main cookie)',
  'ut.account': 'Account (utag)',
  'ut.profile': 'Profile (utag)',
  'ut.env': 'Environment (utag)',
  'ut.event': 'Event (utag)',
  'ut.version': 'utag version',
  'ut.visitor_id': 'Visitor ID (utag)',
  'ut.session_id': 'Session ID (utag)',
  page_name: 'Page name (data layer)',
  page_type: 'Page type (data layer)',
  event_name: 'Event name (data layer)',
};

const eventstreamLabel = labeller(TEALIUM_EVENTSTREAM_LABELS, (key) => {
  const prefix = /^(browser|dom|js_page|meta|cp|qp|va)\.(.+)$/.exec(key);
  return prefix ? `${prefix[2]} (${prefix[1]})` : undefined;
});

function attributes(value: unknown): Pairs {
  return isObject(value) ? flatten(value, '', 'dot', []) : [];
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const vdata = /^\/([^/]+)\/([^/]+)\/\d+\/i\.gif$/.exec(request.path);
  const bulk = /^\/bulk-event\/?$/i.test(request.path);
  const single = /^\/event\/?$/i.test(request.path);
  if (!vdata && !bulk && !single) return null;
  const body = tryJson(request.body);
  const kind = requestKind(vdata ? 'Collect tag pixel (i.gif)' : bulk ? 'EventStream bulk-event' : 'EventStream event');
  let events: Pairs[];
  if (bulk && isObject(body)) {
    const shared = attributes(body.shared);
    events = (Array.isArray(body.events) ? body.events : []).map((event) => [...shared, ...attributes(event)]);
  } else {
    events = [[...query, ...(isObject(body) ? attributes(body) : bodyPairs(request))]];
  }
  if (events.length === 0 || events[0]!.length === 0) {
    return [
      invalidHit(request, {
        vendor: 'tealium-eventstream',
        accountId: vdata ? `${vdata[1]}/${vdata[2]}` : null,
        params: [kind, ...named(query, eventstreamLabel)],
        reason: request.body ? 'No event attributes could be read from the body' : 'No event attributes: nothing to collect',
      }),
    ];
  }
  return events.map((pairs, index) => {
    const value = (key: string) => lastValue(pairs, key);
    const account = value('tealium_account') ?? vdata?.[1];
    const profile = value('tealium_profile') ?? vdata?.[2];
    const fields = {
      vendor: 'tealium-eventstream' as const,
      accountId: account ? `${account}/${profile ?? '?'}` : null,
      page: value('dom.url') ?? value('url'),
      referrer: value('dom.referrer'),
      title: value('dom.title') ?? value('page_name'),
      clientId: value('tealium_visitor_id') ?? value('cp.utag_main_v_id'),
      params: [kind, ...named(pairs, eventstreamLabel)],
      batch: events.length > 1 ? { index: index + 1, size: events.length } : null,
    };
    const type = value('tealium_event') ?? value('event_name') ?? value('ut.event');
    if (!account) return invalidHit(request, { ...fields, type, reason: 'No tealium_account: EventStream cannot route the event' });
    return hitOf(request, {
      ...fields,
      type: type ?? 'event',
      ...(vdata
        ? {
            formatNote:
              'Older format: the Collect tag’s i.gif pixel on datacloud.tealiumiq.com (current tags post to collect.tealiumiq.com/event)',
          }
        : {}),
    });
  });
}

export const tealiumEventstream: VendorDecoder<'tealium-eventstream'> = {
  id: 'tealium-eventstream',
  label: 'Tealium EventStream',
  kind: 'analytics',
  hosts: ['tealiumiq.com'],
  anyHost: /[?&]tealium_account=/i,
  accountLabel: 'account/profile',
  labels: TEALIUM_EVENTSTREAM_LABELS,
  decode,
  check(hit, warn) {
    if (!hit.params.some((param) => param.key === 'tealium_event')) {
      warn('event_unnamed', 'warning', 'Tealium event without tealium_event: EventStream rules on the event name cannot match it');
    }
  },
};
