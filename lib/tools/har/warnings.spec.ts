import { entry, fixture, harOf } from '../../../test/fixtures/har/helpers.js';
import { analyseHar, parseHar } from './analyse.js';
import type { HarAnalysis } from './types.js';

const GA4 = 'https://region1.google-analytics.com/g/collect?v=2&tid=G-ABC123&gcs=G111&cid=1.2&dl=https%3A%2F%2Fa.example%2F';
const codes = (analysis: HarAnalysis, hitId?: number) =>
  analysis.warnings.filter((warning) => hitId === undefined || warning.hitId === hitId).map((warning) => [warning.code, warning.severity]);

describe('warnings', () => {
  it('finds the mistakes of the shop session, each linked to its hit', () => {
    const analysis = analyseHar(parseHar(fixture('shop-session.har')));
    const byHit = analysis.warnings.map((warning) => [
      warning.code,
      warning.severity,
      warning.hitId === null ? null : analysis.hits[warning.hitId]!.type,
    ]);
    expect(byHit).toEqual([
      ['ua_sunset', 'info', 'pageview'],
      ['ua_sunset', 'info', 'event'],
      ['ua_sunset', 'info', 'timing'],
      ['http_error', 'warning', 'view_promotion'],
      ['meta_purchase_missing_value', 'error', 'Purchase'],
      ['duplicate_page_view', 'warning', 'page_view'],
      ['missing_consent', 'warning', 'page_view'],
      ['mixed_measurement_ids', 'info', 'page_view'],
    ]);
    const duplicate = analysis.warnings.find((warning) => warning.code === 'duplicate_page_view')!;
    // Row #1 is the Google tag (gtag.js) that loaded: the first page_view is #2.
    expect(duplicate.message).toBe('Duplicate page view for G-8XJ3K2L9QW on the same page 650 ms after hit #2');
    expect(analysis.hits[duplicate.hitId!]!.warningIds).toContain(duplicate.id);
    expect(analysis.warnings.find((warning) => warning.code === 'missing_consent')!.page).toBe('https://shop.example.com/products/tee');
    expect(analysis.summary.warnings).toEqual({ error: 1, warning: 3, info: 4 });
  });

  it('does not report page views more than 2 s apart or on different pages', () => {
    const analysis = analyseHar(
      harOf(
        entry(`${GA4}&en=page_view`, { at: '2025-01-01T00:00:00.000Z' }),
        entry(`${GA4}&en=page_view`, { at: '2025-01-01T00:00:02.500Z' }),
        entry(`${GA4.replace('a.example%2F', 'a.example%2Fb')}&en=page_view`, { at: '2025-01-01T00:00:02.600Z' }),
      ),
    );
    expect(codes(analysis)).toEqual([]);
  });

  it('counts a Google signals ping that repeats a page_view as secondary of it: no second page view, no duplicate', () => {
    const analysis = analyseHar(
      harOf(
        entry(`${GA4}&en=page_view`, { at: '2025-01-01T00:00:00.000Z' }),
        entry(`${GA4.replace('region1.google-analytics.com', 'stats.g.doubleclick.net')}&en=page_view`, {
          at: '2025-01-01T00:00:00.300Z',
          method: 'POST',
        }),
      ),
    );
    const [hit, ping] = analysis.hits;
    expect(hit).toMatchObject({ vendor: 'ga4', type: 'page_view' });
    expect(hit!.secondary).toBeUndefined();
    expect(ping).toMatchObject({ vendor: 'ga4', follows: hit!.id, secondary: expect.stringContaining('signals') });
    expect(codes(analysis)).toEqual([]);
    expect(analysis.summary).toMatchObject({ rows: 2, hits: 1, secondary: 1 });
    // The event filter lists both rows; the summary says one of them is secondary.
    expect(analysis.summary.byEvent).toEqual([{ key: 'page_view', count: 2, secondary: 1 }]);
  });

  it('treats a missing cid as an error, unless analytics_storage is denied (cookieless ping)', () => {
    const analysis = analyseHar(parseHar(fixture('consent-denied.har')));
    expect(codes(analysis, 0)).toEqual([['cookieless_ping', 'info']]);
    const missing = analyseHar(harOf(entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&gcs=G111&en=page_view')));
    expect(codes(missing)).toEqual([['missing_client_id', 'error']]);
  });

  it('counts a gcd with every signal "not set" as no consent state', () => {
    const analysis = analyseHar(parseHar(fixture('consent-denied.har')));
    expect(analysis.warnings.filter((warning) => warning.hitId === 1).map((warning) => [warning.code, warning.message])).toEqual([
      [
        'missing_consent',
        'Consent not set on this hit (gcd 13l3l3l3l1: every signal "not set") although other Google hits carry one: this tag may fire before the consent default',
      ],
    ]);
    const none = analyseHar(harOf(entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&cid=1&gcd=13l3l3l3l1&en=page_view')));
    expect(codes(none)).toEqual([['no_consent_mode', 'info']]);
  });

  it('notes once per file when no Google hit carries any consent state', () => {
    const analysis = analyseHar(
      harOf(
        entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&cid=1&en=page_view'),
        entry('https://www.google-analytics.com/g/collect?v=2&tid=G-A&cid=1&en=click'),
      ),
    );
    expect(analysis.warnings.map((warning) => [warning.code, warning.hitId, warning.message])).toEqual([
      [
        'no_consent_mode',
        0,
        'None of the 2 Google tag hits carries a consent state (no gcs, and no gcd signal set): consent mode does not seem to be implemented',
      ],
    ]);
  });

  it('checks GA4 naming rules and collection limits', () => {
    const longName = 'a_really_long_custom_event_name_over_forty_chars';
    const params = Array.from({ length: 26 }, (_, i) => `ep.p${i}=x`).join('&');
    const analysis = analyseHar(
      harOf(
        entry(`${GA4}&en=${longName}`),
        entry(`${GA4}&en=first_visit`),
        entry(`${GA4}&en=2fast`),
        entry(`${GA4}&en=lots&${params}`),
        entry(`${GA4}&en=big&ep.${'n'.repeat(41)}=1&ep.desc=${'v'.repeat(101)}&ep.page_location=${'u'.repeat(500)}&ep._secret=1`),
        entry(`${GA4}&en=users&up.user_id=7&up.${'u'.repeat(25)}=1&up.tier=${'t'.repeat(37)}`),
        entry(`${GA4}&en=purchase&epn.value=9.99`),
      ),
    );
    expect(codes(analysis, 0)).toEqual([['event_name_too_long', 'error']]);
    expect(codes(analysis, 1)).toEqual([['event_name_reserved', 'error']]);
    expect(codes(analysis, 2)).toEqual([['event_name_invalid', 'error']]);
    expect(codes(analysis, 3)).toEqual([['too_many_event_params', 'warning']]);
    expect(codes(analysis, 4)).toEqual([
      ['param_name_too_long', 'error'],
      ['param_value_too_long', 'warning'],
      ['param_name_reserved', 'error'],
    ]);
    expect(codes(analysis, 5)).toEqual([
      ['user_property_reserved', 'error'],
      ['user_property_name_too_long', 'error'],
      ['user_property_value_too_long', 'warning'],
    ]);
    expect(codes(analysis, 6)).toEqual([
      ['ecommerce_missing_currency', 'warning'],
      ['purchase_missing_transaction_id', 'warning'],
    ]);
  });

  it('reports collector errors and blocked requests, not redirects', () => {
    const analysis = analyseHar(
      harOf(
        entry(`${GA4}&en=a`, { status: 400 }),
        entry(`${GA4}&en=b`, { status: 0 }),
        entry('https://www.googleadservices.com/pagead/conversion/555/?label=x&gcs=G111', { status: 302 }),
      ),
    );
    expect(analysis.warnings.map((warning) => [warning.hitId, warning.message])).toEqual([
      [0, 'The collector answered HTTP 400'],
      [1, 'The request failed or was blocked (no response, status 0)'],
    ]);
  });
});
