import { findDuplicateKeys } from './duplicates.js';

describe('findDuplicateKeys', () => {
  it('reports a key given twice in one object, with its path', () => {
    const text = '{"client_id":"1.2","events":[{"name":"a","params":{"currency":"USD","value":1,"currency":"EUR"}}]}';
    expect(findDuplicateKeys(text)).toEqual([
      {
        fieldPath: 'events[0].params.currency',
        validationCode: 'NAME_DUPLICATED',
        description: 'Name [currency] is given more than once in events[0].params; only the last value would be sent.',
      },
    ]);
  });

  it('is silent for the same key in different objects, escaped strings and empty containers', () => {
    expect(findDuplicateKeys('{"a":{"x":1},"b":{"x":"\\"x\\""},"c":[],"d":{},"e":[{"x":1},{"x":2}], "f": [ ] }')).toEqual([]);
  });

  it('reports top-level duplicates', () => {
    expect(findDuplicateKeys('{ "events": [], "events": [] }').map((message) => message.fieldPath)).toEqual(['events']);
  });
});
