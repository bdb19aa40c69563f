import { entry, harOf } from '../../../test/fixtures/har/helpers.js';
import { analyseHar } from './analyse.js';

/** Unit cases for the pixel rules (the real requests are in real-world.spec.ts). */
function codesOf(url: string, options: { body?: string; method?: string } = {}) {
  const { hits, warnings } = analyseHar(harOf(entry(url, { ...options, status: 200 })));
  return { hit: hits[0], codes: warnings.map((warning) => warning.code).sort() };
}

describe('pixel warnings', () => {
  it('flags a TikTok CompletePayment without value and currency, and not one with both', () => {
    const body = (properties: object) => JSON.stringify({ event: 'CompletePayment', context: { pixel: { code: 'CABC' } }, properties });
    expect(codesOf('https://analytics.tiktok.com/api/v2/pixel', { body: body({}) }).codes).toEqual(['pixel_purchase_missing_value']);
    expect(codesOf('https://analytics.tiktok.com/api/v2/pixel', { body: body({ value: 10, currency: 'EUR' }) }).codes).toEqual([]);
  });

  it('flags a pixel request without its id', () => {
    const { hit, codes } = codesOf('https://alb.reddit.com/rp.gif?event=PageVisit');
    expect(hit?.vendor).toBe('reddit');
    expect(codes).toEqual(['pixel_missing_id']);
  });

  it('names a Reddit Custom event by m.customEventName and flags one without', () => {
    expect(codesOf('https://alb.reddit.com/rp.gif?id=t2_abc&event=Custom&m.customEventName=Signup').hit?.type).toBe('Signup');
    expect(codesOf('https://alb.reddit.com/rp.gif?id=t2_abc&event=Custom').codes).toEqual(['pixel_custom_event_unnamed']);
  });

  it('reads a Reddit POST form body', () => {
    const { hit } = codesOf('https://alb.reddit.com/rp?id=a2_j892kaf0wxc6&event=Custom', {
      method: 'POST',
      body: 'm.customEventName=Signup&m.value=',
    });
    expect(hit).toMatchObject({ vendor: 'reddit', type: 'Signup', accountId: 'a2_j892kaf0wxc6' });
  });

  it('notes UET sent with ad_storage denied, and a custom event without ea', () => {
    expect(codesOf('https://bat.bing.com/action/0?ti=1&evt=pageLoad&asc=D').codes).toEqual(['uet_consent_denied']);
    expect(codesOf('https://bat.bing.com/action/0?ti=1&evt=custom').codes).toEqual(['pixel_custom_event_unnamed']);
  });

  it('flags Snap PURCHASE and Pinterest checkout without value or currency', () => {
    expect(codesOf('https://tr.snapchat.com/p', { body: 'pid=abc&ev=PURCHASE&e_pr=10' }).codes).toEqual(['pixel_purchase_missing_value']);
    expect(codesOf('https://ct.pinterest.com/v3/?tid=1&event=checkout&ed=%7B%22value%22%3A5%7D').codes).toEqual([
      'pixel_purchase_missing_value',
    ]);
  });

  it('shows the pixels’ mirrors and syncs as secondary requests, with no warning of their own', () => {
    for (const [url, vendor] of [
      ['https://ct.pinterest.com/user/?tid=1&event=init', 'pinterest'],
      ['https://tr.snapchat.com/cm/i?pid=abc', 'snapchat'],
      ['https://t.co/1/i/adsct?txn_id=o81g6&event=%7B%7D', 'x'],
      ['https://px4.ads.linkedin.com/collect?v=2&fmt=js&pid=1&e_ipv6=x', 'linkedin'],
    ]) {
      const { hit, codes } = codesOf(url!);
      expect([url, hit?.vendor, Boolean(hit?.secondary), codes]).toEqual([url, vendor, true, []]);
    }
  });

  it('leaves other paths on the pixel hosts alone', () => {
    for (const url of ['https://analytics.tiktok.com/i18n/pixel/events.js?sdkid=CABC', 'https://bat.bing.com/bat.js']) {
      expect([url, codesOf(url).hit]).toEqual([url, undefined]);
    }
  });
});
