import { originAllowed } from './licensing-cors.js';

describe('originAllowed', () => {
  const defaults = ['chrome-extension://*', 'moz-extension://*'];
  it.each([
    ['chrome-extension://abcdefghijklmnopabcdefghijklmnop', defaults, true],
    ['moz-extension://7b0c2a4e-1111-2222-3333-444455556666', defaults, true],
    ['chrome-extension://', defaults, false],
    ['https://evil.example', defaults, false],
    ['https://chrome-extension.evil.example', defaults, false],
    ['https://app.example', ['https://app.example'], true],
    ['https://app.example.evil', ['https://app.example'], false],
  ])('%s', (origin, allowed, expected) => {
    expect(originAllowed(origin, allowed)).toBe(expected);
  });
});
