import { GA4MP_LIMITS, RESERVED_EVENT_NAMES, RESERVED_USER_PROPERTY_NAMES } from './limits.js';
import { GA4MP_TEMPLATES } from './templates.js';
import type { ValidationCode, ValidationResponse } from './types.js';
import { validateGa4mpRequest } from './validate.js';

const NOW = new Date('2026-11-23T02:00:00Z');
const NOW_MICROS = NOW.getTime() * 1000;
const HOUR_MICROS = 3600 * 1_000_000;
const WEB = { measurement_id: 'G-ABC123XYZ9', api_secret: 'aBcDeFgHiJkLmNoP' };
const APP = { firebase_app_id: '1:1234567890:android:0123456789abcdef', api_secret: 'aBcDeFgHiJkLmNoP' };
const CLIENT_ID = '1234567890.1700000000';
const APP_INSTANCE_ID = '0123456789abcdef0123456789abcdef';
const HASH = 'a'.repeat(64);

const web = (body: Record<string, unknown>) =>
  validateGa4mpRequest(WEB, { client_id: CLIENT_ID, events: [{ name: 'tutorial_begin' }], ...body }, { now: NOW });
const event = (params: Record<string, unknown>, name = 'my_event') => web({ events: [{ name, params }] });
const codes = (result: ValidationResponse) => result.validationMessages.map((message) => `${message.fieldPath} ${message.validationCode}`);
const only = (result: ValidationResponse, fieldPath: string, code: ValidationCode) =>
  expect(codes(result)).toEqual([`${fieldPath} ${code}`]);
const valid = (result: ValidationResponse) => expect(result.validationMessages).toEqual([]);
const params = (count: number, prefix = 'p') =>
  Object.fromEntries(Array.from({ length: count }, (_, index) => [`${prefix}${index}`, index]));

