import { validateEntries, validateEvent, validateUserProperty } from './validate.js';
import type { AppLogEntry, AppLogParam } from './types.js';

const param = (name: string, value: string | null = 'x', shortName: string | null = null): AppLogParam => ({ name, shortName, value });
const codes = (issues: { code: string }[]) => issues.map((issue) => issue.code);

function entry(partial: Partial<AppLogEntry>): AppLogEntry {
  return {
    index: 0,
    kind: 'event',
    platform: 'android',
    time: null,
    lines: [1],
    name: 'my_event',
    shortName: null,
    origin: 'app',
    screen: null,
    params: [],
    items: [],
    stages: [],
    message: '',
    level: null,
    issues: [],
    ...partial,
  };
}

describe('validateEvent (Firebase "Log events" rules)', () => {
  it('accepts a valid event with SDK parameters', () => {
    expect(validateEvent(entry({ params: [param('ga_event_origin', 'app', '_o'), param('level', '3')] }))).toEqual([]);
  });

  it('flags event names: length 41, leading digit, characters, reserved names and prefixes', () => {
    expect(codes(validateEvent(entry({ name: 'a'.repeat(40) })))).toEqual([]);
    expect(codes(validateEvent(entry({ name: 'a'.repeat(41) })))).toEqual(['event_name_too_long']);
    expect(codes(validateEvent(entry({ name: '1st_open' })))).toEqual(['event_name_invalid_start']);
    expect(codes(validateEvent(entry({ name: 'add-to-cart' })))).toEqual(['event_name_invalid_characters']);
    expect(codes(validateEvent(entry({ name: 'session_start' })))).toEqual(['event_name_reserved']);
    expect(codes(validateEvent(entry({ name: 'firebase_thing' })))).toEqual(['event_name_reserved_prefix']);
    expect(codes(validateEvent(entry({ name: 'ga_thing' })))).toEqual(['event_name_reserved_prefix']);
    expect(codes(validateEvent(entry({ name: 'google_thing' })))).toEqual(['event_name_reserved_prefix']);
  });

  it('leaves the SDK’s own automatic events alone', () => {
    expect(validateEvent(entry({ name: 'session_start', origin: 'auto', shortName: '_s' }))).toEqual([]);
    expect(validateEvent(entry({ name: 'first_open', origin: 'auto' }))).toEqual([]);
  });

  it('counts only custom parameters (items counts as one) against the limit of 25', () => {
    const custom = Array.from({ length: 25 }, (_, i) => param(`p${i}`));
    const sdk = [param('ga_event_origin', 'app', '_o'), param('ga_screen_class', 'Main', '_sc')];
    expect(validateEvent(entry({ params: [...sdk, ...custom] }))).toEqual([]);
    expect(codes(validateEvent(entry({ params: [...sdk, ...custom], items: [[param('item_id')]] })))).toEqual(['too_many_params']);
  });

  it('flags parameter names and values', () => {
    expect(codes(validateEvent(entry({ params: [param('p'.repeat(41))] })))).toEqual(['param_name_too_long']);
    expect(codes(validateEvent(entry({ params: [param('my-param')] })))).toEqual(['param_name_invalid']);
    expect(codes(validateEvent(entry({ params: [param('ga_custom')] })))).toEqual(['param_name_reserved_prefix']);
    expect(codes(validateEvent(entry({ params: [param('note', 'v'.repeat(100))] })))).toEqual([]);
    expect(validateEvent(entry({ params: [param('note', 'v'.repeat(101))] }))).toEqual([
      {
        code: 'param_value_too_long',
        severity: 'error',
        subject: 'note',
        message: 'Value of "note" is 101 characters long; the limit is 100 (Firebase error 4: the parameter is dropped).',
      },
    ]);
  });

  it('flags items: more than 200 and long item values', () => {
    const items = Array.from({ length: 201 }, () => [param('item_id', 'A')]);
    expect(codes(validateEvent(entry({ items })))).toEqual(['too_many_items']);
    expect(validateEvent(entry({ items: [[param('item_name', 'n'.repeat(101))]] }))[0]).toMatchObject({
      code: 'item_param_value_too_long',
      subject: 'items[0].item_name',
    });
  });
});

describe('validateUserProperty', () => {
  it('flags names over 24, invalid or reserved names and values over 36', () => {
    expect(validateUserProperty('u'.repeat(24), 'v'.repeat(36))).toEqual([]);
    expect(codes(validateUserProperty('u'.repeat(25), 'x'))).toEqual(['user_property_name_too_long']);
    expect(codes(validateUserProperty('9lives', 'x'))).toEqual(['user_property_name_invalid']);
    expect(codes(validateUserProperty('first_open_time', 'x'))).toEqual(['user_property_name_reserved']);
    expect(codes(validateUserProperty('google_x', 'x'))).toEqual(['user_property_name_reserved']);
    expect(codes(validateUserProperty('plan', 'v'.repeat(37)))).toEqual(['user_property_value_too_long']);
    expect(validateUserProperty('plan', null)).toEqual([]);
  });
});

describe('validateEntries (limits across the stream)', () => {
  it('flags the 501st distinct event name and the 26th user property, once each', () => {
    const entries = [
      ...Array.from({ length: 501 }, (_, i) => entry({ index: i, name: `event_${i}` })),
      entry({ name: 'event_500' }),
      ...Array.from({ length: 26 }, (_, i) => entry({ kind: 'user_property', name: `prop_${i}`, value: 'v' })),
      entry({ kind: 'user_property', name: 'prop_25', value: 'w' }),
    ];
    validateEntries(entries);
    const flagged = entries.filter((each) => each.issues.length).map((each) => [each.name, codes(each.issues)]);
    expect(flagged).toEqual([
      ['event_500', ['too_many_event_names']],
      ['prop_25', ['too_many_user_properties']],
    ]);
  });
});
