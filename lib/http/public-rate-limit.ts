import { optionalEnv } from '#lib/platform/config';
import { keys } from '#lib/platform/table/keys';
import { addressOfViewerHeader, clientKey } from '#lib/rate-limits/rules/client-address';
import { type PublicBudget, budgetOfAction, publicLimitsOf } from '#lib/galleries/rules/public-limits';
import { findGalleryConfiguration } from '#lib/galleries/group-shoot-gallery';
import { headerValue } from '#lib/http/json-response';
import { admitRequest } from '#lib/http/rate-limit';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * Where the client's address is when a proxy stands in front of the API: the CloudFront front
 * of the stack sets CLIENT_ADDRESS_HEADER=cloudfront-viewer-address (`address:port`). Without
 * it, the address API Gateway saw.
 */
const CLIENT_ADDRESS_HEADER = optionalEnv('CLIENT_ADDRESS_HEADER');

function clientAddress(request: ApiRequest): string | undefined {
  if (CLIENT_ADDRESS_HEADER) {
    const value = headerValue(request.event.headers, CLIENT_ADDRESS_HEADER);
    return value === undefined ? undefined : addressOfViewerHeader(value.trim());
  }
  return request.event.requestContext?.http?.sourceIp;
}

/** The budget a public request draws on and the gallery it names, if it names one. */
function publicRequest(request: ApiRequest): { budget: PublicBudget; galleryToken?: string } {
  if (request.event.requestContext?.http?.method?.toUpperCase() === 'GET') {
    return { budget: 'reads', galleryToken: request.context.pathParameters.token };
  }
  const body = (request.event.body ?? {}) as Record<string, unknown>;
  const budget = budgetOfAction(body.action);
  // Status and retry tokens name no gallery until they are looked up: those count per tenant.
  const namesGallery = body.action === 'submitCheckin' || budget === 'photoLookups';
  const token = typeof body.token === 'string' && namesGallery ? body.token.trim() : undefined;
  return { budget, galleryToken: token };
}

/**
 * Public routes: each client (its address; an IPv6 client by its /64) has a budget per
 * gallery for reads and one for check-ins, the gallery's own limits or the defaults
 * (lib/galleries/rules/public-limits.ts), in the same GCRA counters as API keys. It reads the gallery the
 * request names (the use case then takes it from the context instead of reading it again) but
 * raises none of its errors: an unknown gallery counts under the tenant, and the use case
 * answers gallery_not_found as before. Over the limit: 429 with nothing written. Wrong photo
 * lookups are counted by the use case once their body parsed (lib/photos/participant-photos.ts),
 * with the client's address this step leaves in the context.
 */
export function publicRateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const tenant = request.context.tenant;
      if (!tenant) throw new Error('publicRateLimit needs tenantResolution before it');
      const { budget, galleryToken } = publicRequest(request);
      const configuration = await findGalleryConfiguration(tenant.tenantId, galleryToken);
      request.context.gallery = configuration;
      const policy = publicLimitsOf(configuration?.gallery.publicLimits)[budget];
      const address = clientAddress(request);
      request.context.clientAddress = address;
      const counter = keys.publicRateLimitCounter(tenant.tenantId, configuration?.gallery.token, budget, clientKey(address));
      await admitRequest(request, counter, policy);
    },
  };
}