describe('validateGa4mpRequest: streams and identifiers', () => {
  it('accepts a minimal web payload and a minimal app payload', () => {
    valid(web({}));
    valid(
      validateGa4mpRequest(
        APP,
        { app_instance_id: APP_INSTANCE_ID, events: [{ name: 'login', params: { method: 'Google' } }] },
        { now: NOW },
      ),
    );
  });

  it('requires measurement_id, in G-XXXX form, and an api_secret', () => {
    only(
      validateGa4mpRequest({ api_secret: 's' }, { client_id: CLIENT_ID, events: [{ name: 'a' }] }, { now: NOW }),
      'query.measurement_id',
      'VALUE_REQUIRED',
    );
    only(
      validateGa4mpRequest(
        { measurement_id: 'UA-12345-1', api_secret: 's' },
        { client_id: CLIENT_ID, events: [{ name: 'a' }] },
        { now: NOW },
      ),
      'query.measurement_id',
      'VALUE_INVALID',
    );
    only(
      validateGa4mpRequest({ measurement_id: 'G-ABC123' }, { client_id: CLIENT_ID, events: [{ name: 'a' }] }, { now: NOW }),
      'query.api_secret',
      'VALUE_REQUIRED',
    );
    only(
      validateGa4mpRequest({ ...WEB, api_secret: '' }, { client_id: CLIENT_ID, events: [{ name: 'a' }] }, { now: NOW }),
      'query.api_secret',
      'VALUE_REQUIRED',
    );
  });

  it('refuses both stream ids at once and unknown query parameters', () => {
    const result = validateGa4mpRequest(
      { ...WEB, firebase_app_id: APP.firebase_app_id, tid: 'x' },
      { client_id: CLIENT_ID, events: [{ name: 'a' }] },
      { now: NOW },
    );
    expect(codes(result)).toEqual(['query.firebase_app_id VALUE_INVALID', 'query.tid NAME_INVALID']);
  });

  it('requires client_id on web streams and app_instance_id (32 hex) on app streams', () => {
    only(validateGa4mpRequest(WEB, { events: [{ name: 'a' }] }, { now: NOW }), 'client_id', 'VALUE_REQUIRED');
    only(validateGa4mpRequest(APP, { events: [{ name: 'a' }] }, { now: NOW }), 'app_instance_id', 'VALUE_REQUIRED');
    only(
      validateGa4mpRequest(APP, { app_instance_id: APP_INSTANCE_ID.slice(1), events: [{ name: 'a' }] }, { now: NOW }),
      'app_instance_id',
      'VALUE_INVALID',
    );
    only(
      validateGa4mpRequest(APP, { app_instance_id: `${APP_INSTANCE_ID.slice(1)}g`, events: [{ name: 'a' }] }, { now: NOW }),
      'app_instance_id',
      'VALUE_INVALID',
    );
    only(
      validateGa4mpRequest(APP, { app_instance_id: APP_INSTANCE_ID, client_id: CLIENT_ID, events: [{ name: 'a' }] }, { now: NOW }),
      'client_id',
      'VALUE_INVALID',
    );
    only(
      validateGa4mpRequest(
        { ...APP, firebase_app_id: 'my-app' },
        { app_instance_id: APP_INSTANCE_ID, events: [{ name: 'a' }] },
        { now: NOW },
      ),
      'query.firebase_app_id',
      'VALUE_INVALID',
    );
  });

  it('flags unknown body fields (a typo such as "event" for "events") as GA4 does: VALUE_INVALID, Cannot find field', () => {
    const result = validateGa4mpRequest(WEB, { client_id: CLIENT_ID, event: [{ name: 'a' }] }, { now: NOW });
    // GA4 cannot parse the payload, so it says only that (no "events required").
    expect(codes(result)).toEqual(['event VALUE_INVALID']);
    expect(result.validationMessages[0]!.description).toBe('Unable to parse Measurement Protocol JSON payload. event: Cannot find field.');
  });

  it('accepts any firebase_app_id suffix after the platform, as GA4 does, but not a malformed prefix', () => {
    for (const id of ['1:1234567890:android:0123456789abcdef', '1:1234567890:ios:ABCdef123', '1:98765:web:a1b2-c3'])
      valid(
        validateGa4mpRequest({ ...APP, firebase_app_id: id }, { app_instance_id: APP_INSTANCE_ID, events: [{ name: 'a' }] }, { now: NOW }),
      );
    for (const id of ['1:1234567890:android:', 'x:1:ios:abc', '1:1234567890:windows:abc'])
      only(
        validateGa4mpRequest({ ...APP, firebase_app_id: id }, { app_instance_id: APP_INSTANCE_ID, events: [{ name: 'a' }] }, { now: NOW }),
        'query.firebase_app_id',
        'VALUE_INVALID',
      );
  });

  it('never throws on non-object input', () => {
    expect(codes(validateGa4mpRequest(null, 'x', { now: NOW }))).toEqual(['query VALUE_REQUIRED', 'body VALUE_INVALID']);
    only(web({ events: 'nope' }), 'events', 'VALUE_INVALID');
    only(web({ events: [42] }), 'events[0]', 'VALUE_INVALID');
  });
});

