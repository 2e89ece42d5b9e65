import { optionalEnv } from '#lib/platform/config';
import { addressOfViewerHeader, clientKey } from '#lib/rate-limits/rules/client-address';
import {
  type PublicBudget,
  type PublicLimits,
  budgetOfAction,
  publicLimitsOf,
} from '#lib/galleries/rules/public-limits';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import { ExpiringCache } from '#lib/platform/expiring-cache';
import { findGalleryConfiguration } from '#lib/galleries/group-shoot-gallery';
import { headerValue } from '#lib/http/json-response';
import { admitRequest } from '#lib/http/rate-limit';
import { publicCounterId } from '#lib/rate-limits/store/rate-limit-counters';
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

/**
 * How long this process counts a public request under the limits it last read for the gallery,
 * instead of reading them first: a change of a gallery's public limits (admin CLI) counts
 * within this time. Every request that reads the gallery refreshes them; a gallery not found is
 * forgotten at once. docs/data-model.md#cached-values.
 */
export const GALLERY_LIMITS_CACHE_MS = 60_000;

const recentLimits = new ExpiringCache<{ limits?: Partial<PublicLimits> }>(GALLERY_LIMITS_CACHE_MS);

function rememberLimits(cacheKey: string, configuration: GalleryConfiguration | undefined): void {
  if (configuration) recentLimits.set(cacheKey, { limits: configuration.gallery.publicLimits });
  else recentLimits.delete(cacheKey);
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
 * The limits of the request's gallery as its pointer holds them (prefetchGalleryPointer read it
 * beside the tenant), when the resolved tenant has a pointer with this token: then the gallery
 * exists with those limits. Another tenant's pointer with the same token is never used.
 */
async function pointedLimits(
  request: ApiRequest,
  tenantId: string,
): Promise<{ limits?: Partial<PublicLimits> } | undefined> {
  const pointers = await request.context.galleryPointerLookup;
  const pointer = pointers?.find((candidate) => candidate.tenantId === tenantId);
  return pointer ? { limits: pointer.publicLimits } : undefined;
}

/**
 * Public routes: each client (its address; an IPv6 client by its /64) has a budget per
 * gallery for reads and one for check-ins, the gallery's own limits or the defaults
 * (lib/galleries/rules/public-limits.ts), in the same GCRA counters as API keys. It reads the gallery the
 * request names (the use case then takes it from the context instead of reading it again) but
 * raises none of its errors: an unknown gallery counts under the tenant, and the use case
 * answers gallery_not_found as before. Over the limit: 429 with nothing written. Wrong photo
 * lookups are counted by the use case once their body parsed (lib/photos/access/participant-photos.ts),
 * with the client's address this step leaves in the context.
 *
 * Where this process read the gallery's limits less than GALLERY_LIMITS_CACHE_MS ago, or the
 * gallery's pointer read beside the tenant gives them, the gallery's read and the counter's write
 * go together, one round trip instead of two.
 */
export function publicRateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const tenant = request.context.tenant;
      if (!tenant) throw new Error('publicRateLimit needs tenantResolution before it');
      const { budget, galleryToken } = publicRequest(request);
      const address = clientAddress(request);
      request.context.clientAddress = address;
      const cacheKey = `${tenant.tenantId}#${galleryToken}`;
      const known =
        galleryToken === undefined
          ? undefined
          : (recentLimits.get(cacheKey) ?? (await pointedLimits(request, tenant.tenantId)));
      if (known) {
        const lookup = findGalleryConfiguration(tenant.tenantId, galleryToken);
        lookup.catch(() => undefined); // awaited below unless the limit refuses first
        const counter = publicCounterId(tenant.tenantId, galleryToken, budget, clientKey(address));
        const [configuration] = await Promise.all([
          lookup,
          admitRequest(request, counter, publicLimitsOf(known.limits)[budget]),
        ]);
        rememberLimits(cacheKey, configuration);
        request.context.gallery = configuration;
      } else {
        const configuration = await findGalleryConfiguration(tenant.tenantId, galleryToken);
        if (galleryToken !== undefined) rememberLimits(cacheKey, configuration);
        request.context.gallery = configuration;
        const policy = publicLimitsOf(configuration?.gallery.publicLimits)[budget];
        const counter = publicCounterId(tenant.tenantId, configuration?.gallery.token, budget, clientKey(address));
        await admitRequest(request, counter, policy);
      }
    },
  };
}
