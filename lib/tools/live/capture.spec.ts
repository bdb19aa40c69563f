import { fixture } from '../../../test/fixtures/har/helpers.js';
import { analyseHar, decodeEntry, parseHar } from '../har/analyse.js';
import { LiveCapture } from './capture.js';
import { CSV_HEADER, captureCsv } from './csv-export.js';
import { buildHar, decodableEntry, harEntry } from './har-export.js';
import type { CaptureRecord, DataLayerRecord, NavigationRecord, RequestRecord, StatusRecord } from './records.js';
import { bodyOf, requestRecord } from './records.js';

const T0 = Date.parse('2026-11-28T10:00:00.000Z');
let seq = 0;
const TAB = 7;

function request(url: string, at: number, options: { method?: string; body?: string; requestId?: string } = {}): RequestRecord {
  const id = options.requestId ?? `r${++seq}`;
  return requestRecord(
    {
      requestId: id,
      url,
      method: options.method ?? (options.body ? 'POST' : 'GET'),
      timeStamp: T0 + at + 0.25,
      tabId: TAB,
      frameId: 0,
      type: options.body ? 'ping' : 'image',
      requestBody: options.body === undefined ? null : { raw: [{ bytes: new TextEncoder().encode(options.body).buffer as ArrayBuffer }] },
    },
    ++seq,
  );
}
const status = (of: RequestRecord, code: number, error: string | null = null, at = 5): StatusRecord => ({
  kind: 'status',
  seq: ++seq,
  tabId: TAB,
  time: of.time + at,
  requestId: of.requestId,
  status: code,
  error,
});
const navigation = (url: string, at: number, transition = 'link'): NavigationRecord => ({
  kind: 'navigation',
  seq: ++seq,
  tabId: TAB,
  time: T0 + at,
  url,
  transition,
});
const push = (value: unknown, at: number, gtag = false, url = 'https://www.shop.example/'): DataLayerRecord => ({
  kind: 'datalayer',
  seq: ++seq,
  tabId: TAB,
  time: T0 + at,
  url,
  via: 'push',
  gtag,
  value,
  script: null,
});

const ga4 = (en: string, extra = '') =>
  `https://www.google-analytics.com/g/collect?v=2&tid=G-TEST123&cid=111.222&_p=9&dl=https%3A%2F%2Fwww.shop.example%2F&en=${en}${extra}`;

describe('webRequest bodies', () => {
  it('reads raw bytes as UTF-8 (a sendBeacon batch) and writes a parsed form as HAR exporters do', () => {
    const raw = bodyOf({ raw: [{ bytes: new TextEncoder().encode('en=page_view\r\nen=scroll&épn=1').buffer as ArrayBuffer }] });
    expect(raw).toEqual({ mimeType: 'text/plain;charset=UTF-8', text: 'en=page_view\r\nen=scroll&épn=1' });
    const form = bodyOf({ formData: { id: ['123'], ev: ['Purchase'], 'cd[value]': ['9.99'] } });
    expect(form?.params).toEqual([
      { name: 'id', value: '123' },
      { name: 'ev', value: 'Purchase' },
      { name: 'cd[value]', value: '9.99' },
    ]);
    expect(form?.text).toBe('id=123&ev=Purchase&cd%5Bvalue%5D=9.99');
    expect(bodyOf(null)).toBeNull();
    expect(bodyOf({ raw: [{ file: '/tmp/x' }] })).toBeNull();
  });

  it('cuts a body over 256 KiB and says so', () => {
    const big = bodyOf({ raw: [{ bytes: new TextEncoder().encode('x'.repeat(300 * 1024)).buffer as ArrayBuffer }] });
    expect(big?.text).toHaveLength(256 * 1024);
    expect(big?.truncated).toBe(true);
  });
});

