import { fixture, entry, harOf } from '../../../test/fixtures/har/helpers.js';
import { analyseHar, decodeEntry, parseHar } from './analyse.js';
import type { Hit } from './types.js';

const pick = (hit: Hit, ...keys: string[]) =>
  Object.fromEntries(keys.map((key) => [key, hit.params.find((param) => param.key === key)?.value]));

describe('GA4 /g/collect', () => {
  it('splits a batched gtag.js POST into one hit per body line, shared query params extended by each line', () => {
    const { hits } = analyseHar(parseHar(fixture('ga4-batched.har')));
    expect(hits.map((hit) => [hit.type, hit.batch])).toEqual([
      ['view_item', { index: 1, size: 3 }],
      ['scroll', { index: 2, size: 3 }],
      ['add_to_cart', { index: 3, size: 3 }],
    ]);
    for (const hit of hits) {
      expect(hit).toMatchObject({
        vendor: 'ga4',
        accountId: 'G-8XJ3K2L9QW',
        method: 'POST',
        host: 'region1.google-analytics.com',
        status: 204,
        page: 'https://shop.example.com/products/tee',
        referrer: 'https://www.google.com/',
        title: 'Stan and Friends Tee – Example Shop',
        clientId: '1803412345.1741944000',
      });
    }
    // Per-event params stay with their event; `_s` of the third line overrides the shared `_s=3`.
    expect(pick(hits[0]!, 'en', '_et', 'ep.page_type', 'cu', 'epn.value', '_s', 'sid')).toEqual({
      en: 'view_item',
      _et: '512',
      'ep.page_type': 'product',
      cu: 'EUR',
      'epn.value': '30.09',
      _s: '3',
      sid: '1741944000',
    });
    expect(pick(hits[1]!, 'en', '_et', 'epn.percent_scrolled', 'cu', 'ep.page_type')).toEqual({
      en: 'scroll',
      _et: '3000',
      'epn.percent_scrolled': '90',
      cu: undefined,
      'ep.page_type': undefined,
    });
    expect(pick(hits[2]!, '_s', 'epn.value')).toEqual({ _s: '4', 'epn.value': '10.03' });
    expect(hits[1]!.body).toBe('en=scroll&_et=3000&epn.percent_scrolled=90');
  });

  it('gives every parameter a readable name', () => {
    const [hit] = analyseHar(parseHar(fixture('ga4-batched.har'))).hits;
    const names = Object.fromEntries(hit!.params.map((param) => [param.key, param.name]));
    expect(names).toMatchObject({
      v: 'Protocol version',
      tid: 'Measurement ID',
      cid: 'Client ID',
      en: 'Event name',
      _et: 'Engagement time (ms)',
      'ep.page_type': 'page_type (event param)',
      'epn.value': 'value (event param, number)',
      pr1: 'Item 1',
      gcd: 'Consent mode v2 state (gcd)',
      dl: 'Document location',
      uap: 'Client hints: platform',
    });
  });

  it('decodes items with their ~-separated sub-keys and custom item parameters', () => {
    const [hit] = analyseHar(parseHar(fixture('ga4-batched.har'))).hits;
    expect(hit!.items).toEqual([
      {
        key: 'pr1',
        params: [
          { key: 'id', name: 'item_id', value: 'SKU_12345' },
          { key: 'nm', name: 'item_name', value: 'Stan and Friends Tee' },
          { key: 'br', name: 'item_brand', value: 'Google' },
          { key: 'ca', name: 'item_category', value: 'Apparel' },
          { key: 'c2', name: 'item_category2', value: 'Adult' },
          { key: 'va', name: 'item_variant', value: 'green' },
          { key: 'pr', name: 'price', value: '10.03' },
          { key: 'qt', name: 'quantity', value: '3' },
          { key: 'k0/v0', name: 'color (item param)', value: 'green' },
        ],
      },
    ]);
  });

  it('recognises server-side GTM on a first-party domain by path, v=2 and a G- id, and nothing else', () => {
    const sgtm = decodeEntry(
      entry('https://metrics.shop.example.com/g/collect?v=2&tid=G-ABC123&cid=1.2&en=page_view&dl=https%3A%2F%2Fshop.example.com%2F'),
      0,
    );
    expect(sgtm.map((hit) => [hit.vendor, hit.type, hit.page])).toEqual([['ga4', 'page_view', 'https://shop.example.com/']]);
    expect(decodeEntry(entry('https://metrics.shop.example.com/g/collect?v=1&tid=G-ABC123'), 0)).toEqual([]);
    expect(decodeEntry(entry('https://metrics.shop.example.com/g/collect?v=2&tid=AW-123'), 0)).toEqual([]);
    expect(decodeEntry(entry('https://shop.example.com/products/tee'), 0)).toEqual([]);
  });

  it('falls back to the request Referer for the page when dl is missing', () => {
    const [hit] = decodeEntry(
      entry('https://www.google-analytics.com/g/collect?v=2&tid=G-ABC123&cid=1.2&en=click', { referer: 'https://a.example/x' }),
      0,
    );
    expect(hit!.page).toBe('https://a.example/x');
  });
});