describe('validateGa4mpRequest: events', () => {
  it(`allows ${GA4MP_LIMITS.eventsPerRequest} events per request and refuses one more`, () => {
    const events = (count: number) => Array.from({ length: count }, () => ({ name: 'tutorial_begin' }));
    valid(web({ events: events(25) }));
    only(web({ events: events(26) }), 'events', 'EXCEEDED_MAX_ENTITIES');
    only(web({ events: [] }), 'events', 'VALUE_REQUIRED');
  });

  it('names: 40 characters, a letter first, then letters, digits and underscores', () => {
    valid(web({ events: [{ name: `a${'b'.repeat(39)}` }] }));
    only(web({ events: [{ name: `a${'b'.repeat(40)}` }] }), 'events[0].name', 'NAME_INVALID');
    const bad = web({ events: [{ name: '_badEventName' }] });
    only(bad, 'events[0].name', 'NAME_INVALID');
    expect(bad.validationMessages[0]!.description).toBe(
      'Event at index: [0] has invalid name [_badEventName]. Names must start with an alphabetic character.',
    );
    only(web({ events: [{ name: '1st' }] }), 'events[0].name', 'NAME_INVALID');
    only(web({ events: [{ name: 'add to cart' }] }), 'events[0].name', 'NAME_INVALID');
    only(web({ events: [{ name: 'add-to-cart' }] }), 'events[0].name', 'NAME_INVALID');
    only(web({ events: [{}] }), 'events[0].name', 'VALUE_REQUIRED');
  });

  it.each([...RESERVED_EVENT_NAMES])('refuses the reserved event name %s', (name) => {
    only(web({ events: [{ name }] }), 'events[0].name', 'NAME_RESERVED');
  });

  it.each(['firebase_login', 'ga_custom', 'google_ads_click'])('refuses the reserved event-name prefix of %s', (name) => {
    const result = web({ events: [{ name }] });
    only(result, 'events[0].name', 'NAME_RESERVED');
    expect(result.validationMessages[0]!.description).toMatch(/with the reserved prefix \[(firebase|ga|google)_\]\.$/);
  });

  it('currency must be an ISO 4217 code, in every mode', () => {
    valid(event({ currency: 'EUR', value: 1 }, 'purchase_attempt'));
    for (const currency of ['usd', 'US$', 'EURO', 'ABC'])
      only(event({ currency, value: 1 }, 'purchase_attempt'), 'events[0].params.currency', 'VALUE_INVALID');
  });

  it('an empty items list is reported, in every mode', () => {
    only(event({ transaction_id: 'T1', currency: 'USD', value: 1, items: [] }, 'purchase'), 'events[0].params.items', 'VALUE_REQUIRED');
  });

  it('keeps page_view, purchase and the other recommended events usable', () => {
    for (const template of GA4MP_TEMPLATES) valid(web({ events: [template.build()] }));
  });

  it(`allows ${GA4MP_LIMITS.paramsPerEvent} params per event and refuses one more`, () => {
    valid(event(params(25)));
    only(event(params(26)), 'events[0].params', 'EXCEEDED_MAX_ENTITIES');
  });

  it('param names: 40 characters, a letter first, no reserved prefix or name', () => {
    valid(event({ [`a${'b'.repeat(39)}`]: 1 }));
    only(event({ [`a${'b'.repeat(40)}`]: 1 }), `events[0].params.a${'b'.repeat(40)}`, 'NAME_INVALID');
    only(event({ _private: 1 }), 'events[0].params._private', 'NAME_INVALID');
    only(event({ 'my-param': 1 }), 'events[0].params.my-param', 'NAME_INVALID');
    for (const name of ['google_x', 'ga_x', 'firebase_x', 'firebase_conversion'])
      only(event({ [name]: 1 }), `events[0].params.${name}`, 'NAME_RESERVED');
  });

  it('param values: 100 characters, more for page_location (1000), page_referrer (420), page_title (300)', () => {
    valid(event({ value_x: 'v'.repeat(100) }));
    only(event({ value_x: 'v'.repeat(101) }), 'events[0].params.value_x', 'VALUE_OUT_OF_BOUNDS');
    valid(event({ value_x: '€'.repeat(100) }));
    valid(event({ page_location: `https://e.com/${'a'.repeat(986)}` }));
    only(event({ page_location: `https://e.com/${'a'.repeat(987)}` }), 'events[0].params.page_location', 'VALUE_OUT_OF_BOUNDS');
    valid(event({ page_referrer: 'r'.repeat(420), page_title: 't'.repeat(300) }));
    expect(codes(event({ page_referrer: 'r'.repeat(421), page_title: 't'.repeat(301) }))).toEqual([
      'events[0].params.page_referrer VALUE_OUT_OF_BOUNDS',
      'events[0].params.page_title VALUE_OUT_OF_BOUNDS',
    ]);
  });

  it('param values are strings, numbers or booleans', () => {
    valid(event({ a: 'x', b: 1.5, c: true }));
    only(event({ a: null }), 'events[0].params.a', 'VALUE_INVALID');
    only(event({ a: { nested: 1 } }), 'events[0].params.a', 'VALUE_INVALID');
    only(event({ a: [1] }), 'events[0].params.a', 'VALUE_INVALID');
  });

  it('refuses fields beside name/params/timestamp_micros on an event', () => {
    const result = web({ events: [{ name: 'a', names: 'x' }] });
    only(result, 'events[0].names', 'VALUE_INVALID');
    expect(result.validationMessages[0]!.description).toBe(
      'Unable to parse Measurement Protocol JSON payload. (events[0]) names: Cannot find field.',
    );
  });
});