describe('LiveCapture', () => {
  it('splits a batched beacon into events, numbers hits in request order and renumbers a late-arriving earlier request', () => {
    const capture = new LiveCapture();
    const batch = request(ga4('page_view').replace('&en=page_view', ''), 100, {
      body: 'en=page_view\r\nen=scroll&epn.percent_scrolled=90',
    });
    const later = request(ga4('purchase', '&cu=EUR&epn.value=10&ep.transaction_id=T1'), 300);
    capture.apply([batch, later]);
    expect(capture.hits().map((hit) => [hit.id, hit.type, hit.batch])).toEqual([
      [0, 'page_view', { index: 1, size: 2 }],
      [1, 'scroll', { index: 2, size: 2 }],
      [2, 'purchase', null],
    ]);
    // A request captured later but started earlier (another frame) goes before them, as in the HAR.
    capture.apply([request(ga4('first_visit'), 50)]);
    expect(capture.hits().map((hit) => [hit.id, hit.type])).toEqual([
      [0, 'first_visit'],
      [1, 'page_view'],
      [2, 'scroll'],
      [3, 'purchase'],
    ]);
  });

  it('takes the status when it arrives: a blocked request becomes an http_error warning, an answer clears it', () => {
    const capture = new LiveCapture();
    const blocked = request(ga4('page_view'), 0);
    const ok = request(ga4('scroll'), 10);
    capture.apply([blocked, ok, status(blocked, 0, 'net::ERR_BLOCKED_BY_CLIENT'), status(ok, 204)]);
    const { hits, warnings } = capture.analyse();
    expect(hits.map((hit) => hit.status)).toEqual([0, 204]);
    const http = warnings.filter((warning) => warning.code === 'http_error');
    expect(http.map((warning) => warning.hitId)).toEqual([0]);
    expect(hits[0]!.warningIds.map((id) => warnings[id]!.code)).toContain('http_error');
    expect(capture.exportInput().answers.get(blocked.requestId)).toEqual({ status: 0, error: 'net::ERR_BLOCKED_BY_CLIENT' });
  });

  it('groups hits and dataLayer pushes by page load: the load before capture, a link, a reload; SPA routes stay in their load', () => {
    const capture = new LiveCapture();
    capture.apply([
      request(ga4('scroll'), -500),
      navigation('https://www.shop.example/', 0),
      push({ event: 'gtm.js' }, 5),
      request(ga4('page_view'), 20),
      navigation('https://www.shop.example/#/cart', 400, 'history'),
      navigation('https://www.shop.example/', 1000, 'reload'),
      request(ga4('page_view'), 1020),
    ]);
    const { loads, loadOfHit } = capture.analyse();
    expect(loads.map(({ load, hitIds, dataLayer }) => [load.transition, load.url, hitIds, dataLayer.length, load.routes.length])).toEqual([
      ['earlier', 'https://www.shop.example/', [0], 0, 0],
      ['link', 'https://www.shop.example/', [1], 1, 1],
      ['reload', 'https://www.shop.example/', [2], 0, 0],
    ]);
    expect(Array.from(loadOfHit)).toEqual([0, 1, 2]);
  });

  it('puts a page’s first pushes in its own load by document, although they ran before the browser logged the commit', () => {
    const capture = new LiveCapture();
    const first = { ...navigation('https://www.shop.example/', 0), documentId: 'doc-1' };
    const second = { ...navigation('https://www.shop.example/', 1_000, 'reload'), documentId: 'doc-2' };
    // A beacon of the first page sent on unload, after the second navigation started but carrying its document.
    const unload = { ...request(ga4('page_hide'), 1_003), documentId: 'doc-1' };
    const early = { ...push(['consent', 'default', { analytics_storage: 'denied' }], 995, true), documentId: 'doc-2' };
    const stranger = push({ event: 'no_document' }, 995);
    capture.apply([first, second, unload, early, stranger, { ...request(ga4('page_view'), 1_010), documentId: 'doc-2' }]);
    const { loads } = capture.analyse();
    expect(loads.map(({ load, hitIds, dataLayer }) => [load.transition, hitIds, dataLayer.map((record) => record.time - T0)])).toEqual([
      ['link', [0], [995]],
      ['reload', [1], [995]],
    ]);
    const har = buildHar({ ...capture.exportInput(), creator: { name: 't', version: '1' } });
    expect(har.log.entries.map((entry) => entry.pageref)).toEqual(['page_1', 'page_2']);
  });

  it('skips records it has applied (a panel reading overlapping batches)', () => {
    const capture = new LiveCapture();
    const records: CaptureRecord[] = [navigation('https://www.shop.example/', 0), request(ga4('page_view'), 10)];
    capture.apply(records);
    capture.apply(records);
    expect(capture.hitCount).toBe(1);
    expect(capture.analyse().loads).toHaveLength(1);
  });
});

