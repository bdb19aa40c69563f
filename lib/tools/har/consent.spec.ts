import { decodeConsent, decodeGcd, decodeGcs } from './consent.js';

describe('consent decoding', () => {
  it('decodes gcs G1xy into ad_storage and analytics_storage', () => {
    expect(decodeGcs('G111')).toEqual([
      { type: 'ad_storage', state: 'granted' },
      { type: 'analytics_storage', state: 'granted' },
    ]);
    expect(decodeGcs('G101')).toEqual([
      { type: 'ad_storage', state: 'denied' },
      { type: 'analytics_storage', state: 'granted' },
    ]);
    expect(decodeGcs('G100')?.map((signal) => signal.state)).toEqual(['denied', 'denied']);
    expect(decodeGcs('X123')).toBeNull();
  });

  it('decodes gcd letters per signal into default and update states', () => {
    expect(decodeGcd('13r3r3r3r5')).toEqual([
      { type: 'ad_storage', state: 'granted', default: 'denied', update: 'granted', code: 'r' },
      { type: 'analytics_storage', state: 'granted', default: 'denied', update: 'granted', code: 'r' },
      { type: 'ad_user_data', state: 'granted', default: 'denied', update: 'granted', code: 'r' },
      { type: 'ad_personalization', state: 'granted', default: 'denied', update: 'granted', code: 'r' },
    ]);
    expect(decodeGcd('13l3l3l3l1')?.map((signal) => [signal.type, signal.state])).toEqual([
      ['ad_storage', 'not set'],
      ['analytics_storage', 'not set'],
      ['ad_user_data', 'not set'],
      ['ad_personalization', 'not set'],
    ]);
    expect(decodeGcd('11p1t1m1n5')?.map((signal) => [signal.default, signal.update, signal.state])).toEqual([
      ['denied', 'not set', 'denied'],
      ['granted', 'not set', 'granted'],
      ['not set', 'denied', 'denied'],
      ['not set', 'granted', 'granted'],
    ]);
    expect(decodeGcd('11q1u1v1r5')?.map((signal) => signal.state)).toEqual(['denied', 'denied', 'granted', 'granted']);
    expect(decodeGcd('nonsense')).toBeNull();
  });

  it('combines gcs and gcd into one readable state, gcd first', () => {
    expect(decodeConsent('G100', '11p1p1p1p5')?.text).toBe(
      'ad_storage denied (default denied); analytics_storage denied (default denied); ad_user_data denied (default denied); ad_personalization denied (default denied)',
    );
    expect(decodeConsent('G110', undefined)).toEqual({
      gcs: 'G110',
      signals: [
        { type: 'ad_storage', state: 'granted' },
        { type: 'analytics_storage', state: 'denied' },
      ],
      text: 'ad_storage granted; analytics_storage denied',
    });
    expect(decodeConsent(undefined, '13r3r3r3r5')?.text).toBe(
      'ad_storage granted (default denied, update granted); analytics_storage granted (default denied, update granted); ad_user_data granted (default denied, update granted); ad_personalization granted (default denied, update granted)',
    );
    expect(decodeConsent(undefined, undefined)).toBeNull();
  });
});
