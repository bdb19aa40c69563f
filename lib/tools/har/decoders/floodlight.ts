import { decodeConsent } from '../consent.js';
import { FLOODLIGHT_LABELS, floodlightLabel } from '../labels.js';
import { lastValue, type Pairs, parsePairs } from '../query.js';
import { baseOf, type CapturedRequest, type HitDraft } from '../request.js';
import { invalidHit, named, type VendorDecoder } from '../vendor.js';

/**
 * Floodlight (Campaign Manager 360 / DV360). Parameters are `;`-separated in the path; gtag adds a
 * few in a query string too. The forms seen in real captures:
 * - `https://<advertiser>.fls.doubleclick.net/activityi;src=…;type=…;cat=…;ord=…` (iframe tag;
 *   `activityj` for the gtag.js request, `activity` for the image tag), also on ad.doubleclick.net;
 * - `https://ad.doubleclick.net/ddm/activity/src=…;type=…;cat=…;ord=…?` — the plain Campaign Manager
 *   image tag, with a `/` (not `;`) after `activity` and an empty query (the trailing `?`);
 * - `https://adservice.google.com/ddm/fls/{i,p,r,z}/dc_pre=…;src=…;…` (any adservice.google.* host,
 *   and `<advertiser>.fls.doubleclick.net/ddm/fls/…`): Google's follow-up requests of a Floodlight
 *   activity (cookie matching, redirects), carrying the same activity parameters.
 */
const FOLLOW_UP = "Floodlight follow-up: this request repeats its activity (Google's cookie matching), not a second conversion";

const FLOODLIGHT_PATH = /^\/(?:ddm\/)?(?:fls\/)?(?:(activity[ij]?)[;/]|([a-z])\/(?=[^/]*;))/;
const FLOODLIGHT_HOST = /(^|\.)(fls\.doubleclick\.net|ad\.doubleclick\.net|adservice\.google\.[a-z.]+)$/;

export function decodeFloodlight(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  const match = FLOODLIGHT_PATH.exec(request.path);
  if (!match || !FLOODLIGHT_HOST.test(request.host)) return null;
  // `/ddm/fls/z/` follow-ups only: an `activity…` path is the tag's own request.
  const followUp = match[2] !== undefined || request.path.includes('/fls/');
  const semicolonPart = request.path.slice(match[0].length);
  const pairs: Pairs = [...parsePairs(semicolonPart, ';'), ...queryPairs];
  if (!pairs.some(([key]) => key === 'src')) {
    return [
      invalidHit(request, {
        vendor: 'floodlight',
        accountId: null,
        params: named(pairs, floodlightLabel),
        reason: 'No advertiser ID (src): Campaign Manager cannot attribute the activity',
        ...(followUp ? { secondary: FOLLOW_UP } : {}),
      }),
    ];
  }
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
      params: [
        {
          key: '(path)',
          name: 'Request kind',
          value: followUp
            ? `Follow-up request (${request.path.slice(0, match[0].length)}): Google's cookie matching after the activity, not a second conversion`
            : `Floodlight activity (${match[1] ?? 'activity'})`,
        },
        ...pairs.map(([key, val]) => ({ key, name: floodlightLabel(key), value: val })),
      ],
      items: [],
      consent: decodeConsent(value('gcs'), value('gcd')),
      body: request.body,
      ...(followUp ? { secondary: FOLLOW_UP } : {}),
    },
  ];
}

export const floodlight: VendorDecoder<'floodlight'> = {
  id: 'floodlight',
  label: 'Floodlight',
  kind: 'ads',
  hosts: ['doubleclick.net', 'google.*'],
  accountLabel: 'advertiser ID (src)',
  labels: FLOODLIGHT_LABELS,
  decode: decodeFloodlight,
};