describe('live warnings', () => {
  const codes = (capture: LiveCapture) => capture.analyse().warnings.map((warning) => [warning.code, warning.hitId]);
  const consent = (target: 'default' | 'update', params: Record<string, unknown>, at: number) =>
    push(['consent', target, params], at, true);

  it('flags a Google hit sent before the consent default of its page load, or made before it and sent just after, not one after it', () => {
    const capture = new LiveCapture();
    capture.apply([
      navigation('https://www.shop.example/', 0),
      request(ga4('page_view', '&gcs=G100'), 10),
      consent('default', { ad_storage: 'denied', analytics_storage: 'denied' }, 30),
      // Queued before the default (no consent state on it), on the network 2 ms after.
      request(ga4('early'), 32),
      request(ga4('scroll', '&gcs=G100'), 40),
      // No state, but long after the default: a tag outside consent mode (the HAR analyser's missing_consent), not this.
      request(ga4('late'), 5_000),
    ]);
    expect(codes(capture).filter(([code]) => code === 'hit_before_consent_default')).toEqual([
      ['hit_before_consent_default', 0],
      ['hit_before_consent_default', 1],
    ]);
    expect(codes(capture).filter(([code]) => code === 'missing_consent')).toEqual([
      ['missing_consent', 1],
      ['missing_consent', 3],
    ]);
  });

  it('flags identifiers sent after consent was denied, per the storage the vendor needs, and a hit whose gcs contradicts the page', () => {
    const capture = new LiveCapture();
    capture.apply([
      navigation('https://www.shop.example/', 0),
      consent('default', { ad_storage: 'granted', analytics_storage: 'granted' }, 1),
      request('https://www.facebook.com/tr/?id=123&ev=PageView&fbp=fb.1.2.3', 10),
      consent('update', { ad_storage: 'denied' }, 20),
      // Meta needs ad_storage, now denied, and carries _fbp.
      request('https://www.facebook.com/tr/?id=123&ev=AddToCart&fbp=fb.1.2.3', 30),
      // GA4 needs analytics_storage, still granted: fine, but its gcs says ad_storage granted.
      request(ga4('add_to_cart', '&gcs=G111'), 40),
      // A Meta request without any identifier is not flagged.
      request('https://www.facebook.com/tr/?id=123&ev=Lead', 50),
    ]);
    const found = codes(capture);
    expect(found.filter(([code]) => code === 'identifiers_after_consent_denied')).toEqual([['identifiers_after_consent_denied', 1]]);
    expect(found.filter(([code]) => code === 'consent_state_mismatch')).toEqual([['consent_state_mismatch', 2]]);
    const warning = capture.analyse().warnings.find((each) => each.code === 'identifiers_after_consent_denied')!;
    expect(warning.severity).toBe('error');
    expect(warning.message).toContain('ad_storage to denied, with client id fb.1.2.3');
  });

  it('flags a second page_view for the same page in one page load beyond the HAR rule’s 2 s, and a changed client id', () => {
    const capture = new LiveCapture();
    capture.apply([
      navigation('https://www.shop.example/', 0),
      request(ga4('page_view'), 10),
      request(ga4('page_view'), 5_000),
      request(ga4('scroll').replace('cid=111.222', 'cid=333.444'), 6_000),
      navigation('https://www.shop.example/', 9_000, 'reload'),
      request(ga4('page_view'), 9_010),
    ]);
    const found = codes(capture);
    expect(found.filter(([code]) => code === 'duplicate_page_view_in_load')).toEqual([['duplicate_page_view_in_load', 1]]);
    expect(found.filter(([code]) => code === 'duplicate_page_view')).toEqual([]);
    expect(found.filter(([code]) => code === 'client_id_changed')).toEqual([['client_id_changed', 2]]);
  });

  it('keeps the HAR analyser’s findings and their order before the live ones', () => {
    const capture = new LiveCapture();
    capture.apply([request(ga4('page_view').replace('&cid=111.222', ''), 0), request(ga4('page_view'), 500)]);
    const { warnings } = capture.analyse();
    const har = analyseHar(parseHar(JSON.stringify(buildHar({ ...capture.exportInput(), creator: { name: 't', version: '1' } }))));
    expect(warnings.slice(0, har.warnings.length).map(({ code, hitId, message }) => [code, hitId, message])).toEqual(
      har.warnings.map(({ code, hitId, message }) => [code, hitId, message]),
    );
  });
});

