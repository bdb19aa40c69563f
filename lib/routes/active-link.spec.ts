import { isActiveLink, linkPathname } from './active-link.js';

describe('linkPathname', () => {
  it.each([
    ['/login', '/login'],
    ['/login?forgot=1', '/login'],
    ['/terms#refunds', '/terms'],
    ['/a?b=1#c', '/a'],
    ['/a#c?b=1', '/a'],
    ['/', '/'],
  ])('%s → %s', (to, pathname) => expect(linkPathname(to)).toBe(pathname));
});

describe('isActiveLink (the rules of NavLink)', () => {
  it.each<[string, string, boolean, boolean]>([
    // pathname, to, end, active
    ['/', '/', true, true],
    ['/', '/', false, true],
    ['/sponsor', '/', true, false],
    // Without end, "/" matches only itself: the next character must be a slash.
    ['/sponsor', '/', false, false],
    ['/sponsor', '/sponsor', false, true],
    ['/sponsor/tiers', '/sponsor', false, true],
    ['/sponsor/tiers', '/sponsor', true, false],
    ['/sponsorship', '/sponsor', false, false],
    ['/admin/users', '/admin', false, true],
    ['/administrators', '/admin', false, false],
    ['/dashboard/lounge', '/dashboard/lounge', true, true],
    ['/dashboard/lounge', '/dashboard', true, false],
    ['/Dashboard/Lounge', '/dashboard/lounge', true, true],
    ['/login', '/login?forgot=1', false, true],
    ['/login', '/login?redirect=%2Fdashboard', true, true],
    ['/register', '/login', false, false],
    ['/docs/x', '/docs/', false, true],
    ['/docs', '/docs/', false, false],
  ])('on %s a link to %s (end: %s) is active: %s', (pathname, to, end, active) => {
    expect(isActiveLink(pathname, to, end)).toBe(active);
  });
});