describe('validateGa4mpRequest: items', () => {
  const items = (list: unknown[]) => event({ items: list }, 'purchase');
  const many = (count: number) => Array.from({ length: count }, (_, index) => ({ item_id: `SKU_${index}` }));

  it(`allows ${GA4MP_LIMITS.itemsPerEvent} items per event and refuses one more`, () => {
    valid(items(many(200)));
    only(items(many(201)), 'events[0].params.items', 'EXCEEDED_MAX_ENTITIES');
  });

  it('needs item_id or item_name on each item', () => {
    valid(items([{ item_id: 'A' }, { item_name: 'B' }]));
    only(items([{ price: 1 }]), 'events[0].params.items[0]', 'VALUE_REQUIRED');
    only(items([{ item_id: '', item_name: '' }]), 'events[0].params.items[0]', 'VALUE_REQUIRED');
  });

  it(`allows ${GA4MP_LIMITS.customItemParams} custom item params and refuses one more`, () => {
    const custom = (count: number) => ({ item_id: 'A', price: 1, quantity: 2, item_category5: 'x', ...params(count, 'custom_') });
    valid(items([custom(10)]));
    only(items([custom(11)]), 'events[0].params.items[0]', 'EXCEEDED_MAX_ENTITIES');
  });

  it('checks item param names and values like event params', () => {
    only(items([{ item_id: 'A', google_x: 1 }]), 'events[0].params.items[0].google_x', 'NAME_RESERVED');
    only(items([{ item_id: 'A', '9lives': 1 }]), 'events[0].params.items[0].9lives', 'NAME_INVALID');
    only(items([{ item_id: 'a'.repeat(101) }]), 'events[0].params.items[0].item_id', 'VALUE_OUT_OF_BOUNDS');
    only(items('nope' as unknown as unknown[]), 'events[0].params.items', 'VALUE_INVALID');
  });
});

describe('validateGa4mpRequest: user properties, user data, consent', () => {
  const props = (count: number) => Object.fromEntries(Array.from({ length: count }, (_, index) => [`prop_${index}`, { value: 'x' }]));

  it(`allows ${GA4MP_LIMITS.userProperties} user properties and refuses one more`, () => {
    valid(web({ user_properties: props(25) }));
    only(web({ user_properties: props(26) }), 'user_properties', 'EXCEEDED_MAX_ENTITIES');
  });

  it('user property names: 24 characters, a letter first, reserved names and prefixes', () => {
    valid(web({ user_properties: { [`a${'b'.repeat(23)}`]: { value: 'x' } } }));
    only(web({ user_properties: { [`a${'b'.repeat(24)}`]: { value: 'x' } } }), `user_properties.a${'b'.repeat(24)}`, 'NAME_INVALID');
    only(web({ user_properties: { '1plan': { value: 'x' } } }), 'user_properties.1plan', 'NAME_INVALID');
    for (const name of RESERVED_USER_PROPERTY_NAMES)
      only(web({ user_properties: { [name]: { value: 'x' } } }), `user_properties.${name}`, 'NAME_RESERVED');
    for (const name of ['google_plan', 'ga_plan', 'firebase_plan'])
      only(web({ user_properties: { [name]: { value: 'x' } } }), `user_properties.${name}`, 'NAME_RESERVED');
  });

  it('user property values: 36 characters, strings, numbers or null, inside { value }', () => {
    valid(web({ user_properties: { plan: { value: 'v'.repeat(36) }, seats: { value: 3 }, cleared: { value: null } } }));
    only(web({ user_properties: { plan: { value: 'v'.repeat(37) } } }), 'user_properties.plan.value', 'VALUE_OUT_OF_BOUNDS');
    only(web({ user_properties: { plan: 'pro' } }), 'user_properties.plan', 'VALUE_REQUIRED');
    only(web({ user_properties: { plan: { value: true } } }), 'user_properties.plan.value', 'VALUE_INVALID');
  });

  it('user_data takes hex SHA-256 digests, at most 10 of each, and plain city/region/postal_code/country', () => {
    valid(
      web({
        user_data: {
          sha256_email_address: [HASH],
          sha256_phone_number: HASH,
          address: [
            {
              sha256_first_name: HASH,
              sha256_last_name: HASH,
              sha256_street: HASH,
              city: 'mountainview',
              region: 'ca',
              postal_code: '94043',
              country: 'US',
            },
          ],
        },
      }),
    );
    only(web({ user_data: { sha256_email_address: 'jane@example.com' } }), 'user_data.sha256_email_address', 'VALUE_INVALID');
    only(web({ user_data: { sha256_email_address: [HASH, 'A'.repeat(64)] } }), 'user_data.sha256_email_address[1]', 'VALUE_INVALID');
    valid(web({ user_data: { sha256_phone_number: Array(10).fill(HASH) } }));
    only(web({ user_data: { sha256_phone_number: Array(11).fill(HASH) } }), 'user_data.sha256_phone_number', 'EXCEEDED_MAX_ENTITIES');
    only(web({ user_data: { address: { country: 'USA' } } }), 'user_data.address.country', 'VALUE_INVALID');
    only(web({ user_data: { email: HASH } }), 'user_data.email', 'VALUE_INVALID');
  });

  it('consent takes GRANTED or DENIED for ad_user_data and ad_personalization', () => {
    valid(web({ consent: { ad_user_data: 'GRANTED', ad_personalization: 'DENIED' } }));
    only(web({ consent: { ad_user_data: 'granted' } }), 'consent.ad_user_data', 'VALUE_INVALID');
    only(web({ consent: { analytics_storage: 'GRANTED' } }), 'consent.analytics_storage', 'VALUE_INVALID');
  });

  it('non_personalized_ads is a boolean', () => {
    valid(web({ non_personalized_ads: true }));
    only(web({ non_personalized_ads: 'true' }), 'non_personalized_ads', 'VALUE_INVALID');
  });
});

