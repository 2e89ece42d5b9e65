import { apiKeyAuth } from '#lib/http/api-key-auth';
import { prefetchGallery } from '#lib/http/gallery-prefetch';
import { planCheck } from '#lib/http/plan-check';
import { rateLimit } from '#lib/http/rate-limit';
import { type AccessStages, type EndpointBody, accessEndpoint } from '#lib/http/endpoint';
import type { RouteId } from '#lib/http/routes';

/** Server-side GET routes whose use case takes the gallery the pipeline read (EndpointInput.gallery): prefetchGallery reads it. */
const GALLERY_PREFETCH_ROUTES: ReadonlySet<string> = new Set<RouteId>([
  'listShootingDays',
  'listFormFields',
  'getGalleryStats',
  'listPersons',
  'listPersonPhotos',
]);

/** Server-side routes' stages: after the tenant, the gallery's read where the route takes it, then the API key, plan and rate limit. */
const SERVER_STAGES: AccessStages = {
  access: 'server',
  outermost: () => [],
  beforeTenant: () => [],
  afterTenant: (route) => [
    ...(route.method === 'GET' && GALLERY_PREFETCH_ROUTES.has(route.id) ? [prefetchGallery()] : []),
    apiKeyAuth(),
    planCheck(),
    rateLimit(),
  ],
  afterBody: () => [],
};

/** The handler of a server-side route (API key): the endpoint preset of lib/http/endpoint.ts. */
export function serverEndpoint(routeId: RouteId, body: EndpointBody) {
  return accessEndpoint(SERVER_STAGES, routeId, body);
}
