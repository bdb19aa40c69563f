import { safeRedirectPath } from './safe-redirect.js';

describe('safeRedirectPath', () => {
  it.each(['/dashboard/lounge', '/admin/users?page=2', '/a#b'])('keeps the same-site path %s', (path) => {
    expect(safeRedirectPath(path)).toBe(path);
  });

  it.each([
    'https://evil.example/',
    '//evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    'javascript:alert(1)',
    '/ok\r\nSet-Cookie: x=1',
    '',
    null,
    undefined,
  ])('refuses %p', (target) => {
    expect(safeRedirectPath(target)).toBeNull();
  });
});
