import { lastValue, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs, subdomain } from './shared.js';

/**
 * Adobe Audience Manager and the Experience Cloud Identity Service, on demdex.net:
 * - `https://<partner>.demdex.net/event?d_…&c_…` — a DCS event call (DIL, or the Audience Manager
 *   tag extension): the hit, its attributes `c_` (customer), `p_` (private), `d_` (Audience Manager);
 * - `https://dpm.demdex.net/ibs:dpid=<data source>&dpuuid=<partner user id>` — an ID sync, parameters
 *   after the colon in the path: a secondary request;
 * - `https://dpm.demdex.net/id?d_visid_ver=…&d_orgid=…@AdobeOrg` — the Experience Cloud ID
 *   service's ECID request: a secondary request (not an event).
 * Sources: Adobe's Audience Manager "DCS Event Call APIs" and "Supported Attributes for DCS API
 * Calls" references, and the Experience Cloud Identity Service's "Understanding ID synchronization".
 */
const ADOBE_AUDIENCE_MANAGER_LABELS: Record<string, string> = {
  d_caller: 'Caller',
  d_cb: 'Callback function',
  d_cid: 'Data provider ID and user ID',
  d_cid_ic: 'Integration code and user ID',
  d_coppa: 'COPPA: no third-party cookies',
  d_cts: 'Return traits and segments',
  d_dpid: 'Data provider ID',
  d_dpuuid: 'Data provider user ID',
  d_dst: 'Return URL destinations',
  d_dst_filter: 'Analytics destination filter',
  d_jsonv: 'JSON response version',
  d_mid: 'Experience Cloud ID (ECID)',
  d_nsid: 'Namespace ID',
  d_ptfm: 'Platform',
  d_rs: 'Analytics report suite (legacy integration)',
  d_rtbd: 'Return method (json)',
  d_sid: 'Segment / score ID',
  d_tdpid: 'Trait source ID',
  d_tdpid_ic: 'Trait source integration code',
  d_uuid: 'Audience Manager unique user ID',
  d_orgid: 'Experience Cloud organisation ID',
  d_visid_ver: 'Visitor API version',
  d_fieldgroup: 'Field group',
  d_ver: 'Response version',
  d_blob: 'Audience Manager blob',
  d_cf: 'Customer flags',
  dcs_region: 'DCS region (location hint)',
  dpid: 'Data provider ID (ID sync)',
  dpuuid: 'Partner user ID (ID sync)',
  redir: 'Redirect URL (ID sync)',
  gdpr: 'GDPR applies',
  gdpr_consent: 'IAB TCF consent string',
  ts: 'Timestamp',
};

const aamLabel = labeller(ADOBE_AUDIENCE_MANAGER_LABELS, (key) => {
  if (key.startsWith('c_')) return `${key.slice(2)} (customer attribute)`;
  if (key.startsWith('p_')) return `${key.slice(2)} (private attribute, not stored)`;
  if (key.startsWith('h_')) return `${key.slice(2)} (HTTP header data)`;
  return undefined;
});

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const path = request.path;
  const partner = subdomain(request.host, '.demdex.net');
  if (/^\/ibs:/i.test(path)) {
    const pairs = [...parsePairs(path.slice(5)), ...query];
    return [
      hitOf(request, {
        vendor: 'adobe-audience-manager',
        type: 'ID sync',
        accountId: lastValue(pairs, 'dpid'),
        params: [requestKind('ID synchronisation (ibs)'), ...named(pairs, aamLabel)],
        secondary: 'Audience Manager ID synchronisation with a partner: not an event',
      }),
    ];
  }
  if (/^\/id\/?$/i.test(path)) {
    return [
      hitOf(request, {
        vendor: 'adobe-audience-manager',
        type: 'ECID request',
        accountId: lastValue(query, 'd_orgid'),
        clientId: lastValue(query, 'd_mid') ?? lastValue(query, 'mid'),
        params: [requestKind('Experience Cloud Identity Service (ECID) request'), ...named(query, aamLabel)],
        secondary: 'Experience Cloud ID service request (visitor ID), not an event',
      }),
    ];
  }
  if (!/^\/event\/?$/i.test(path)) return null;
  const pairs = formPairs(request, query);
  return [
    hitOf(request, {
      vendor: 'adobe-audience-manager',
      type: 'event call',
      accountId: partner && partner !== 'dpm' ? partner : null,
      page: lastValue(pairs, 'c_url') ?? lastValue(pairs, 'c_page'),
      clientId: lastValue(pairs, 'd_uuid') ?? lastValue(pairs, 'd_mid'),
      params: [requestKind('DCS event call'), ...named(pairs, aamLabel)],
    }),
  ];
}

export const adobeAudienceManager: VendorDecoder<'adobe-audience-manager'> = {
  id: 'adobe-audience-manager',
  label: 'Adobe Audience Manager',
  kind: 'ads',
  hosts: ['demdex.net'],
  accountLabel: 'partner subdomain',
  labels: ADOBE_AUDIENCE_MANAGER_LABELS,
  decode,
};