describe('Universal Analytics', () => {
  const { hits } = analyseHar(parseHar(fixture('shop-session.har')));
  const ua = hits.filter((hit) => hit.vendor === 'ua');

  it('decodes a /j/collect pageview with custom dimensions and metrics', () => {
    expect(ua[0]).toMatchObject({ type: 'pageview', accountId: 'UA-12345678-1', clientId: '1803412345.1741944000', batch: null });
    const named = Object.fromEntries(ua[0]!.params.map((param) => [param.key, [param.name, param.value]]));
    expect(named).toMatchObject({
      t: ['Hit type', 'pageview'],
      cd1: ['Custom dimension 1', 'product'],
      cm1: ['Custom metric 1', '3'],
      vp: ['Viewport size', '1903x961'],
    });
  });

  it('splits /batch into its hits', () => {
    expect(ua.slice(1).map((hit) => [hit.type, hit.batch])).toEqual([
      ['event', { index: 1, size: 2 }],
      ['timing', { index: 2, size: 2 }],
    ]);
    expect(pick(ua[1]!, 'ec', 'ea', 'el', 'ev', 'ni')).toEqual({ ec: 'Video', ea: 'play', el: 'Tee lookbook', ev: '1', ni: '1' });
  });

  it('reads a POST /collect payload from the body', () => {
    const [hit] = decodeEntry(entry('https://www.google-analytics.com/collect', { body: 'v=1&tid=UA-1-1&cid=5.6&t=event&ec=a&ea=b' }), 0);
    expect(hit).toMatchObject({ vendor: 'ua', type: 'event', clientId: '5.6' });
  });
});

