import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { ConsentState } from '../types.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Comscore (the Unified Digital Measurement / Media Metrix web tag): beacons to
 * `https://sb.scorecardresearch.com/b?c1=2&c2=<client id>&…` (`/b2`, and `/p`, `/p2` for the noscript
 * image; also b.scorecardresearch.com). `c1=2` is the web tag, `c2` the client ID, `c7`/`c8`/`c9`
 * the page URL, title and referrer, `cs_ucfr` the user's consent for research (1 given, 0 not given,
 * empty unknown), `cs_fp*` the first-party ID.
 * Sources: Comscore's "Tag Implementation Guide" for the Unified Digital Measurement web tag, and its
 * consent-signal documentation (cs_ucfr).
 */
const COMSCORE_LABELS: Record<string, string> = {
  c1: 'Tag type (2 = web)',
  c2: 'Client ID',
  c3: 'Publisher / campaign field c3',
  c4: 'Publisher / campaign field c4',
  c5: 'Publisher / campaign field c5',
  c6: 'Publisher / campaign field c6',
  c7: 'Page URL',
  c8: 'Page title',
  c9: 'Referrer',
  c10: 'Platform field c10',
  c12: 'Visitor ID (c12)',
  c14: 'Platform field c14',
  cv: 'Tag version',
  cj: 'JavaScript tag',
  cs_ucfr: 'User consent for research (1 given, 0 not given)',
  cs_fpid: 'First-party ID',
  cs_fpit: 'First-party ID type',
  cs_fpdm: 'First-party ID domain marker',
  cs_fpdt: 'First-party ID date',
  cs_pv: 'Page view ID',
  cs_it: 'Implementation type',
  cs_cfg: 'Configuration flags',
  cs_si: 'Session ID',
  ns_type: 'Event type (view, hidden)',
  ns__t: 'Timestamp (ms)',
  ns_c: 'Character set',
  ns_site: 'Site',
  ns_ap_an: 'Application name',
  comscorekw: 'Keywords',
  rn: 'Random number',
  gdpr: 'GDPR applies',
  gdpr_consent: 'IAB TCF consent string',
  gdpr_purps: 'TCF purposes',
  gdpr_li: 'TCF legitimate interest',
  gdpr_pcc: 'TCF publisher country code',
  us_privacy: 'US privacy string (CCPA)',
};

const comscoreLabel = labeller(COMSCORE_LABELS);

function consentOf(ucfr: string | undefined): ConsentState | null {
  if (ucfr === undefined) return null;
  const state = ucfr === '1' ? 'granted' : ucfr === '0' ? 'denied' : 'not set';
  return {
    source: 'comscore',
    signals: [{ type: 'cs_ucfr', state, code: ucfr || '(empty)' }],
    text: `Comscore user consent for research (cs_ucfr): ${state === 'not set' ? 'unknown (empty)' : state}`,
  };
}

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  if (!/^\/[bp]2?\/?$/.test(request.path)) return null;
  const pairs = formPairs(request, query);
  const value = (key: string) => lastValue(pairs, key);
  const type = value('ns_type') === 'hidden' ? 'hidden event' : 'page view';
  return [
    hitOf(request, {
      vendor: 'comscore',
      type,
      accountId: value('c2'),
      page: value('c7'),
      title: value('c8'),
      referrer: value('c9'),
      clientId: value('cs_fpid') ?? value('c12'),
      params: [requestKind(request.path.startsWith('/p') ? 'Noscript image (/p)' : 'Beacon (/b)'), ...named(pairs, comscoreLabel)],
      consent: consentOf(value('cs_ucfr')),
    }),
  ];
}

export const comscore: VendorDecoder<'comscore'> = {
  id: 'comscore',
  label: 'Comscore',
  kind: 'analytics',
  hosts: ['scorecardresearch.com'],
  accountLabel: 'client ID (c2)',
  labels: COMSCORE_LABELS,
  decode,
  check(hit, warn) {
    if (paramOf(hit, 'c1') !== undefined && paramOf(hit, 'c1') !== '2') {
      warn('vendor_rule', 'warning', `Comscore c1=${paramOf(hit, 'c1')} on a web page: the web tag sends c1=2`);
    }
    if (hit.consent?.signals[0]?.state === 'denied') {
      warn('consent_denied', 'info', 'Comscore beacon sent with cs_ucfr=0: the visitor did not consent to research measurement');
    }
  },
};
