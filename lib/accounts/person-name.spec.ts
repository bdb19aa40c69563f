import { cleanPersonName, NAME_MESSAGES, normalisePersonName, personNameProblem } from './person-name.js';

describe('personNameProblem', () => {
  it.each(['Ada Lovelace', 'José Ñúñez', 'Zoë O’Brien-Smith', 'محمد', '李小龍', 'Anna 👩\u200d💻', 'می\u200cخواهم', 'x'.repeat(100)])(
    'accepts %j',
    (name) => {
      expect(personNameProblem(name)).toBeNull();
    },
  );

  it.each([
    ['NUL', 'Ada\u0000Lovelace'],
    ['an ANSI escape sequence', 'Ada \u001b[31mLovelace'],
    ['CRLF', 'Ada\r\nX-Injected: 1'],
    ['a tab', 'Ada\tLovelace'],
    ['DEL', 'Ada\u007f'],
    ['a C1 control', 'Ada\u0085Lovelace'],
    ['a right-to-left override', 'Ada \u202eecalevoL'],
    ['a left-to-right embedding', 'Ada \u202aLovelace'],
    ['a right-to-left isolate', 'Ada \u2067Lovelace'],
    ['a right-to-left mark', 'Ada\u200f'],
    ['an Arabic letter mark', 'Ada\u061c'],
    ['a line separator', 'Ada\u2028Lovelace'],
    ['a lone surrogate', 'Ada\ud800'],
  ])('refuses a name with %s', (_label, name) => {
    expect(personNameProblem(name)).toBe(NAME_MESSAGES.hidden);
  });

  it('asks for a name that is missing or not text, and reports the length of an empty or long one', () => {
    expect(personNameProblem(undefined)).toBe(NAME_MESSAGES.required);
    expect(personNameProblem(12)).toBe(NAME_MESSAGES.required);
    expect(personNameProblem('')).toBe(NAME_MESSAGES.length);
    expect(personNameProblem('x'.repeat(101))).toBe(NAME_MESSAGES.length);
  });
});

describe('normalisePersonName', () => {
  it('trims surrounding spaces but never a control character', () => {
    expect(normalisePersonName('  Ada\u00a0')).toBe('Ada');
    expect(normalisePersonName('Ada\n')).toBe('Ada\n');
    expect(normalisePersonName(null)).toBeNull();
  });
});

describe('cleanPersonName', () => {
  it('turns forbidden characters of a name from elsewhere into spaces', () => {
    expect(cleanPersonName('Ada\r\n\u202eLovelace\u0000')).toBe('Ada Lovelace');
  });
});
