import { headerValue, jsonResponse } from '#lib/http/json-response';

describe('jsonResponse', () => {
  it('serialises the members with ok and the request ID, as JSON with its content type', () => {
    // Act
    const response = jsonResponse(200, { personId: 'per_1', code: 'AB12' }, 'req-1');

    // Assess
    expect(response).toEqual({
      statusCode: 200,
      headers: { 'Content-Type': 'application/json; charset=utf-8', 'X-Request-Id': 'req-1' },
      body: JSON.stringify({ ok: true, personId: 'per_1', code: 'AB12', requestId: 'req-1' }),
    });
  });

  it.each([
    [200, true],
    [201, true],
    [399, true],
    [400, false],
    [404, false],
    [500, false],
  ])('gives status %i ok: %p', (statusCode, ok) => {
    expect(JSON.parse(jsonResponse(statusCode, {}, 'req-1').body!)).toEqual({ ok, requestId: 'req-1' });
  });

  it('adds the extra headers to its own', () => {
    const response = jsonResponse(405, {}, 'req-1', { Allow: 'GET, OPTIONS' });

    expect(response.headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'X-Request-Id': 'req-1',
      Allow: 'GET, OPTIONS',
    });
  });

  it('puts the request ID last, so no member can replace it', () => {
    const body = JSON.parse(jsonResponse(200, { requestId: 'forged' }, 'req-1').body!);

    expect(body.requestId).toBe('req-1');
  });
});

describe('headerValue', () => {
  const headers = { 'x-tenant-slug': 'demo-studio', Authorization: 'Bearer gsk_x', 'X-Empty': '' };

  it.each(['X-Tenant-Slug', 'x-tenant-slug', 'X-TENANT-SLUG'])('finds x-tenant-slug asked for as %s', (name) => {
    expect(headerValue(headers, name)).toBe('demo-studio');
  });

  it.each(['authorization', 'AUTHORIZATION'])('finds Authorization asked for as %s', (name) => {
    expect(headerValue(headers, name)).toBe('Bearer gsk_x');
  });

  it('gives an empty header as empty text, not as absent', () => {
    expect(headerValue(headers, 'x-empty')).toBe('');
  });

  it('gives undefined for a header that is not there', () => {
    expect(headerValue(headers, 'x-api-key')).toBeUndefined();
  });

  it('gives undefined when the event has no headers at all', () => {
    expect(headerValue(undefined, 'x-tenant-slug')).toBeUndefined();
  });
});
