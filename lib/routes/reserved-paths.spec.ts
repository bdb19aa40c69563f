import { isReservedPath } from './reserved-paths.js';
import { ROUTE_TABLE } from './route-table.js';

describe('reserved paths', () => {
  it.each(['/api', '/api/', '/api/auth/me', '/health/live', '/_app/builds/latest.json', '/.well-known/hitscope-licensing-keys.json'])(
    'reserves %s for the server',
    (path) => {
      expect(isReservedPath(path)).toBe(true);
    },
  );

  it.each(['/', '/apidocs', '/healthy', '/dashboard/api', '/_application', '/well-known'])('leaves %s to the pages', (path) => {
    expect(isReservedPath(path)).toBe(false);
  });

  it('never reserves a path of the route table', () => {
    expect(ROUTE_TABLE.filter((route) => isReservedPath(route.path.replace(/\*$/, 'x'))).map((route) => route.path)).toEqual([]);
  });
});