describe('validateGa4mpRequest: timestamps and size', () => {
  const limit = GA4MP_LIMITS.maxBackdateHours * HOUR_MICROS;

  it('accepts timestamps up to 72 hours in the past, not one microsecond more', () => {
    valid(web({ timestamp_micros: NOW_MICROS }));
    valid(web({ timestamp_micros: NOW_MICROS - limit }));
    only(web({ timestamp_micros: NOW_MICROS - limit - 1 }), 'timestamp_micros', 'VALUE_OUT_OF_BOUNDS');
  });

  it('refuses future timestamps and non-integers, on the request, events and user properties', () => {
    only(web({ timestamp_micros: NOW_MICROS + 1 }), 'timestamp_micros', 'VALUE_INVALID');
    only(web({ timestamp_micros: '1700000000000000' }), 'timestamp_micros', 'VALUE_INVALID');
    only(web({ timestamp_micros: 1.5 }), 'timestamp_micros', 'VALUE_INVALID');
    only(web({ events: [{ name: 'a', timestamp_micros: NOW_MICROS + 1 }] }), 'events[0].timestamp_micros', 'VALUE_INVALID');
    only(
      web({ user_properties: { plan: { value: 'x', timestamp_micros: NOW_MICROS - limit - 1 } } }),
      'user_properties.plan.timestamp_micros',
      'VALUE_OUT_OF_BOUNDS',
    );
  });

  it('refuses a post body of 130 kB or more', () => {
    const events = Array.from({ length: 25 }, () => ({ name: 'a', params: params(25) }));
    valid(web({ events }));
    const padded = web({ user_id: 'u', pad: 'x'.repeat(GA4MP_LIMITS.maxBodyBytes) });
    expect(codes(padded)).toEqual(['body VALUE_OUT_OF_BOUNDS', 'pad VALUE_INVALID']);
  });

  it('lists every unknown field, at every level, and nothing else while one is there', () => {
    const result = web({
      user_id: '',
      consent: { analytics_storage: 'GRANTED' },
      user_properties: { plan: { value: 'x', set_at: 1 } },
      user_data: { address: [{ country: 'US', street: 'x' }] },
      events: [{ name: '_bad', value: 1 }],
    });
    expect(codes(result)).toEqual([
      'consent.analytics_storage VALUE_INVALID',
      'user_data.address[0].street VALUE_INVALID',
      'user_properties.plan.set_at VALUE_INVALID',
      'events[0].value VALUE_INVALID',
    ]);
    expect(result.validationMessages.map((message) => message.description)).toEqual([
      'Unable to parse Measurement Protocol JSON payload. (consent) analytics_storage: Cannot find field.',
      'Unable to parse Measurement Protocol JSON payload. (user_data.address[0]) street: Cannot find field.',
      'Unable to parse Measurement Protocol JSON payload. (user_properties[plan]) set_at: Cannot find field.',
      'Unable to parse Measurement Protocol JSON payload. (events[0]) value: Cannot find field.',
    ]);
  });

  it('measures the window from the given now', () => {
    const old = NOW_MICROS - 100 * HOUR_MICROS;
    valid(
      validateGa4mpRequest(
        WEB,
        { client_id: CLIENT_ID, timestamp_micros: old, events: [{ name: 'a' }] },
        { now: new Date(NOW.getTime() - 50 * 3600 * 1000) },
      ),
    );
  });
});

