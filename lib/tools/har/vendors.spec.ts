import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { entry, fixture, harOf } from '../../../test/fixtures/har/helpers.js';
import { analyseHar, decodeRequest } from './analyse.js';
import { decodersFor } from './dispatch.js';
import { splitUrl } from './query.js';
import type { CapturedRequest } from './request.js';
import type { Hit } from './types.js';
import { VENDOR_DECODERS, VENDOR_KINDS, VENDOR_LABELS } from './vendors.js';

/**
 * Every vendor decoder against real-shaped requests (test/fixtures/har/vendor-requests.json, each
 * with its source), one HAR entry at a time: vendor, event, account, page, secondary / container /
 * invalid marks, parameters and warnings.
 */
interface Sample {
  vendor: string | null;
  name: string;
  source: string;
  method: string;
  url: string;
  body?: string;
  transport?: 'GET' | 'POST' | 'beacon';
  expect: {
    vendor: string | null;
    type?: string;
    accountId?: string;
    page?: string;
    title?: string;
    clientId?: string;
    hits?: number;
    secondary?: boolean;
    container?: boolean;
    invalid?: 'malformed' | 'older-format';
    formatNote?: boolean;
    consent?: Record<string, string>;
    params?: Record<string, string>;
    warnings?: string[];
  };
}

const samples = (JSON.parse(fixture('vendor-requests.json')) as { samples: Sample[] }).samples;

/** Warnings about the request itself (the HTTP status is fine in the samples; consent mode is file-wide). */
const FILE_WIDE = new Set(['no_consent_mode', 'missing_consent', 'http_error']);

function analyse(sample: Sample) {
  return analyseHar(harOf(entry(sample.url, { method: sample.method, body: sample.body, status: 200 })));
}

describe('vendor decoders: real-shaped requests', () => {
  it.each(samples.map((sample) => [sample.name, sample] as const))('%s', (_name, sample) => {
    const { hits, warnings } = analyse(sample);
    const want = sample.expect;
    if (want.vendor === null) {
      expect(hits).toEqual([]);
      return;
    }
    expect(hits.length).toBe(want.hits ?? 1);
    const hit = hits[0]!;
    expect(hit.vendor).toBe(want.vendor);
    expect(hit.kind).toBe(VENDOR_KINDS[hit.vendor]);
    if (want.type !== undefined) expect(hit.type).toBe(want.type);
    if (want.accountId !== undefined) expect(hit.accountId).toBe(want.accountId);
    if (want.page !== undefined) expect(hit.page).toBe(want.page);
    if (want.title !== undefined) expect(hit.title).toBe(want.title);
    if (want.clientId !== undefined) expect(hit.clientId).toBe(want.clientId);
    expect(Boolean(hit.secondary)).toBe(Boolean(want.secondary));
    expect(Boolean(hit.container)).toBe(Boolean(want.container));
    expect(hit.invalid?.kind).toBe(want.invalid);
    if (want.invalid) expect(hit.invalid!.reason.length).toBeGreaterThan(10);
    if (want.formatNote !== undefined) expect(Boolean(hit.formatNote)).toBe(want.formatNote);
    for (const [type, state] of Object.entries(want.consent ?? {})) {
      expect([type, hit.consent?.signals.find((signal) => signal.type === type)?.state]).toEqual([type, state]);
    }
    for (const [key, value] of Object.entries(want.params ?? {})) {
      expect([key, hit.params.find((param) => param.key === key)?.value]).toEqual([key, value]);
    }
    if (want.warnings) {
      const codes = warnings.filter((warning) => warning.hitId === hit.id && !FILE_WIDE.has(warning.code)).map((warning) => warning.code);
      expect([...new Set(codes)].sort()).toEqual([...want.warnings].sort());
    }
    for (const each of hits) {
      for (const param of each.params) expect(param.name.length).toBeGreaterThan(0);
    }
  });

  it('has GET and POST (or sendBeacon) samples, with a source, for every registered vendor', () => {
    for (const decoder of VENDOR_DECODERS) {
      const mine = [
        ...samples.filter((sample) => sample.vendor === decoder.id),
        ...realWorld.filter((sample) => sample.expect.vendor === decoder.id),
      ];
      expect([decoder.id, mine.length > 0]).toEqual([decoder.id, true]);
      for (const sample of mine) expect(sample.source.length).toBeGreaterThan(20);
    }
    // Vendors whose tags POST or beacon their hits are tested with a body.
    const posting = [
      'adobe-analytics',
      'adobe-web-sdk',
      'adobe-target',
      'matomo',
      'piwik-pro',
      'segment',
      'rudderstack',
      'mixpanel',
      'amplitude',
      'mparticle',
      'tealium-eventstream',
      'piano',
      'clarity',
      'hotjar',
      'hubspot',
      'spotify',
      'snapchat',
      'tiktok',
      'ga4',
      'posthog',
      'plausible',
      'snowplow',
      'klaviyo',
      'fullstory',
    ];
    for (const vendor of posting) {
      expect([vendor, samples.some((sample) => sample.vendor === vendor && sample.body !== undefined)]).toEqual([vendor, true]);
    }
    // Vendors that batch are tested with a batched body.
    for (const vendor of [
      'ga4',
      'adobe-web-sdk',
      'matomo',
      'piwik-pro',
      'segment',
      'mixpanel',
      'amplitude',
      'mparticle',
      'tealium-eventstream',
      'piano',
      'criteo',
      'spotify',
      'posthog',
      'snowplow',
    ]) {
      expect([vendor, samples.some((sample) => sample.vendor === vendor && (sample.expect.hits ?? 1) > 1)]).toEqual([vendor, true]);
    }
  });

  it('shows a request to every endpoint a decoder knows, even an unreadable one, with its reason and raw parameters', () => {
    const broken = samples.filter((sample) => sample.expect.invalid);
    expect(broken.length).toBeGreaterThanOrEqual(10);
    for (const sample of broken) {
      const { hits, warnings } = analyse(sample);
      expect(hits).toHaveLength(1);
      const warning = warnings.find((each) => each.code === 'malformed_hit')!;
      expect(warning.hitId).toBe(hits[0]!.id);
      expect(warning.message).toContain(hits[0]!.invalid!.reason);
      expect(warning.message).toContain(VENDOR_LABELS[hits[0]!.vendor as Hit['vendor']]);
    }
  });

  it('decodes the same request the same way when the browser extension hands it over (decodeRequest)', () => {
    for (const sample of samples.filter((each) => each.expect.vendor)) {
      const { host, path, query } = splitUrl(sample.url);
      const request: CapturedRequest = {
        entryIndex: 0,
        method: sample.method,
        url: sample.url,
        host,
        path,
        query,
        body: sample.body ?? null,
        bodyParams: null,
        status: 200,
        time: '2025-03-14T09:26:53.000Z',
        timeMs: Date.parse('2025-03-14T09:26:53.000Z'),
        referer: null,
      };
      const drafts = decodeRequest(request);
      expect([sample.name, drafts[0]?.vendor, drafts.length]).toEqual([sample.name, sample.expect.vendor, sample.expect.hits ?? 1]);
    }
  });
  it('never throws on a request cut short, and still shows one sent to a vendor’s own host', () => {
    const ownHost = (vendor: string, host: string) =>
      VENDOR_DECODERS.find((decoder) => decoder.id === vendor)!.hosts?.some((name) =>
        name.endsWith('.*') ? host.split('.').includes(name.slice(0, -2)) : host === name || host.endsWith(`.${name}`),
      ) ?? false;
    for (const sample of samples.filter((each) => each.expect.vendor)) {
      const question = sample.url.indexOf('?');
      for (const fraction of [0, 0.3, 0.5, 0.9]) {
        // The query string and the body cut at the same fraction, as a capture or a proxy cuts them.
        const url =
          question === -1 ? sample.url : sample.url.slice(0, question + 1 + Math.floor((sample.url.length - question - 1) * fraction));
        const body = sample.body === undefined ? null : sample.body.slice(0, Math.floor(sample.body.length * fraction));
        const { host, path, query } = splitUrl(url);
        const request: CapturedRequest = {
          entryIndex: 0,
          method: sample.method,
          url,
          host,
          path,
          query,
          body,
          bodyParams: null,
          status: 200,
          time: '',
          timeMs: 0,
          referer: null,
        };
        const drafts = decodeRequest(request);
        if (ownHost(sample.expect.vendor!, host)) expect([sample.name, fraction, drafts.length > 0]).toEqual([sample.name, fraction, true]);
      }
    }
  });
});

