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

describe('gcd letter table against the bit-level model', () => {
  // Analytics Debugger's "Google Consent Parser" documents gcd letters as characters of the alphabet
  // 0-9a-zA-Z-_ whose index carries the default in bits 2-3 and the update in bits 0-1
  // (1 = not set, 2 = denied, 3 = granted). The letter table was written from other write-ups;
  // this proves both descriptions agree for every letter gtag emits.
  const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
  const STATE = { 1: 'not set', 2: 'denied', 3: 'granted' } as const;

  it.each(['l', 'p', 't', 'm', 'n', 'q', 'r', 'u', 'v'])('letter %s', (letter) => {
    const index = ALPHABET.indexOf(letter);
    const expected = { default: STATE[((index >> 2) & 3) as 1 | 2 | 3], update: STATE[(index & 3) as 1 | 2 | 3] };
    const [signal] = decodeGcd(`11${letter}1${letter}1${letter}1${letter}5`)!;
    expect({ default: signal!.default, update: signal!.update }).toEqual(expected);
  });
});
