import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';

/**
 * Google Tag Manager containers and Google tags (gtag.js), as their snippets load them:
 * `https://www.googletagmanager.com/gtm.js?id=GTM-XXXX[&l=dataLayer][&gtm_auth=…&gtm_preview=env-N]`,
 * `…/gtag/js?id=G-…|AW-…|DC-…|GT-…`, the noscript iframe `…/ns.html?id=GTM-XXXX`. Each is a
 * "container loaded" entry with the container (or tag) id. The same files served from a first-party
 * domain (server-side GTM: `https://sst.example.com/gtm.js?id=GTM-…`) or through Google tag gateway
 * (`https://www.example.com/<measurement path>/?id=GTM-…`) are recognised too. A container loaded
 * with `gtm_preview` is an environment or a preview, not the live version: warned about.
 * `…/gtag/destination?id=…` (a destination's configuration) and Google's tag diagnostics pings
 * (`/a?id=…`, `/td?id=…`) are secondary.
 * Sources: Google's Tag Manager "Install Tag Manager" and "Environments" help pages, the Google tag
 * developer guide, "Server-side tagging: serve Google scripts first-party" and "Google tag gateway
 * for advertisers".
 */
const GOOGLE_TAG_MANAGER_LABELS: Record<string, string> = {
  id: 'Container / tag ID',
  l: 'Data layer name',
  gtm_auth: 'Environment authorisation',
  gtm_preview: 'Environment / preview (env-N)',
  gtm_cookies_win: 'Environment cookies (x)',
  gtm_debug: 'Debug mode',
  cx: 'Tag gateway marker (c)',
  cv: 'Container version',
  v: 'Ping version',
  t: 'Ping type',
  pid: 'Page ID',
  rv: 'Container build',
  tv: 'Template version',
};

const gtmLabel = labeller(GOOGLE_TAG_MANAGER_LABELS);

const GOOGLE_HOST = /(^|\.)googletagmanager\.com$/;
const ID = /^(GTM|GT|G|AW|DC)-[A-Z0-9]+$/i;

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const id = lastValue(query, 'id');
  const path = request.path;
  const google = GOOGLE_HOST.test(request.host);
  const gtmJs = /\/gtm\.js$/i.test(path);
  const gtagJs = /\/gtag\/js\/?$/i.test(path);
  const noscript = /\/ns\.html$/i.test(path);
  const destination = /\/gtag\/destination\/?$/i.test(path);
  const ping = google && /^\/(?:a|td)\/?$/i.test(path);
  // Google tag gateway: the tag served from the measurement path's root (`/metrics/?id=…`).
  const gateway = !google && !gtmJs && !gtagJs && /^\/[A-Za-z0-9_-]{1,32}\/$/.test(path) && ID.test(id ?? '');
  if (!gtmJs && !gtagJs && !noscript && !destination && !ping && !gateway) return null;
  if (!google && !ID.test(id ?? '')) return null;
  const params = [
    requestKind(
      ping
        ? 'Google tag diagnostics ping'
        : `${gtmJs || noscript || /^GTM-/i.test(id ?? '') ? 'Tag Manager container' : 'Google tag'}${noscript ? ' (noscript iframe)' : ''}${
            google ? '' : gateway ? ' served through Google tag gateway' : ' served first-party (server-side tagging)'
          }`,
    ),
    ...named(query, gtmLabel),
  ];
  const common = { vendor: 'google-tag-manager' as const, accountId: id, params, container: true, body: null };
  if (ping || destination) {
    return [
      hitOf(request, {
        ...common,
        type: ping ? 'diagnostics ping' : 'destination config',
        secondary: ping ? 'Google tag diagnostics ping: not a measurement' : 'Configuration of a Google tag destination, loaded by the tag',
      }),
    ];
  }
  const type = /^GTM-/i.test(id ?? '') || gtmJs || noscript ? 'container loaded' : 'Google tag loaded';
  return [hitOf(request, { ...common, type })];
}

export const googleTagManager: VendorDecoder<'google-tag-manager'> = {
  id: 'google-tag-manager',
  label: 'Google Tag Manager',
  kind: 'tag-manager',
  hosts: ['googletagmanager.com'],
  anyHost: /\/gtm\.js(?:[?#]|$)|\/gtag\/js(?:[?#]|$)|[?&]id=(?:GTM|GT|G|AW|DC)-[A-Z0-9]+/i,
  accountLabel: 'container ID',
  labels: GOOGLE_TAG_MANAGER_LABELS,
  decode,
  check(hit, warn) {
    const preview = paramOf(hit, 'gtm_preview');
    if (preview) {
      warn(
        'non_production_container',
        'warning',
        `${hit.accountId ?? 'The container'} loaded as environment or preview ${preview}: not the live version`,
      );
    }
  },
};