const realWorld = (
  JSON.parse(fixture('real-world-requests.json')) as { samples: Array<{ source: string; expect: { vendor: string | null } }> }
).samples;

describe('the registry', () => {
  it('gives every vendor one file, a name, a kind and its labels, and no id twice', () => {
    const ids = VENDOR_DECODERS.map((decoder) => decoder.id);
    expect(new Set(ids).size).toBe(ids.length);
    // Four times the twelve vendors the analyser started with.
    expect(ids.length).toBeGreaterThanOrEqual(48);
    for (const decoder of VENDOR_DECODERS) {
      expect(decoder.label.length).toBeGreaterThan(2);
      expect(['analytics', 'ads', 'tag-manager', 'experience']).toContain(decoder.kind);
      expect(Object.keys(decoder.labels).length).toBeGreaterThan(0);
      expect(decoder.hosts?.length || decoder.anyHost).toBeTruthy();
    }
  });

  it('asks no decoder about ordinary requests, and only the host’s decoders about a vendor’s', () => {
    expect(decodersFor('shop.example.com', 'https://shop.example.com/products/tee?id=3')).toBeNull();
    expect(decodersFor('cdn.example.net', 'https://cdn.example.net/app.js')).toBeNull();
    expect(decodersFor('sb.scorecardresearch.com', 'https://sb.scorecardresearch.com/b?c1=2')!.map((decoder) => decoder.id)).toEqual([
      'comscore',
    ]);
    // A first-party endpoint is found by its path, whatever the host.
    expect(decodersFor('stats.shop.example', 'https://stats.shop.example/matomo.php?idsite=1')!.map((decoder) => decoder.id)).toEqual([
      'matomo',
    ]);
    // google.* hosts reach Google's decoders under any public suffix.
    expect(decodersFor('www.google.co.uk', 'https://www.google.co.uk/pagead/1p-user-list/1/')!.map((decoder) => decoder.id)).toEqual([
      'ga4',
      'ua',
      'google-ads',
      'floodlight',
    ]);
  });

  it('documents every vendor in docs/decoders.md with the number of parameters it names', () => {
    const doc = readFileSync(join(process.cwd(), 'docs/decoders.md'), 'utf8');
    for (const decoder of VENDOR_DECODERS) {
      const row = doc.split('\n').find((line) => line.startsWith(`| ${decoder.label} |`));
      expect([decoder.id, row !== undefined]).toEqual([decoder.id, true]);
      const cells = row!.split('|').map((cell) => cell.trim());
      expect([decoder.id, cells[2]]).toEqual([decoder.id, `\`${decoder.id}\``]);
      expect([decoder.id, cells[4]]).toEqual([decoder.id, String(Object.keys(decoder.labels).length)]);
    }
  });
});
