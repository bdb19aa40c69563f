import { decodeConsent } from '../consent.js';
import { floodlightLabel } from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';

/**
 * Floodlight (Campaign Manager 360 / DV360): `https://<advertiser>.fls.doubleclick.net/activityi;src=…;
 * type=…;cat=…;ord=…` (iframe tag; `activityj` for the gtag.js request, `activity` for the image tag,
 * also on ad.doubleclick.net). Parameters are `;`-separated in the path; gtag adds a few in a
 * query string too.
 */
const FLOODLIGHT_PATH = /^\/(?:ddm\/)?(?:activity[ij]?|fls\/activity[ij]?);/;

export function decodeFloodlight(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!FLOODLIGHT_PATH.test(request.path)) return null;
  if (!/(^|\.)(fls\.doubleclick\.net|ad\.doubleclick\.net)$/.test(request.host)) return null;
  const semicolonPart = request.path.slice(request.path.indexOf(';') + 1);
  const pairs: Pairs = [...parsePairs(semicolonPart, ';'), ...queryPairs];
  const value = (key: string) => lastValue(pairs, key);
  const src = value('src');
  const type = value('type');
  const cat = value('cat');
  return [
    {
      ...baseOf(request),
      batch: null,
      vendor: 'floodlight',
      type: cat ? `${type ?? '?'}/${cat}` : '(no activity)',
      accountId: src ? `DC-${src}` : null,
      page: value('~oref') ?? request.referer,
      referrer: null,
      title: null,
      clientId: value('auiddc') ?? null,
      params: pairs.map(([key, val]) => ({ key, name: floodlightLabel(key), value: val })),
      items: [],
      consent: decodeConsent(value('gcs'), value('gcd')),
      body: request.body,
    },
  ];
}
