import { matchTemplate, pathsOf, routes, routesAtPath } from '#lib/http/routes';

describe('route table', () => {
  it('gives every route a unique id and every path one route per method', () => {
    expect(new Set(routes.map((route) => route.id)).size).toBe(routes.length);
    const keys = routes.flatMap((route) => pathsOf(route).map((path) => `${route.method} ${path}`));
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('gives an alias only to server-side routes, as the spec lists them', () => {
    for (const route of routes) {
      if ('alias' in route) expect(route.access).toBe('server');
    }
  });
});

describe('path matching', () => {
  it('extracts and decodes path parameters', () => {
    expect(
      matchTemplate('/groupshoot/{token}/persons/{personId}/photos', '/groupshoot/ab%2Dc/persons/p1/photos'),
    ).toEqual({
      token: 'ab-c',
      personId: 'p1',
    });
  });

  it.each(['/groupshoot/abc/days/', '/groupshoot//days', '/groupshoot/a/b/days', '/GROUPSHOOT/abc/days'])(
    'does not match %p',
    (path) => expect(matchTemplate('/groupshoot/{token}/days', path)).toBeNull(),
  );

  it('treats a malformed percent-encoding as no match instead of failing', () => {
    expect(matchTemplate('/groupshoot/{token}/days', '/groupshoot/%E0%A4%A/days')).toBeNull();
  });

  it('finds the primary path and the alias of the same route', () => {
    const [primary] = routesAtPath('/group-shoot/checkin/tok/days');
    const [alias] = routesAtPath('/groupshoot/tok/days');
    expect(primary?.route.id).toBe('listShootingDays');
    expect(alias?.route.id).toBe('listShootingDays');
  });
});