describe('Google Ads, Floodlight and Meta', () => {
  const { hits } = analyseHar(parseHar(fixture('shop-session.har')));

  it('decodes an Ads conversion with label, value, currency, transaction and event data', () => {
    const ads = hits.find((hit) => hit.vendor === 'google-ads' && hit.path.includes('viewthroughconversion'))!;
    expect(ads).toMatchObject({
      type: 'purchase',
      accountId: 'AW-987654321',
      page: 'https://shop.example.com/checkout/thank-you',
      title: 'Thank you',
      clientId: '1234567890.1741944000',
    });
    expect(pick(ads, 'label', 'value', 'currency_code', 'transaction_id', 'data.event')).toEqual({
      label: 'AbC-D_efGhIjKlMn',
      value: '30.09',
      currency_code: 'EUR',
      transaction_id: 'T-10042',
      'data.event': 'purchase',
    });
    expect(ads.consent?.gcd).toBe('13r3r3r3r5');
  });

  it('decodes the 1p-user-list follow-up as remarketing data of the same account, secondary to the request it repeats', () => {
    const list = hits.find((hit) => hit.path.startsWith('/pagead/1p-user-list/'))!;
    expect(list).toMatchObject({ vendor: 'google-ads', accountId: 'AW-987654321', type: 'purchase' });
    expect(list.secondary).toMatch(/first-party remarketing follow-up/);
    expect(hits[list.follows!]).toMatchObject({ vendor: 'google-ads', path: expect.stringContaining('/viewthroughconversion/') });
    expect(pick(list, 'data.ecomm_pagetype')).toEqual({ 'data.ecomm_pagetype': 'purchase' });
  });

  it('decodes a conversion without an event as "conversion"', () => {
    const [hit] = decodeEntry(entry('https://www.googleadservices.com/pagead/conversion/555/?label=abc&value=1'), 0);
    expect(hit).toMatchObject({ vendor: 'google-ads', type: 'conversion', accountId: 'AW-555' });
  });

  it('decodes Floodlight ;-separated parameters', () => {
    const fl = hits.find((hit) => hit.vendor === 'floodlight')!;
    expect(fl).toMatchObject({ type: 'sales/purch0', accountId: 'DC-1234567', page: 'https://shop.example.com/checkout/thank-you' });
    expect(fl.params.map((param) => [param.key, param.name, param.value])).toEqual([
      ['(path)', 'Request kind', 'Floodlight activity (activityi)'],
      ['src', 'Advertiser ID', '1234567'],
      ['type', 'Activity group', 'sales'],
      ['cat', 'Activity tag', 'purch0'],
      ['ord', 'Order ID / cache buster', 'T-10042'],
      ['qty', 'Quantity', '1'],
      ['cost', 'Revenue', '30.09'],
      ['u1', 'Custom variable u1', 'tee'],
      ['npa', 'Non-personalised ads', '0'],
      ['gcs', 'Consent status (gcs)', 'G111'],
      ['gcd', 'Consent mode v2 state (gcd)', '13r3r3r3r5'],
      ['dma', 'DMA (EEA) obligations apply', '1'],
      ['auiddc', 'Floodlight cookie ID', '1234567890.1741944000'],
      ['~oref', 'Page URL', 'https://shop.example.com/checkout/thank-you'],
    ]);
  });

  it('decodes Meta PageView (GET) and Purchase (form POST) with custom data', () => {
    const meta = hits.filter((hit) => hit.vendor === 'meta');
    expect(meta.map((hit) => [hit.type, hit.method, hit.accountId])).toEqual([
      ['PageView', 'GET', '1234567890123456'],
      ['Purchase', 'POST', '1234567890123456'],
      ['Purchase', 'GET', '1234567890123456'],
    ]);
    expect(meta[0]).toMatchObject({
      page: 'https://shop.example.com/products/tee',
      referrer: 'https://www.google.com/',
      clientId: 'fb.1.1741944000000.123456789',
    });
    const custom = meta[1]!.params.filter((param) => param.key.startsWith('cd['));
    expect(custom).toEqual([
      { key: 'cd[value]', name: 'value (custom data)', value: '30.09' },
      { key: 'cd[currency]', name: 'currency (custom data)', value: 'EUR' },
      { key: 'cd[content_ids]', name: 'content_ids (custom data)', value: '["SKU_12345"]' },
      { key: 'cd[content_type]', name: 'content_type (custom data)', value: 'product' },
    ]);
  });

  it('reads a multipart Meta POST body', () => {
    const body =
      '--b1\r\nContent-Disposition: form-data; name="id"\r\n\r\n42\r\n--b1\r\nContent-Disposition: form-data; name="ev"\r\n\r\nLead\r\n--b1--\r\n';
    const [hit] = decodeEntry(entry('https://www.facebook.com/tr/', { body }), 0);
    expect(hit).toMatchObject({ vendor: 'meta', type: 'Lead', accountId: '42' });
  });
});

