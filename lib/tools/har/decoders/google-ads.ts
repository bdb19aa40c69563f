import { decodeConsent } from '../consent.js';
import { adsLabel } from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';

/**
 * Google Ads conversion and remarketing requests sent by gtag.js / GTM:
 * - googleads.g.doubleclick.net/pagead/viewthroughconversion/<conversion id>/ (remarketing, and the
 *   view-through part of a conversion),
 * - www.googleadservices.com/pagead/conversion/<id>/ and googleads…/pagead/conversion/<id>/
 *   (conversions),
 * - www.google.com/pagead/1p-user-list/<id>/ and /pagead/1p-conversion/<id>/ (first-party follow-ups
 *   of the two above; Google's redirects).
 * `data` carries remarketing/event parameters as `key=value;key=value` (e.g. `event=purchase`).
 */
const ADS_PATH = /^\/pagead\/(viewthroughconversion|conversion|1p-user-list|1p-conversion)\/([^/]+)/;
const ADS_HOSTS = /(^|\.)(googleads\.g\.doubleclick\.net|googleadservices\.com|google\.[a-z.]+)$/;

export function decodeGoogleAds(request: CapturedRequest, pairs: Pairs): HitDraft[] | null {
  const match = ADS_PATH.exec(request.path);
  if (!match || !ADS_HOSTS.test(request.host)) return null;
  const [, kind, conversionId] = match;
  const value = (key: string) => lastValue(pairs, key);
  const params = pairs.map(([key, val]) => ({ key, name: adsLabel(key), value: val }));
  const data = value('data');
  if (data) {
    for (const [key, val] of parsePairs(data, ';')) params.push({ key: `data.${key}`, name: `${key} (event data)`, value: val });
  }
  const event = value('en') ?? (data ? parsePairs(data, ';').find(([key]) => key === 'event')?.[1] : undefined);
  const isConversion = kind === 'conversion' || kind === '1p-conversion' || Boolean(value('label'));
  const type = event ?? (isConversion ? 'conversion' : 'remarketing');
  return [
    {
      ...baseOf(request),
      batch: null,
      vendor: 'google-ads',
      type,
      accountId: `AW-${conversionId}`,
      page: value('url') ?? request.referer,
      referrer: value('ref') ?? null,
      title: value('tiba') ?? null,
      clientId: value('auid') ?? null,
      params: [{ key: '(path)', name: `Request kind (${kind})`, value: `AW-${conversionId}` }, ...params],
      items: [],
      consent: decodeConsent(value('gcs'), value('gcd')),
      body: request.body,
    },
  ];
}
