import { ROUTE_TABLE } from '../../lib/routes/route-table.js';
import { type Agent, newAgent, signInAdmin, signUp } from '../support/e2e.js';

type Role = 'anonymous' | 'user' | 'admin';

/** What docs/routes.md says each kind of visitor gets on the first (server-rendered) request. */
function expected(middleware: readonly string[], role: Role, path: string): { status: number; location?: string } {
  const login = `/login?redirect=${encodeURIComponent(path)}`;
  if (middleware.includes('guest')) return role === 'anonymous' ? { status: 200 } : { status: 302, location: '/dashboard/lounge' };
  if (middleware.includes('admin')) {
    if (role === 'anonymous') return { status: 302, location: login };
    return role === 'admin' ? { status: 200 } : { status: 302, location: '/dashboard/lounge?notice=admin-only' };
  }
  if (middleware.includes('auth')) return role === 'anonymous' ? { status: 302, location: login } : { status: 200 };
  return { status: 200 };
}

const exactRoutes = ROUTE_TABLE.filter((route) => !route.path.endsWith('/*'));
const agents: Record<Role, Agent> = {} as Record<Role, Agent>;

beforeAll(async () => {
  agents.anonymous = newAgent();
  agents.user = (await signUp({ name: 'Route Tester' })).agent;
  agents.admin = (await signInAdmin()).agent;
});

describe.each<Role>(['anonymous', 'user', 'admin'])('every route of docs/routes.md as %s', (role) => {
  it.each(exactRoutes.map((route) => [route.path, route] as const))('%s', async (path, route) => {
    const response = await agents[role].get(path).redirects(0);
    const want = expected(route.middleware, role, path);
    expect({ path, status: response.status, location: response.headers.location }).toEqual({ path, ...want });
    if (want.status === 200) {
      expect(response.headers['content-type']).toMatch(/^text\/html/);
      expect(response.text).toContain(`data-layout="${route.layout}"`);
      expect(response.text).toContain(`<title>${route.title.replace(/&/g, '&amp;')}</title>`);
    } else {
      // Redirected before any HTML is rendered.
      expect(response.text).not.toContain('<div id="root">');
    }
  });
});

describe('redirect targets', () => {
  it('keeps the original path and query in the sign-in redirect', async () => {
    const response = await newAgent().get('/dashboard/user/orders?page=2&sort=date').redirects(0).expect(302);
    expect(response.headers.location).toBe('/login?redirect=%2Fdashboard%2Fuser%2Forders%3Fpage%3D2%26sort%3Ddate');
  });

  it('validates the tool slug before the sign-in guard (a fatal 404 for everybody)', async () => {
    await newAgent().get('/dashboard/tools/not-a-tool').redirects(0).expect(404);
  });
});

describe('one route table for every request', () => {
  it('keeps concurrent renders apart: each sees its own visitor and data', async () => {
    const people = await Promise.all(['Ada Concurrent', 'Grace Concurrent'].map((name) => signUp({ name })));
    const rounds = Array.from({ length: 4 }, () => [
      ...people.map(({ agent }) => agent.get('/dashboard/lounge').redirects(0)),
      newAgent().get('/dashboard/lounge').redirects(0),
    ]).flat();
    const responses = await Promise.all(rounds);
    responses.forEach((response, index) => {
      const who = index % 3;
      if (who === 2) {
        expect(response.status).toBe(302);
        return;
      }
      expect(response.status).toBe(200);
      // The name is in the shell and in the dehydrated state; the other person's never is.
      expect(response.text).toContain(people[who].user.name);
      expect(response.text).not.toContain(people[1 - who].user.name);
    });
  });
});
