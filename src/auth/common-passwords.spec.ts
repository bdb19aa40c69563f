import { isCommonPassword } from './common-passwords.js';

describe('isCommonPassword', () => {
  it.each(['qwerty123456', '1q2w3e4r5t6y', 'password1234', 'Summer2024!!', 'aaaaaaaaaaaa', 'abababababab', '!!dragon2020'])(
    'refuses %s',
    (password) => expect(isCommonPassword(password)).toBe(true),
  );

  it.each(['correct horse battery staple', 'GA4 debugging since 2019', 'tangerine-otter-lamp'])('accepts %s', (password) =>
    expect(isCommonPassword(password)).toBe(false),
  );
});
