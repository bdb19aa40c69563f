import { decodeConsent } from '../consent.js';
import { ADS_LABELS, adsLabel } from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';
import type { VendorDecoder } from '../vendor.js';

/**
 * Google Ads conversion and remarketing requests sent by gtag.js / GTM:
 * - googleads.g.doubleclick.net/pagead/viewthroughconversion/<conversion id>/ (remarketing, and the
 *   view-through part of a conversion),
 * - www.googleadservices.com/pagead/conversion/<id>/ and googleads…/pagead/conversion/<id>/
 *   (conversions),
 * - www.google.com/pagead/1p-user-list/<id>/ and /pagead/1p-conversion/<id>/ (first-party follow-ups
 *   of the two above; Google's redirects),
 * - td.doubleclick.net/td/rul/<id> (the remarketing user-list iframe gtag adds for Protected
 *   Audience, with the same parameters as viewthroughconversion),
 * - pagead2.googlesyndication.com/ccm/collect and www.google.com/ccm/collect (the Ads tag's
 *   page-view and conversion pings; with consent mode they are sent as cookieless pings when
 *   ad_storage is denied). These use GA4-style keys: `tid=AW-…`, `en`, `dl`, `dt`, `gcs`, `gcd`.
 * `data` carries remarketing/event parameters as `key=value;key=value` (e.g. `event=purchase`).
 *
 * The first-party follow-ups (1p-user-list, 1p-conversion) and the enhanced conversions form data
 * (`/pagead/form-data/<id>`, `/ccm/form-data/<id>`) repeat the request they follow: they are
 * secondary requests, not a second conversion.
 */
const ADS_PATH =
  /^\/(?:pagead\/(viewthroughconversion|conversion|1p-user-list|1p-conversion|form-data)|td\/(rul)|ccm\/(form-data|conversion)|rmkt\/(collect))\/([^/?]+)/;
/**
 * Google tag gateway and server-side tagging relay the same requests through a first-party path,
 * e.g. `https://www.example.com/metrics/g/d/ccm/conversion/<id>/?random=…&en=conversion&gtm=…`: the
 * path's tail and gtag's own parameters identify them.
 */
const RELAYED_ADS_PATH = /\/(?:pagead\/(viewthroughconversion|conversion)|ccm\/(conversion))\/(\d+)\/?$/;
const ADS_HOSTS = /(^|\.)(googleads\.g\.doubleclick\.net|td\.doubleclick\.net|googleadservices\.com|google\.[a-z.]+)$/;
const CCM_PATH = /^\/ccm\/collect\/?$/;
const CCM_HOSTS = /(^|\.)(googlesyndication\.com|google\.[a-z.]+|doubleclick\.net)$/;

const KIND_NAMES: Record<string, string> = {
  viewthroughconversion: 'remarketing / view-through (viewthroughconversion)',
  conversion: 'conversion',
  '1p-user-list': 'first-party remarketing follow-up (1p-user-list)',
  '1p-conversion': 'first-party conversion follow-up (1p-conversion)',
  rul: 'remarketing user list for Protected Audience (td/rul)',
  rmkt: 'remarketing hit (rmkt/collect)',
  'form-data': 'enhanced conversions form data (follows a conversion)',
  ccm: 'Ads page-view / conversion ping (ccm/collect; cookieless when ad_storage is denied)',
};

function dataParams(data: string | undefined) {
  return data ? parsePairs(data, ';') : [];
}

export function decodeGoogleAds(request: CapturedRequest, pairs: Pairs): HitDraft[] | null {
  let kind: string;
  let conversionId: string | undefined;
  const match = ADS_PATH.exec(request.path);
  const relayed = match ? null : RELAYED_ADS_PATH.exec(request.path);
  if (match && ADS_HOSTS.test(request.host)) {
    kind = match[1] ?? match[2] ?? match[3] ?? (match[4] ? 'rmkt' : 'conversion');
    conversionId = match[5]!;
  } else if (
    relayed &&
    !ADS_HOSTS.test(request.host) &&
    (lastValue(pairs, 'gtm') !== undefined || lastValue(pairs, 'random') !== undefined)
  ) {
    kind = relayed[1] ?? relayed[2]!;
    conversionId = relayed[3]!;
  } else if (CCM_PATH.test(request.path) && CCM_HOSTS.test(request.host)) {
    kind = 'ccm';
    conversionId = lastValue(pairs, 'tid')?.replace(/^AW-/i, '');
  } else {
    return null;
  }
  const value = (key: string) => lastValue(pairs, key);
  const params = pairs.map(([key, val]) => ({ key, name: adsLabel(key), value: val }));
  const data = dataParams(value('data'));
  for (const [key, val] of data) params.push({ key: `data.${key}`, name: `${key} (event data)`, value: val });
  const event = value('en') ?? data.find(([key]) => key === 'event')?.[1];
  const isConversion = kind === 'conversion' || kind === '1p-conversion' || Boolean(value('label'));
  const type = event ?? (isConversion ? 'conversion' : 'remarketing');
  const accountId = conversionId ? `AW-${conversionId}` : null;
  return [
    {
      ...baseOf(request),
      batch: null,
      vendor: 'google-ads',
      type,
      accountId,
      page: value('url') ?? value('dl') ?? request.referer,
      referrer: value('ref') ?? value('dr') ?? null,
      title: value('tiba') ?? value('dt') ?? null,
      clientId: value('auid') ?? null,
      params: [{ key: '(path)', name: 'Request kind', value: `${KIND_NAMES[kind]}${accountId ? ` · ${accountId}` : ''}` }, ...params],
      items: [],
      consent: decodeConsent(value('gcs'), value('gcd')),
      body: request.body,
      ...(SECONDARY[kind] ? { secondary: SECONDARY[kind] } : {}),
    },
  ];
}

const SECONDARY: Record<string, string> = {
  '1p-user-list': 'Google Ads first-party remarketing follow-up (repeats the remarketing request)',
  '1p-conversion': 'Google Ads first-party conversion follow-up (repeats the conversion request)',
  'form-data': 'Google Ads enhanced conversions form data (follows the conversion)',
};

export const googleAds: VendorDecoder<'google-ads'> = {
  id: 'google-ads',
  label: 'Google Ads',
  kind: 'ads',
  hosts: ['doubleclick.net', 'googleadservices.com', 'googlesyndication.com', 'google.*'],
  anyHost: /\/(?:pagead\/(?:viewthroughconversion|conversion)|ccm\/conversion)\/\d+/i,
  accountLabel: 'conversion ID (AW-…)',
  labels: ADS_LABELS,
  decode: decodeGoogleAds,
};
