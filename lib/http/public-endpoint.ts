import { cors } from '#lib/http/cors';
import { prefetchGalleryPointer } from '#lib/http/gallery-pointer-prefetch';
import { publicRateLimit } from '#lib/http/public-rate-limit';
import { type AccessStages, type EndpointBody, accessEndpoint } from '#lib/http/endpoint';
import type { RouteId } from '#lib/http/routes';

/**
 * Public routes' stages: CORS, for a GET of a gallery the start of its pointer's read beside
 * the tenant's, and the per-client rate limit after the body.
 */
const PUBLIC_STAGES: AccessStages = {
  access: 'public',
  outermost: () => [cors()],
  beforeTenant: (route) => (route.method === 'GET' && route.path.includes('{token}') ? [prefetchGalleryPointer()] : []),
  afterTenant: () => [],
  afterBody: () => [publicRateLimit()],
};

/** The handler of a public route (no API key): the endpoint preset of lib/http/endpoint.ts. */
export function publicEndpoint(routeId: RouteId, body: EndpointBody) {
  return accessEndpoint(PUBLIC_STAGES, routeId, body);
}
