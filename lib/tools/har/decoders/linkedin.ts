import { lastValue, type Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { hitOf, labeller, named, type VendorDecoder } from '../vendor.js';
import { formPairs } from './shared.js';

/**
 * LinkedIn Insight tag: px.ads.linkedin.com/collect?pid=…[&conversionId=…]&url=… (also /wa/). The
 * tag sends each request twice, the second time to px4.ads.linkedin.com with `e_ipv6` added: that
 * copy is a secondary request, so an event is not counted twice.
 */
export const LINKEDIN_LABELS: Record<string, string> = {
  pid: 'Partner ID',
  conversionId: 'Conversion ID',
  fmt: 'Response format',
  url: 'Page URL',
  time: 'Timestamp (ms)',
  v: 'Tag version',
  tm: 'Tag manager',
  li_fat_id: 'Click ID (li_fat_id)',
  eventId: 'Event ID (deduplication)',
  cookiesTest: 'Cookies test',
  liSync: 'Cookie sync',
  e_ipv6: 'IPv6 address',
  li_giant: 'Guest ID',
  value: 'Conversion value',
  currency: 'Currency',
};

const linkedinLabel = labeller(LINKEDIN_LABELS);

function decode(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  if (!/^px\d*\.ads\.linkedin\.com$/.test(request.host)) return null;
  const side = /^\/(attribution_trigger|db_sync)\/?$/.exec(request.path);
  if (side) {
    const pairs = formPairs(request, queryPairs);
    return [
      hitOf(request, {
        vendor: 'linkedin',
        type: side[1] === 'db_sync' ? 'cookie sync' : 'attribution trigger',
        accountId: lastValue(pairs, 'pid'),
        params: named(pairs, linkedinLabel),
        secondary:
          side[1] === 'db_sync'
            ? 'LinkedIn cookie sync (db_sync): not an event'
            : 'Attribution Reporting trigger registration (attribution_trigger): repeats the conversion',
      }),
    ];
  }
  if (!/^\/(?:collect|wa)\/?$/.test(request.path)) return null;
  const pairs = formPairs(request, queryPairs);
  const value = (key: string) => lastValue(pairs, key);
  const conversion = value('conversionId');
  const mirror = request.host !== 'px.ads.linkedin.com';
  return [
    hitOf(request, {
      vendor: 'linkedin',
      type: conversion ? `conversion ${conversion}` : 'page view',
      accountId: value('pid'),
      page: value('url'),
      clientId: value('li_fat_id'),
      params: named(pairs, linkedinLabel),
      ...(mirror ? { secondary: `LinkedIn’s ${request.host} copy of the request (adds the IPv6 address)` } : {}),
    }),
  ];
}

export const linkedin: VendorDecoder<'linkedin'> = {
  id: 'linkedin',
  label: 'LinkedIn Insight',
  kind: 'ads',
  hosts: ['ads.linkedin.com'],
  accountLabel: 'partner ID (pid)',
  labels: LINKEDIN_LABELS,
  decode,
};