interface Sample {
  method: string;
  url: string;
  body?: string;
  expect: { vendor: string | null };
}

describe('HAR export', () => {
  it('writes entries that decode like the live panel, field for field', () => {
    const record = request(ga4('page_view'), 0, { body: 'en=page_view\r\nen=scroll' });
    const answer = { status: 204, error: null };
    expect(decodeEntry(harEntry(record, answer) as never, 0)).toEqual(decodeEntry(decodableEntry(record, answer), 0));
  });

  it('round-trips every real-world sample: the web analyser decodes the HAR into the same hits, warnings and pages', () => {
    const samples = (JSON.parse(fixture('real-world-requests.json')) as { samples: Sample[] }).samples;
    const capture = new LiveCapture();
    const records: CaptureRecord[] = [navigation('https://www.shop.example/', 0)];
    samples.forEach((sample, index) => {
      const record = request(sample.url, 10 + Math.floor(index / 3), { method: sample.method, body: sample.body });
      records.push(record, status(record, index % 7 === 0 ? 0 : 200, index % 7 === 0 ? 'net::ERR_BLOCKED_BY_CLIENT' : null));
    });
    records.push(navigation('https://www.shop.example/checkout', 100), push({ event: 'purchase', ecommerce: { value: 1 } }, 101));
    capture.apply(records);
    const live = capture.analyse();
    const text = JSON.stringify(buildHar({ ...capture.exportInput(), creator: { name: 'Hitscope for Browsers', version: '0.1.0' } }));
    const har = parseHar(text);
    const web = analyseHar(har);

    expect(live.hits.length).toBe(samples.filter((sample) => sample.expect.vendor !== null).length);
    const shape = (hits: typeof web.hits) =>
      hits.map(({ id, vendor, type, accountId, status, params, consent }) => ({ id, vendor, type, accountId, status, params, consent }));
    expect(shape(live.hits)).toEqual(shape(web.hits));
    expect(live.warnings.slice(0, web.warnings.length)).toEqual(web.warnings);
    expect(har.log.entries).toHaveLength(live.hits.length === 0 ? 0 : capture.exportInput().requests.length);
    const log = har.log as unknown as {
      pages: Array<{ id: string; title: string }>;
      entries: Array<{ pageref?: string }>;
      _dataLayer: unknown[];
    };
    expect(log.pages.map((page) => page.title)).toEqual(['https://www.shop.example/', 'https://www.shop.example/checkout']);
    expect(new Set(log.entries.map((entry) => entry.pageref))).toEqual(new Set(['page_1']));
    expect(log._dataLayer).toEqual([
      {
        time: new Date(T0 + 101).toISOString(),
        url: 'https://www.shop.example/',
        gtag: false,
        via: 'push',
        script: null,
        value: { event: 'purchase', ecommerce: { value: 1 } },
      },
    ]);
  });
});

describe('CSV export', () => {
  it('writes one row per parameter and item parameter, repeating the hit’s columns, formula-safe', () => {
    const capture = new LiveCapture();
    capture.apply([
      navigation('https://www.shop.example/', 0),
      request(ga4('purchase', '&cu=EUR&epn.value=10&ep.coupon=%3DHYPERLINK(1)&pr1=idSKU1~nmShoe'), 10),
    ]);
    const analysis = capture.analyse();
    const lines = captureCsv(analysis).trimEnd().split('\r\n');
    expect(lines[0]).toBe(CSV_HEADER.map((cell) => `"${cell}"`).join(','));
    const hit = analysis.hits[0]!;
    expect(lines).toHaveLength(1 + hit.params.length + hit.items[0]!.params.length);
    expect(lines).toContainEqual(expect.stringContaining('"coupon (event param)","ep.coupon","\'=HYPERLINK(1)"'));
    expect(lines).toContainEqual(expect.stringContaining('"pr1.id",'));
    expect(
      lines[1]!.startsWith(`"1","${hit.time}","1","https://www.shop.example/","Google Analytics 4","purchase","G-TEST123","111.222","0"`),
    ).toBe(true);
  });
});
