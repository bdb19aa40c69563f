import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Snap pixel: POST tr.snapchat.com/p (form body pid=…&ev=PAGE_VIEW…; tr-shadow.snapchat.com and
 * /gateway/p too). tr.snapchat.com/cm/i?pid=… is the pixel's cookie matching: a secondary request.
 */
export const SNAPCHAT_LABELS: Record<string, string> = {
  pid: 'Pixel ID',
  ev: 'Event',
  pl: 'Page URL',
  ts: 'Timestamp (ms)',
  rf: 'Referrer',
  v: 'Pixel version',
  if: 'Sent from an iframe',
  bt: 'Build',
  u_hem: 'E-mail (hashed)',
  u_hpn: 'Phone number (hashed)',
  u_c1: 'Cookie ID (_scid)',
  u_sclid: 'Click ID (ScCid)',
  e_desc: 'Description',
  e_sm: 'Sign-up method',
  e_su: 'Success',
  e_ni: 'Number of items',
  e_iids: 'Item IDs',
  e_ic: 'Item category',
  e_pia: 'Payment info available',
  e_cur: 'Currency',
  e_pr: 'Price',
  e_tid: 'Transaction ID',
  e_ss: 'Search keyword',
  m_sl: 'Script load time (ms)',
  m_rd: 'Render time (ms)',
  m_pi: 'Page interactive (ms)',
  m_pl: 'Page load (ms)',
  m_ic: 'Initial connection (ms)',
};

const snapchatLabel = labeller(SNAPCHAT_LABELS);

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/^tr(-shadow)?\.snapchat\.com$/.test(request.host)) return null;
  const matching = /^\/cm\/[a-z]+\/?$/.test(request.path);
  if (!matching && !/^\/(?:gateway\/)?p\/?$/.test(request.path)) return null;
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  return [
    hitOf(request, {
      vendor: 'snapchat',
      type: matching ? 'cookie matching' : (value('ev') ?? ''),
      accountId: value('pid'),
      page: value('pl'),
      referrer: value('rf'),
      clientId: value('u_c1'),
      params: named(pairs, snapchatLabel),
      ...(matching ? { secondary: 'Snap pixel cookie matching (tr.snapchat.com/cm/): not an event' } : {}),
    }),
  ];
}

export const snapchat: VendorDecoder<'snapchat'> = {
  id: 'snapchat',
  label: 'Snap pixel',
  kind: 'ads',
  hosts: ['snapchat.com'],
  accountLabel: 'pixel ID (pid)',
  labels: SNAPCHAT_LABELS,
  decode,
};
