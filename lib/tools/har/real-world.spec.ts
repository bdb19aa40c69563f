import { entry, fixture, harOf } from '../../../test/fixtures/har/helpers.js';
import { analyseHar } from './analyse.js';
import { ga4Label } from './labels.js';
import type { Hit } from './types.js';

/**
 * Requests collected from public sources (see test/fixtures/har/SOURCES.md and the `source` of each
 * sample): what the analyser makes of each, one HAR entry at a time.
 */
interface Sample {
  name: string;
  source: string;
  method: string;
  url: string;
  body?: string;
  note?: string;
  expect: {
    vendor: Hit['vendor'] | null;
    type?: string;
    accountId?: string;
    page?: string;
    title?: string;
    secondary?: boolean;
    consent?: Record<string, string>;
    ldu?: 'on' | 'off';
    params?: Record<string, string>;
    warnings?: string[];
  };
}

const samples = (JSON.parse(fixture('real-world-requests.json')) as { samples: Sample[] }).samples;

function analyse(sample: Sample) {
  return analyseHar(harOf(entry(sample.url, { method: sample.method, body: sample.body, status: 200 })));
}

describe('real-world requests', () => {
  it('has a source for every sample', () => {
    expect(samples.length).toBeGreaterThanOrEqual(30);
    for (const sample of samples) expect(sample.source.length).toBeGreaterThan(20);
  });

  it.each(samples.map((sample) => [sample.name, sample] as const))('%s', (_name, sample) => {
    const { hits, warnings } = analyse(sample);
    const want = sample.expect;
    if (want.vendor === null) {
      expect(hits).toHaveLength(0);
      return;
    }
    expect(hits).toHaveLength(1);
    const hit = hits[0]!;
    expect(hit.vendor).toBe(want.vendor);
    if (want.type !== undefined) expect(hit.type).toBe(want.type);
    if (want.accountId !== undefined) expect(hit.accountId).toBe(want.accountId);
    if (want.page !== undefined) expect(hit.page).toBe(want.page);
    if (want.title !== undefined) expect(hit.title).toBe(want.title);
    expect(Boolean(hit.secondary)).toBe(Boolean(want.secondary));
    for (const [type, state] of Object.entries(want.consent ?? {})) {
      expect(hit.consent?.signals.find((signal) => signal.type === type)?.state).toBe(state);
    }
    if (want.ldu) {
      expect(hit.consent?.source).toBe('meta-ldu');
      expect(hit.consent?.signals[0]?.state).toBe(want.ldu === 'on' ? 'denied' : 'granted');
      expect(warnings.some((warning) => warning.code === 'meta_limited_data_use')).toBe(want.ldu === 'on');
    }
    for (const [key, value] of Object.entries(want.params ?? {})) {
      expect(hit.params.find((param) => param.key === key)?.value).toBe(value);
    }
    if (want.warnings) {
      const pixelCodes = warnings.map((warning) => warning.code).filter((code) => code.startsWith('pixel_'));
      expect(pixelCodes.sort()).toEqual([...want.warnings].sort());
    }
    // Every hit is attributed and every parameter has a readable name or its own key.
    for (const param of hit.params) expect(param.name.length).toBeGreaterThan(0);
  });

  it('names the GA4 keys gtag sends that used to show raw, and ir as ignore_referrer', () => {
    for (const key of ['_geo', '_rdi', 'tt', '_glv', 'gtm_up', '_gsid', 'gaf', 'ur', 'lps', 'rcb', 'edid', 'pae', 'are', 'pscdl', '_eu']) {
      expect([key, ga4Label(key)]).not.toEqual([key, key]);
    }
    expect(ga4Label('ir')).toMatch(/ignore.?referrer/i);
    expect(ga4Label('tt')).toMatch(/traffic.?type/i);
  });

  it('decodes a whole capture of these requests with secondary requests left out of the counts and consent checks', () => {
    const entries = samples.map((sample, index) =>
      entry(sample.url, {
        method: sample.method,
        body: sample.body,
        status: 200,
        at: new Date(Date.UTC(2025, 0, 1, 0, 0, index)).toISOString(),
      }),
    );
    const { hits, warnings, summary } = analyseHar(harOf(...entries));
    expect(hits).toHaveLength(samples.filter((sample) => sample.expect.vendor !== null).length);
    const vendors = summary.byVendor.map((row) => row.key).sort();
    expect(vendors).toEqual([
      'floodlight',
      'ga4',
      'google-ads',
      'linkedin',
      'meta',
      'microsoft',
      'pinterest',
      'reddit',
      'snapchat',
      'tiktok',
      'x',
    ]);
    const followUps = new Set(hits.filter((hit) => hit.secondary).map((hit) => hit.id));
    // Five Floodlight follow-ups, X's t.co mirror and Snap's cookie matching.
    expect(followUps.size).toBe(7);
    expect(summary).toMatchObject({ rows: hits.length, secondary: 7, hits: hits.length - 7 });
    // The t.co mirror is linked to the analytics.twitter.com event it repeats.
    const mirror = hits.find((hit) => hit.host === 't.co')!;
    expect(hits[mirror.follows!]).toMatchObject({ vendor: 'x', host: 'analytics.twitter.com', accountId: 'o81g6' });
    for (const warning of warnings) {
      if (warning.code === 'missing_consent') expect(followUps.has(warning.hitId!)).toBe(false);
    }
  });
});
