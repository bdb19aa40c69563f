import { buildGa4mpUrl, GA4MP_ORIGINS, redactGa4mpUrl } from './endpoint.js';
import { generateAppInstanceId, generateClientId } from './ids.js';
import { APP_INSTANCE_ID_PATTERN } from './limits.js';

describe('buildGa4mpUrl', () => {
  const web = { measurement_id: 'G-ABC123', api_secret: 's3cr3t&x' };

  it('builds the four documented endpoints', () => {
    expect(buildGa4mpUrl(web, { region: 'global', debug: false })).toBe(
      'https://www.google-analytics.com/mp/collect?measurement_id=G-ABC123&api_secret=s3cr3t%26x',
    );
    expect(buildGa4mpUrl(web, { region: 'global', debug: true })).toBe(
      'https://www.google-analytics.com/debug/mp/collect?measurement_id=G-ABC123&api_secret=s3cr3t%26x',
    );
    expect(buildGa4mpUrl(web, { region: 'eu', debug: false })).toBe(
      'https://region1.google-analytics.com/mp/collect?measurement_id=G-ABC123&api_secret=s3cr3t%26x',
    );
    expect(buildGa4mpUrl(web, { region: 'eu', debug: true })).toBe(
      'https://region1.google-analytics.com/debug/mp/collect?measurement_id=G-ABC123&api_secret=s3cr3t%26x',
    );
  });

  it('uses firebase_app_id for app streams', () => {
    expect(buildGa4mpUrl({ firebase_app_id: '1:2:android:ab', api_secret: 's' }, { region: 'global', debug: true })).toBe(
      'https://www.google-analytics.com/debug/mp/collect?firebase_app_id=1%3A2%3Aandroid%3Aab&api_secret=s',
    );
  });

  it('only knows Google origins unless given others, and refuses an unknown region', () => {
    expect(Object.values(GA4MP_ORIGINS)).toEqual(['https://www.google-analytics.com', 'https://region1.google-analytics.com']);
    expect(Object.isFrozen(GA4MP_ORIGINS)).toBe(true);
    expect(
      buildGa4mpUrl(web, { region: 'global', debug: true, origins: { global: 'http://127.0.0.1:9', eu: 'http://127.0.0.1:9' } }),
    ).toMatch(/^http:\/\/127\.0\.0\.1:9\/debug\/mp\/collect\?/);
    expect(() => buildGa4mpUrl(web, { region: 'us' as 'eu', debug: true })).toThrow('Unknown GA4 region');
  });

  it('redacts the api_secret', () => {
    expect(redactGa4mpUrl(buildGa4mpUrl(web, { region: 'eu', debug: true }))).toBe(
      'https://region1.google-analytics.com/debug/mp/collect?measurement_id=G-ABC123&api_secret=REDACTED',
    );
  });
});

describe('identifier generators', () => {
  it('makes gtag-shaped client ids and 32-hex app instance ids', () => {
    expect(generateClientId(new Date('2026-01-01T00:00:00Z'))).toMatch(/^\d+\.1767225600$/);
    expect(generateAppInstanceId()).toMatch(APP_INSTANCE_ID_PATTERN);
    expect(generateAppInstanceId()).not.toBe(generateAppInstanceId());
  });
});
