import { type Route, pathsOf, routes } from '#lib/http/routes';
import { useLocalApi } from '../support/local-api';
import { type TestTenant, createTestTenant } from '../support/factories';

const api = useLocalApi();

const serverRoutes = (routes as readonly Route[]).filter((route) => route.access === 'server');
const cases = serverRoutes.flatMap((route) => pathsOf(route).map((template) => ({ route, template })));

/** A concrete path: the gallery token given, any person ID a well-formed one. */
function concrete(template: string, token: string): string {
  return template.replace('{token}', token).replace('{personId}', 'per_00000000000000000000000000');
}

describe.each(cases)('$route.method $template', ({ route, template }) => {
  let studio: TestTenant;
  let otherStudio: TestTenant;
  const send = (token: string, method: string = route.method, headers: Record<string, string> = studio.serverHeaders) =>
    api.call(concrete(template, token), {
      method,
      headers,
      body: method === 'POST' ? { persons: [{ name: 'X' }] } : undefined,
    });

  beforeAll(async () => {
    [studio, otherStudio] = await Promise.all([createTestTenant(), createTestTenant()]);
  });

  it("gives 404 gallery_not_found for another tenant's gallery", async () => {
    const answer = await send(otherStudio.token);
    expect(answer.status).toBe(404);
    expect(answer.body.error).toBe('gallery_not_found');
  });

  it('gives 400 not_a_groupshoot_gallery for an ordinary gallery', async () => {
    const answer = await send(studio.ordinaryToken);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('not_a_groupshoot_gallery');
  });

  it.each(['PUT', 'PATCH', 'DELETE'])('gives 405 method_not_allowed for %s', async (method) => {
    const answer = await send(studio.token, method);
    expect(answer.status).toBe(405);
    expect(answer.body).toEqual(expect.objectContaining({ ok: false, error: 'method_not_allowed' }));
    expect(answer.headers.get('x-request-id')).toBe(answer.body.requestId);
  });

  it('needs a key', async () => {
    const answer = await send(studio.token, route.method, studio.publicHeaders);
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('api_key_required');
  });

  it("refuses another tenant's key without revealing the gallery", async () => {
    const answer = await send(studio.token, route.method, {
      'X-Tenant-Slug': studio.slug,
      'X-Api-Key': otherStudio.apiKey,
    });
    expect(answer.status).toBe(401);
    expect(answer.body.error).toBe('invalid_api_key');
  });
});
