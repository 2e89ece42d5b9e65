import { CORS_REQUEST_HEADERS, cors, corsResponseHeaders, preflightHeaders } from '#lib/http/cors';
import { apiEvent, apiRequest, okResponse, runAfter, runOnError } from './request-builders';

describe('corsResponseHeaders', () => {
  it('lets any origin read the answer and exposes X-Request-Id, Retry-After and the rate-limit headers', () => {
    expect(corsResponseHeaders()).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers':
        'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    });
  });

  it('allows no credentials', () => {
    expect(Object.keys(corsResponseHeaders())).not.toContain('Access-Control-Allow-Credentials');
  });
});

describe('preflightHeaders', () => {
  it.each([
    ['/group-shoot', '$default', 'OPTIONS, POST'],
    ['/v1/group-shoot', 'v1', 'OPTIONS, POST'],
    ['/group-shoot/checkin/abc123', '$default', 'GET, OPTIONS'],
    ['/v1/group-shoot/checkin/abc123', 'v1', 'GET, OPTIONS'],
  ])('answers the preflight of %s (stage %s) with the methods %s', (path, stage, methods) => {
    // Act
    const headers = preflightHeaders(apiEvent({ method: 'OPTIONS', path, stage }));

    // Assess
    expect(headers).toEqual({
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers':
        'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
      'Access-Control-Allow-Methods': methods,
      'Access-Control-Allow-Headers': 'Content-Type, X-Tenant-Slug, Idempotency-Key',
      'Access-Control-Max-Age': '86400',
    });
  });

  it('allows exactly the request headers a public page sends', () => {
    expect(CORS_REQUEST_HEADERS).toEqual(['Content-Type', 'X-Tenant-Slug', 'Idempotency-Key']);
    expect(CORS_REQUEST_HEADERS).not.toContain('Authorization');
    expect(CORS_REQUEST_HEADERS).not.toContain('X-Api-Key');
  });
});

describe('cors', () => {
  it('adds the CORS headers to an answer and keeps its own', async () => {
    // Prepare
    const request = apiRequest();
    request.response = okResponse({ personId: 'per_1' });

    // Act
    await runAfter(cors(), request);

    // Assess
    expect(request.response.headers).toEqual({
      'Content-Type': 'application/json; charset=utf-8',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers':
        'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    });
    expect(JSON.parse(String(request.response.body))).toEqual({ ok: true, personId: 'per_1' });
  });

  it('adds the CORS headers to an error answer', async () => {
    // Prepare
    const request = apiRequest();
    request.response = { statusCode: 400, headers: { 'X-Request-Id': 'req-1' }, body: '{"ok":false}' };

    // Act
    await runOnError(cors(), request, new Error('refused'));

    // Assess
    expect(request.response.headers).toEqual({
      'X-Request-Id': 'req-1',
      'Access-Control-Allow-Origin': '*',
      'Access-Control-Expose-Headers':
        'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    });
  });

  it('leaves a request without an answer yet alone', async () => {
    const request = apiRequest();

    await runOnError(cors(), request, new Error('not mapped yet'));

    expect(request.response).toBeNull();
  });
});
