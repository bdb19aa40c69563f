import type { SessionUser } from '../api/auth.js';
import { readRedirectNotice, routeMiddleware } from './route-middleware.js';

const user: SessionUser = { id: '1', name: 'Ada', email: 'ada@example.test', role: 'user', avatarUrl: null, colorMode: 'system' };
const admin: SessionUser = { ...user, role: 'admin' };
const at = (path: string) => new URL(path, 'http://localhost');

describe('route middleware', () => {
  it('auth sends a visitor to sign in with the original path and query as redirect', () => {
    expect(routeMiddleware.auth({ user: null, url: at('/dashboard/user/orders?page=2&sort=date') })).toBe(
      '/login?redirect=%2Fdashboard%2Fuser%2Forders%3Fpage%3D2%26sort%3Ddate',
    );
    expect(routeMiddleware.auth({ user, url: at('/dashboard/lounge') })).toBeNull();
  });

  it('admin sends a signed-in non-admin to the lounge, flagged so the lounge can say why, and lets admins through', () => {
    expect(routeMiddleware.admin({ user, url: at('/admin/users') })).toBe('/dashboard/lounge?notice=admin-only');
    expect(routeMiddleware.admin({ user: admin, url: at('/admin/users') })).toBeNull();
    expect(routeMiddleware.admin({ user: null, url: at('/admin') })).toBe('/login?redirect=%2Fadmin');
  });

  it('reads only the notices it knows from a query', () => {
    expect(readRedirectNotice(new URLSearchParams('notice=admin-only'))).toBe('admin-only');
    expect(readRedirectNotice(new URLSearchParams('notice=<script>'))).toBeNull();
    expect(readRedirectNotice(new URLSearchParams(''))).toBeNull();
  });

  it('guest sends a signed-in user to the lounge', () => {
    expect(routeMiddleware.guest({ user, url: at('/login') })).toBe('/dashboard/lounge');
    expect(routeMiddleware.guest({ user: null, url: at('/login') })).toBeNull();
  });
});