describe('validateGa4mpRequest: validation_behavior ENFORCE_RECOMMENDATIONS', () => {
  const strict = (body: Record<string, unknown>) => web({ validation_behavior: 'ENFORCE_RECOMMENDATIONS', ...body });
  const purchase = { transaction_id: 'T_1', currency: 'USD', value: 9.99, items: [{ item_id: 'SKU_1' }] };

  it('RELAXED (or no field) accepts what ENFORCE_RECOMMENDATIONS refuses', () => {
    valid(web({ client_id: '18', events: [{ name: 'purchase', params: { value: 1 } }] }));
    valid(web({ validation_behavior: 'RELAXED', client_id: '18', events: [{ name: 'purchase' }] }));
    only(web({ validation_behavior: 'STRICT' }), 'validation_behavior', 'VALUE_INVALID');
  });

  it('client_id must be <number>.<number>, with GA4 wording', () => {
    valid(strict({ client_id: '1719384726.1795390000' }));
    const result = strict({ client_id: '18' });
    only(result, 'client_id', 'VALUE_INVALID');
    expect(result.validationMessages[0]!.description).toBe('client_id [18] has invalid format. It should be in <number>.<number> format.');
    only(strict({ client_id: '35009a79-1a05-49d7-b876-2b884d0f825b' }), 'client_id', 'VALUE_INVALID');
    only(strict({ client_id: 'GA1.1.123.456' }), 'client_id', 'VALUE_INVALID');
  });

  it('purchase needs transaction_id, items and value, and currency with value', () => {
    valid(strict({ events: [{ name: 'purchase', params: purchase }] }));
    expect(codes(strict({ events: [{ name: 'purchase', params: { value: 1 } }] }))).toEqual([
      'events[0].params.transaction_id VALUE_REQUIRED',
      'events[0].params.items VALUE_REQUIRED',
      'events[0].params.currency VALUE_REQUIRED',
    ]);
    expect(codes(strict({ events: [{ name: 'purchase' }] }))).toEqual([
      'events[0].params.transaction_id VALUE_REQUIRED',
      'events[0].params.items VALUE_REQUIRED',
      'events[0].params.value VALUE_REQUIRED',
    ]);
  });

  it('other recommended events need their own parameters; custom events need none', () => {
    only(strict({ events: [{ name: 'search', params: {} }] }), 'events[0].params.search_term', 'VALUE_REQUIRED');
    only(
      strict({ events: [{ name: 'refund', params: { transaction_id: 'T', value: 1 } }] }),
      'events[0].params.currency',
      'VALUE_REQUIRED',
    );
    valid(strict({ events: [{ name: 'my_custom_event', params: { anything: 1 } }] }));
  });

  it('every template stays valid under ENFORCE_RECOMMENDATIONS', () => {
    for (const template of GA4MP_TEMPLATES) valid(strict({ events: [template.build()] }));
  });
});
