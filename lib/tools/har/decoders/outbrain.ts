import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, paramOf, requestKind, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * Outbrain pixel: `https://tr.outbrain.com/unifiedPixel?marketerId=<id>&obApiVersion=1.1&name=PAGE_VIEW
 * &dl=<page>&optOut=false&bust=…` (a conversion carries its own name and `orderValue`, `currency`,
 * `orderId`). The earlier pixel endpoint `/pixel?…&obApiVersion=1.0` is decoded with a note.
 * Sources: Outbrain's "Outbrain Pixel" implementation guide (conversions, orderValue, currency) and
 * captured pixel requests.
 */
const OUTBRAIN_LABELS: Record<string, string> = {
  marketerId: 'Marketer ID',
  obApiVersion: 'Pixel API version',
  name: 'Event name',
  dl: 'Page URL',
  optOut: 'Opted out',
  bust: 'Cache buster',
  bt: 'Bust time',
  cb: 'Callback',
  orderValue: 'Order value',
  currency: 'Currency',
  orderId: 'Order ID',
  obtp_src: 'Pixel source',
  ob_click_id: 'Click ID',
  obApiVersionOrig: 'Original pixel API version',
};

const outbrainLabel = labeller(OUTBRAIN_LABELS);

function decode(request: CapturedRequest, query: Pairs): HitDraft[] | null {
  const match = /^\/(unifiedPixel|pixel)\/?$/i.exec(request.path);
  if (!match) return null;
  const pairs = formPairs(request, query);
  const value = (key: string) => lastValue(pairs, key);
  const older = match[1]!.toLowerCase() === 'pixel';
  return [
    hitOf(request, {
      vendor: 'outbrain',
      type: value('name') ?? '(no event)',
      accountId: value('marketerId'),
      page: value('dl'),
      params: [requestKind(older ? 'Pixel (/pixel)' : 'Unified pixel'), ...named(pairs, outbrainLabel)],
      ...(older ? { formatNote: 'Older format: the /pixel endpoint (current tags call /unifiedPixel)' } : {}),
    }),
  ];
}

export const outbrain: VendorDecoder<'outbrain'> = {
  id: 'outbrain',
  label: 'Outbrain',
  kind: 'ads',
  hosts: ['tr.outbrain.com'],
  accountLabel: 'marketer ID',
  labels: OUTBRAIN_LABELS,
  decode,
  check(hit, warn) {
    if (paramOf(hit, 'orderValue') && !paramOf(hit, 'currency')) {
      warn('purchase_missing_value', 'warning', 'Outbrain conversion with orderValue but no currency: the account currency is assumed');
    }
    if (paramOf(hit, 'optOut') === 'true') warn('consent_denied', 'info', 'Outbrain pixel sent with optOut=true');
  },
};
