import { methodCheck, pathWithinStage } from '#lib/http/method-check';
import { findRoute } from '#lib/http/routes';
import { apiEvent, apiRequest, runBefore } from './request-builders';

describe('pathWithinStage', () => {
  it.each([
    ['/v1/groupshoot/abc/days', 'v1', '/groupshoot/abc/days'],
    ['/v1', 'v1', '/'],
    ['/v1/', 'v1', '/'],
    ['/groupshoot/abc/days', '$default', '/groupshoot/abc/days'],
    ['/groupshoot/abc/days', undefined, '/groupshoot/abc/days'],
    ['/v10/groupshoot/abc/days', 'v1', '/v10/groupshoot/abc/days'],
    ['/groupshoot/v1/days', 'v1', '/groupshoot/v1/days'],
  ])('reads %s in stage %s as %s', (path, stage, expected) => {
    // Prepare
    const event = apiEvent({ path });
    event.requestContext.stage = stage as string;

    // Act, Assess
    expect(pathWithinStage(event)).toBe(expected);
  });

  it('falls back to requestContext.http.path without rawPath', () => {
    const event = apiEvent({ path: '/v1/group-shoot', stage: 'v1' });
    delete (event as { rawPath?: string }).rawPath;

    expect(pathWithinStage(event)).toBe('/group-shoot');
  });

  it('reads an event without any path as /', () => {
    const event = apiEvent();
    delete (event as { rawPath?: string }).rawPath;
    delete (event as { requestContext?: unknown }).requestContext;

    expect(pathWithinStage(event)).toBe('/');
  });
});

describe('methodCheck', () => {
  const listPersons = findRoute('listPersons');
  const importPersons = findRoute('importPersons');

  it('gives 404 not_found for a path no route has', async () => {
    const request = apiRequest(apiEvent({ method: 'GET', path: '/groupshoot/abc/nothing-here' }));

    await expect(runBefore(methodCheck([listPersons]), request)).rejects.toMatchObject({
      code: 'not_found',
      status: 404,
    });
  });

  it.each([
    ['DELETE', '/groupshoot/abc/persons', 'GET, POST'],
    ['PUT', '/group-shoot/checkin/abc/persons', 'GET, POST'],
    ['GET', '/group-shoot', 'OPTIONS, POST'],
    ['POST', '/groupshoot/abc/days', 'GET'],
  ])('gives 405 method_not_allowed to %s %s with Allow: %s', async (method, path, allowed) => {
    // Prepare
    const request = apiRequest(apiEvent({ method, path }));

    // Act, Assess
    await expect(runBefore(methodCheck([listPersons]), request)).rejects.toMatchObject({
      code: 'method_not_allowed',
      status: 405,
      message: `Method ${method} is not allowed here; allowed: ${allowed}.`,
      headers: { Allow: allowed },
    });
  });

  it('answers a route served by another function as not_found', async () => {
    const request = apiRequest(apiEvent({ method: 'POST', path: '/groupshoot/abc/persons' }));

    await expect(runBefore(methodCheck([listPersons]), request)).rejects.toMatchObject({ code: 'not_found' });
  });

  it.each([
    ['GET', '/groupshoot/abc/days'],
    ['POST', '/group-shoot'],
    ['OPTIONS', '/group-shoot'],
  ])('refuses %s %s in the catch-all function, which serves no route', async (method, path) => {
    const request = apiRequest(apiEvent({ method, path }));

    await expect(runBefore(methodCheck([]), request)).rejects.toMatchObject({ code: 'not_found' });
  });

  it.each([
    ['the primary path', '/group-shoot/checkin/abc123/persons'],
    ['the alias', '/groupshoot/abc123/persons'],
    ['the alias within a stage', '/v1/groupshoot/abc123/persons'],
  ])('sets context.route and context.pathParameters on %s', async (_name, path) => {
    // Prepare
    const request = apiRequest(apiEvent({ method: 'GET', path, stage: 'v1' }));

    // Act
    await runBefore(methodCheck([listPersons, importPersons]), request);

    // Assess
    expect(request.context.route).toBe(listPersons);
    expect(request.context.pathParameters).toEqual({ token: 'abc123' });
  });

  it('picks the route of the request method among those at the path', async () => {
    const request = apiRequest(apiEvent({ method: 'POST', path: '/groupshoot/abc123/persons' }));

    await runBefore(methodCheck([listPersons, importPersons]), request);

    expect(request.context.route).toBe(importPersons);
  });

  it('decodes percent-encoded path parameters', async () => {
    const request = apiRequest(apiEvent({ method: 'GET', path: '/groupshoot/ab%2Dc/persons/per%5F1/photos' }));

    await runBefore(methodCheck([findRoute('listPersonPhotos')]), request);

    expect(request.context.pathParameters).toEqual({ token: 'ab-c', personId: 'per_1' });
  });

  it('takes the method in any case', async () => {
    const request = apiRequest(apiEvent({ method: 'get', path: '/groupshoot/abc123/persons' }));

    await runBefore(methodCheck([listPersons]), request);

    expect(request.context.route).toBe(listPersons);
  });
});