describe('the whole capture', () => {
  it('summarises counts by vendor, event and account, and lists the pages', () => {
    const { summary } = analyseHar(parseHar(fixture('shop-session.har')));
    // 18 rows: the Google tag that loaded (gtag.js, a container entry), the Ads 1p-user-list follow-up
    // (a secondary request) and 16 hits.
    expect(summary).toMatchObject({
      entries: 16,
      analyticsEntries: 15,
      hits: 16,
      rows: 18,
      secondary: 1,
      containers: 1,
      creator: 'WebInspector 537.36',
    });
    expect(summary.byVendor.map(({ key, count }) => ({ key, count }))).toEqual([
      { key: 'ga4', count: 8 },
      { key: 'meta', count: 3 },
      { key: 'ua', count: 3 },
      { key: 'google-ads', count: 2 },
      { key: 'floodlight', count: 1 },
      { key: 'google-tag-manager', count: 1 },
    ]);
    expect(summary.byKind.map(({ key, count, secondary }) => ({ key, count, secondary }))).toEqual([
      { key: 'analytics', count: 11, secondary: undefined },
      { key: 'ads', count: 6, secondary: 1 },
      { key: 'tag-manager', count: 1, secondary: 1 },
    ]);
    expect(summary.byAccount.slice(0, 2)).toEqual([
      { key: 'G-8XJ3K2L9QW', count: 7, label: 'Google Analytics 4' },
      { key: '1234567890123456', count: 3, label: 'Meta pixel' },
    ]);
    // Pages count the rows listed for them (what the page filter shows), the Google tag's load included.
    expect(summary.pages).toEqual([
      { url: 'https://shop.example.com/products/tee', hits: 12, firstTime: '2025-03-14T09:26:52.700Z' },
      { url: 'https://shop.example.com/checkout/thank-you', hits: 6, firstTime: '2025-03-14T09:27:53.000Z' },
    ]);
  });

  it('skips entries without a request or URL instead of failing', () => {
    const broken = {
      log: {
        entries: [
          {},
          { request: {} },
          { request: { url: 42 } },
          entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&cid=1&en=ok'),
        ],
      },
    };
    const analysis = analyseHar(parseHar(JSON.stringify(broken)));
    expect(analysis.hits.map((hit) => [hit.type, hit.entryIndex])).toEqual([['ok', 3]]);
    expect(analysis.summary.entries).toBe(4);
  });

  it('orders hits by request time even when the file is not', () => {
    const later = entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&cid=1&en=second', { at: '2025-01-01T00:00:02.000Z' });
    const earlier = entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&cid=1&en=first', { at: '2025-01-01T00:00:01.000Z' });
    expect(analyseHar(harOf(later, earlier)).hits.map((hit) => [hit.type, hit.entryIndex])).toEqual([
      ['first', 1],
      ['second', 0],
    ]);
  });

  it('refuses invalid JSON and JSON that is not a HAR with clear messages', () => {
    expect(() => parseHar(fixture('truncated.har'))).toThrow(/not valid JSON/);
    expect(() => parseHar(fixture('not-a-har.json'))).toThrow(/not a HAR file: it has no "log.entries"/);
    expect(() => parseHar('')).toThrow('The file is empty.');
    expect(() => parseHar('<html>')).toThrow(/not a HAR file/);
  });

  it('reports progress through the entries and can be cancelled', () => {
    const many = harOf(...Array.from({ length: 1200 }, (_, i) => entry(`https://cdn.example.com/${i}.js`)));
    const seen: number[] = [];
    analyseHar(many, { onProgress: (progress) => seen.push(progress.done) });
    expect(seen).toEqual([0, 500, 1000, 1200]);
    expect(() => analyseHar(many, { cancelled: () => true })).toThrow('The analysis was cancelled.');
  });
});
