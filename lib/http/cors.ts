import { type Route, routesAtPath } from '#lib/http/routes';
import { pathWithinStage } from '#lib/http/method-check';
import type { ApiEvent, ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * CORS for the public routes only: check-in pages are hosted on tenants' own domains, and no
 * credentials or cookies are involved, so any origin may call them. Server-side routes send no
 * CORS headers and have no preflight route, so a browser page cannot use an API key.
 */
export const CORS_REQUEST_HEADERS = ['Content-Type', 'X-Tenant-Slug', 'Idempotency-Key'];

export function corsResponseHeaders(): Record<string, string> {
  return {
    'Access-Control-Allow-Origin': '*',
    'Access-Control-Expose-Headers':
      'X-Request-Id, Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
  };
}

/** The headers of a preflight answer for the path of the request. */
export function preflightHeaders(event: ApiEvent): Record<string, string> {
  const methods = routesAtPath(pathWithinStage(event)).map(({ route }: { route: Route }) => route.method);
  return {
    ...corsResponseHeaders(),
    'Access-Control-Allow-Methods': [...new Set(methods)].sort().join(', '),
    'Access-Control-Allow-Headers': CORS_REQUEST_HEADERS.join(', '),
    'Access-Control-Max-Age': '86400',
  };
}

/** Adds the CORS headers to every answer of a public route, errors included. */
export function cors(): ApiMiddleware {
  const addHeaders = async (request: ApiRequest) => {
    if (request.response) request.response.headers = { ...request.response.headers, ...corsResponseHeaders() };
  };
  return { after: addHeaders, onError: addHeaders };
}
