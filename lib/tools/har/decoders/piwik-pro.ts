import type { Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { labeller, type VendorDecoder } from '../vendor.js';
import { checkMatomoProtocol, decodeMatomoProtocol, MATOMO_LABELS } from './matomo.js';

/**
 * Piwik PRO: its tracker speaks the Matomo tracking protocol, to `https://<account>.piwik.pro/ppms.php`
 * (also `<account>.containers.piwik.pro`, `*.piwik.cloud`, a custom or first-party domain, and
 * `piwik.php` on Piwik PRO's own hosts). `idsite` is the site or app ID (a UUID). Piwik PRO adds its
 * tracker's name and version (`ts_n`, `ts_v`), user-identity and page-timing parameters (`t_us` …).
 * Bulk requests (`{"requests":[…]}`) give one hit per entry, as for Matomo.
 * Source: Piwik PRO's "Tracking HTTP API" reference (developers.piwik.pro, Data collection).
 */
const PIWIK_PRO_LABELS: Record<string, string> = {
  ...MATOMO_LABELS,
  idsite: 'Site or app ID',
  ts_n: 'Tracker name',
  ts_v: 'Tracker version',
  uia: 'User ID (additional)',
  exit: 'Exit link',
  t_us: 'Timing: unload start',
  t_ue: 'Timing: unload end',
  t_rs: 'Timing: redirect start',
  t_re: 'Timing: redirect end',
  t_fs: 'Timing: fetch start',
  t_ss: 'Timing: secure connection start',
  t_ds: 'Timing: DNS lookup start',
  t_cs: 'Timing: connect start',
  t_ce: 'Timing: connect end',
  t_qs: 'Timing: request start',
  t_as: 'Timing: response start',
  t_ae: 'Timing: response end',
  t_dl: 'Timing: DOM loading',
  t_di: 'Timing: DOM interactive',
  t_ls: 'Timing: DOM content loaded start',
  t_le: 'Timing: DOM content loaded end',
  t_dc: 'Timing: DOM complete',
  t_ee: 'Timing: load event end',
};

const piwikProLabel = labeller(PIWIK_PRO_LABELS, (key) => {
  const dimension = /^dimension(\d+)$/.exec(key);
  return dimension ? `Custom dimension ${dimension[1]}` : undefined;
});

const PIWIK_PRO_HOST = /(^|\.)(piwik\.pro|piwik\.cloud|piwikpro\.com)$/;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const ppms = /\/ppms\.php$/i.test(request.path);
  if (!ppms && !(PIWIK_PRO_HOST.test(request.host) && /\/piwik\.php$/i.test(request.path))) return null;
  return decodeMatomoProtocol(request, query, {
    vendor: 'piwik-pro',
    label: piwikProLabel,
    kindOf: () => `Piwik PRO tracking request (${ppms ? 'ppms.php' : 'piwik.php'})`,
  });
}

export const piwikPro: VendorDecoder<'piwik-pro'> = {
  id: 'piwik-pro',
  label: 'Piwik PRO',
  kind: 'analytics',
  hosts: ['piwik.pro', 'piwik.cloud', 'piwikpro.com'],
  anyHost: /\/ppms\.php(?:[?#]|$)/i,
  accountLabel: 'site or app ID (idsite)',
  labels: PIWIK_PRO_LABELS,
  decode,
  check: (hit, warn) => checkMatomoProtocol(hit, warn, 'Piwik PRO'),
};
