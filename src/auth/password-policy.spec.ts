import { PASSWORD_MESSAGES } from '../../lib/api/auth.js';
import { passwordProblem } from './password-policy.js';

describe('passwordProblem', () => {
  it.each([
    ['an empty password', ''],
    ['a missing password', undefined],
    ['a password that is not a string', 123456789012],
  ])('asks for %s to be entered, with that one message', (_label, value) => {
    expect(passwordProblem(value)).toBe(PASSWORD_MESSAGES.required);
  });

  it('reports the length of a short or overlong password, without the common-password verdict', () => {
    expect(passwordProblem('password')).toBe(PASSWORD_MESSAGES.length);
    expect(passwordProblem('x1'.repeat(65))).toBe(PASSWORD_MESSAGES.length);
  });

  it('refuses a password of the right length that is on the common list', () => {
    expect(passwordProblem('password1234')).toBe(PASSWORD_MESSAGES.common);
  });

  it('accepts a long, uncommon passphrase', () => {
    expect(passwordProblem('correct horse battery staple')).toBeNull();
  });
});
