import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import type { ConsentState } from '../types.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Microsoft Advertising UET: bat.bing.com/action/0?ti=…&evt=pageLoad | custom&ea=… (GET, or a POST
 * form; `/actionp/0` too). `asc=G/D` is UET consent mode's ad_storage (Microsoft Advertising's
 * "Consent mode" help); an `evt=consent` request only reports a consent update: secondary.
 */
export const UET_LABELS: Record<string, string> = {
  ti: 'UET tag ID',
  Ver: 'UET version',
  tm: 'Tag manager',
  mid: 'Message ID',
  bo: 'Beacon order',
  sid: 'Session ID',
  vid: 'Visitor ID (_uetvid)',
  vids: 'New visitor',
  msclkid: 'Click ID (msclkid, N = none)',
  uach: 'Client hints',
  pi: 'Page ID hash',
  lg: 'Language',
  sw: 'Screen width',
  sh: 'Screen height',
  sc: 'Screen colour depth',
  nwd: 'Automated browser (navigator.webdriver)',
  tl: 'Page title',
  kw: 'Page keywords',
  p: 'Page URL',
  r: 'Referrer',
  lt: 'Page load time (ms)',
  evt: 'Event type (pageLoad / custom)',
  sv: 'Script version',
  cdb: 'Consent and data flags',
  rn: 'Cache buster',
  asc: 'Ad storage consent (G granted, D denied)',
  ec: 'Event category',
  ea: 'Event action',
  el: 'Event label',
  ev: 'Event value',
  gv: 'Goal value (revenue)',
  gc: 'Goal currency',
  prodid: 'Product ID',
  pagetype: 'Page type',
  page_path: 'Page path (single-page app)',
  spa: 'Single-page app',
  en: 'Event name',
  ea_id: 'Event ID',
};

const uetLabel = labeller(UET_LABELS);

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/^bat\.bing\.(?:com|net)$/.test(request.host) || !/^\/actionp?\/\d+\/?$/.test(request.path)) return null;
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  const evt = value('evt') ?? '';
  const asc = value('asc');
  const consent: ConsentState | null =
    asc === 'G' || asc === 'D'
      ? {
          source: 'uet',
          signals: [{ type: 'ad_storage', state: asc === 'G' ? 'granted' : 'denied', code: asc }],
          text: `UET consent mode: ad_storage ${asc === 'G' ? 'granted' : 'denied'} (asc=${asc})`,
        }
      : null;
  return [
    hitOf(request, {
      vendor: 'microsoft',
      type: evt === 'custom' ? (value('ea') ?? value('en') ?? 'custom') : evt,
      accountId: value('ti'),
      page: value('p'),
      referrer: value('r'),
      title: value('tl'),
      clientId: value('vid'),
      params: named(pairs, uetLabel),
      consent,
      ...(evt === 'consent' ? { secondary: 'UET consent update (evt=consent): not an event' } : {}),
    }),
  ];
}

export const microsoftUet: VendorDecoder<'microsoft'> = {
  id: 'microsoft',
  label: 'Microsoft UET',
  kind: 'ads',
  hosts: ['bat.bing.com', 'bat.bing.net'],
  accountLabel: 'UET tag ID (ti)',
  labels: UET_LABELS,
  decode,
};
