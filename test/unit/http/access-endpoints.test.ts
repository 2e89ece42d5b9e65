import { publicEndpoint } from '#lib/http/public-endpoint';
import { serverEndpoint } from '#lib/http/server-endpoint';

/**
 * A handler names its route's access by the factory it calls (docs/architecture.md#request-pipeline):
 * the other factory refuses the route when the function loads, so that no route runs the
 * stages of the wrong access.
 */
const body = async () => ({});

describe('publicEndpoint and serverEndpoint', () => {
  it('refuses a route of the other access when the handler is made', () => {
    expect(() => publicEndpoint('listPersons', body)).toThrow('listPersons is a server route, not a public one');
    expect(() => serverEndpoint('submitCheckin', body)).toThrow('submitCheckin is a public route, not a server one');
  });

  it('makes the handler of a route of its own access', () => {
    expect(typeof publicEndpoint('submitCheckin', body)).toBe('function');
    expect(typeof serverEndpoint('listPersons', body)).toBe('function');
  });
});
