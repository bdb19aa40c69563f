import { lastValue, type Pairs, parsePairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, requestKind, type VendorDecoder } from '../vendor.js';

/**
 * Quantcast Measure / Advertise: the tag (`secure.quantserve.com/quant.js`, and its rules
 * `rules.quantcount.com/rules-<p-code>.js`: "tag loaded" entries) sends
 * `https://pixel.quantserve.com/pixel/<p-code>.gif?labels=…` (the noscript image) or
 * `https://pixel.quantserve.com/pixel;r=…;a=<p-code>;labels=…;fpan=…;fpa=…;url=…;ref=…` (the tag).
 * Sources: Quantcast's "Quantcast Tag" and "Labels" help, and captured requests.
 */
const QUANTCAST_LABELS: Record<string, string> = {
  a: 'Account (p-code)',
  labels: 'Labels',
  r: 'Random number',
  fpan: 'First-party cookie new',
  fpa: 'First-party cookie',
  ns: 'Cookies disabled',
  ce: 'Cookies enabled',
  cm: 'Consent mode',
  je: 'Java enabled',
  sr: 'Screen resolution',
  enc: 'Encoding',
  dst: 'Daylight saving time',
  et: 'Event time',
  tzo: 'Time zone offset',
  ref: 'Referrer',
  url: 'Page URL',
  ogl: 'Open Graph data',
  ses: 'Session',
  mdl: 'Media labels',
  gdpr: 'GDPR applies',
  gdpr_consent: 'IAB TCF consent string',
  us_privacy: 'US privacy string (CCPA)',
};

const quantcastLabel = labeller(QUANTCAST_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const rules = /^\/rules-(p-[A-Za-z0-9_-]+)\.js$/.exec(request.path);
  if (rules || (request.host.endsWith('quantserve.com') && /^\/quant\.js$/.test(request.path))) {
    return [
      hitOf(request, {
        vendor: 'quantcast',
        type: 'tag loaded',
        accountId: rules?.[1],
        params: [requestKind(rules ? 'Tag rules' : 'Quantcast tag')],
        container: true,
        body: null,
      }),
    ];
  }
  if (request.host !== 'pixel.quantserve.com') return null;
  const image = /^\/pixel\/(p-[A-Za-z0-9_-]+)\.gif$/.exec(request.path);
  const tag = /^\/pixel;(.*)$/.exec(request.path);
  if (!image && !tag) return null;
  const pairs = [...(tag ? parsePairs(tag[1]!, ';') : []), ...query];
  return [
    hitOf(request, {
      vendor: 'quantcast',
      type: 'page view',
      accountId: image?.[1] ?? lastValue(pairs, 'a'),
      page: lastValue(pairs, 'url'),
      referrer: lastValue(pairs, 'ref'),
      clientId: lastValue(pairs, 'fpa'),
      params: [requestKind(image ? 'Noscript image' : 'Tag pixel'), ...named(pairs, quantcastLabel)],
    }),
  ];
}

export const quantcast: VendorDecoder<'quantcast'> = {
  id: 'quantcast',
  label: 'Quantcast',
  kind: 'ads',
  hosts: ['quantserve.com', 'quantcount.com'],
  accountLabel: 'p-code',
  labels: QUANTCAST_LABELS,
  decode,
};
