import { META_LABELS, metaLabel } from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';
import type { ConsentState } from '../types.js';
import { hitOf, invalidHit, named, type VendorDecoder } from '../vendor.js';
import { multipartPairs } from './shared.js';

/** The `dpost` code Meta's documentation gives (others are shown as numbers). */
const LDU_STATES: Record<string, string> = { '1000': 'California' };

/**
 * Meta's Limited Data Use (data processing options, developers.facebook.com/docs/marketing-api/
 * data-processing-options): `dpo=LDU&dpoco=0&dpost=0` asks Meta to geolocate the visitor and limit
 * processing where the law requires it, `dpo=LDU&dpoco=1&dpost=1000` states the place (USA,
 * California), an empty `dpo=` explicitly does not enable it. Meta's consent API
 * (`fbq('consent', 'revoke')`) holds events back in the browser: a pixel request that reaches the
 * network was sent with consent granted or without the consent API, so it carries no consent flag.
 */
export function decodeLimitedDataUse(dpo: string | undefined, country: string | undefined, state: string | undefined): ConsentState | null {
  if (dpo === undefined) return null;
  const on = dpo.toUpperCase().includes('LDU');
  let where = '';
  if (on) {
    if (country === '0' || (country === undefined && state === undefined)) where = 'place: geolocated by Meta';
    else if (country === '1')
      where = `place: USA${state && state !== '0' ? `, ${LDU_STATES[state] ?? `state ${state}`}` : ', state geolocated'}`;
    else if (country) where = `country ${country}${state ? `, state ${state}` : ''}`;
  }
  return {
    source: 'meta-ldu',
    signals: [{ type: 'limited_data_use', state: on ? 'denied' : 'granted', code: dpo || '(empty)' }],
    text: on
      ? `Limited Data Use on: Meta restricts how it processes this event (${where})`
      : 'Limited Data Use explicitly off (empty dpo): Meta processes the event normally',
  };
}

/**
 * The pixel's own files on connect.facebook.net: fbevents.js (the library) and its per-pixel
 * configuration `signals/config/<pixel id>` ("tag loaded" entries, the configuration secondary).
 */
function decodeScript(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const config = /^\/signals\/config\/(\d+)\/?$/.exec(request.path);
  const library = /^\/[a-z]{2}_[A-Z]{2}\/fbevents\.js$/.test(request.path);
  if (!config && !library) return null;
  return [
    hitOf(request, {
      vendor: 'meta',
      type: config ? 'pixel configuration loaded' : 'tag loaded',
      accountId: config?.[1],
      params: named(queryPairs, metaLabel),
      container: true,
      body: null,
      ...(config ? { secondary: 'The pixel’s configuration, loaded by fbevents.js' } : {}),
    }),
  ];
}

/**
 * Meta (Facebook) pixel: `https://www.facebook.com/tr/?id=…&ev=PageView&dl=…` as an image GET, or a
 * POST (beacon / form) with the same parameters in a URL-encoded or multipart body. Custom data
 * arrives as `cd[value]`, `cd[currency]`, `cd[contents]` (JSON) …
 */
export function decodeMeta(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (/(^|\.)facebook\.net$/.test(request.host)) return decodeScript(request, queryPairs);
  const sandbox = /^\/privacy_sandbox\/pixel\/register\/trigger\/?$/.test(request.path);
  if (!/(^|\.)facebook\.com$/.test(request.host) || (!/^\/tr\/?$/.test(request.path) && !sandbox)) return null;
  let bodyPairs: Pairs = request.bodyParams ?? [];
  if (!bodyPairs.length && request.body) {
    bodyPairs = multipartPairs(request.body) ?? parsePairs(request.body);
  }
  const pairs: Pairs = [...queryPairs, ...bodyPairs];
  const value = (key: string) => lastValue(pairs, key);
  if (!value('id') && !value('ev')) {
    return [
      invalidHit(request, {
        vendor: 'meta',
        accountId: null,
        params: named(pairs, metaLabel),
        reason: 'Neither a pixel ID (id) nor an event (ev): Meta cannot use the request',
      }),
    ];
  }
  const ev = value('ev');
  return [
    {
      ...baseOf(request),
      batch: null,
      vendor: 'meta',
      type: value('ev') ?? '(no event)',
      accountId: value('id') ?? null,
      page: value('dl') ?? request.referer,
      referrer: value('rl') ?? null,
      title: null,
      clientId: value('fbp') ?? null,
      params: pairs.map(([key, val]) => ({ key, name: metaLabel(key), value: val })),
      items: [],
      consent: decodeLimitedDataUse(value('dpo'), value('dpoco'), value('dpost')),
      body: request.body,
      ...(sandbox ? { secondary: 'Attribution Reporting trigger registration (Privacy Sandbox): repeats the event' } : {}),
      ...(ev === 'PixelInitialized'
        ? { formatNote: 'Older format: PixelInitialized, sent by the 2015 "Custom Audience" pixel (fbevents.js sends PageView)' }
        : {}),
    },
  ];
}

export const meta: VendorDecoder<'meta'> = {
  id: 'meta',
  label: 'Meta pixel',
  kind: 'ads',
  hosts: ['facebook.com', 'facebook.net'],
  accountLabel: 'pixel ID',
  labels: META_LABELS,
  decode: decodeMeta,
};
