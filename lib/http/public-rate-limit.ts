import { optionalEnv } from '#lib/platform/config';
import { addressOfViewerHeader, clientCredentialKey, clientKey } from '#lib/rate-limits/rules/client-address';
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
import { admitCheckinAttempt, admitRequest } from '#lib/http/rate-limit';
import { knownRemaining, publicCounterId } from '#lib/rate-limits/store/rate-limit-counters';
import { now } from '#lib/platform/clock';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import type { Tenant } from '#lib/tenants/store/tenants';

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

/**
 * The budget a public request draws on, the gallery it names, if it names one, and for a photo
 * lookup the credential it names (its photo link, else its access code, else its email address).
 */
function publicRequest(request: ApiRequest): { budget: PublicBudget; galleryToken?: string; credential?: string } {
  if (request.event.requestContext?.http?.method?.toUpperCase() === 'GET') {
    return { budget: 'reads', galleryToken: request.context.pathParameters.token };
  }
  const body = (request.event.body ?? {}) as Record<string, unknown>;
  const budget = budgetOfAction(body.action);
  // Status and retry tokens name no gallery until they are looked up: those count per tenant.
  const namesGallery = body.action === 'submitCheckin' || budget === 'photoLookups';
  const token = typeof body.token === 'string' && namesGallery ? body.token.trim() : undefined;
  const credential = budget === 'photoLookups' ? lookupCredential(body) : undefined;
  return { budget, galleryToken: token, credential };
}

/** What a photo lookup proves itself with, as the participant typed it (case and spaces aside). */
function lookupCredential(body: Record<string, unknown>): string | undefined {
  for (const member of ['photoLink', 'code', 'email'] as const) {
    const value = body[member];
    if (typeof value === 'string' && value.trim() !== '') return `${member}:${value.trim().toLowerCase()}`;
  }
  return undefined;
}

/**
 * Whom a request is counted under: the client (its network), or for a photo lookup the client
 * together with the credential it names, so that one colleague behind a shared address spends
 * no budget of another's code or link. Lookups naming none count under the client alone.
 */
function counterClient(address: string | undefined, credential: string | undefined): string {
  return credential === undefined ? clientKey(address) : clientCredentialKey(address, credential);
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

/** A read counts for its client alone; a check-in attempt for its client and its tenant's share. */
function admitPublicRequest(
  request: ApiRequest,
  tenant: Tenant,
  counter: { id: string; policy: RateLimitPolicy; budget: PublicBudget },
) {
  if (counter.budget === 'reads') return admitRequest(request, counter.id, counter.policy);
  return admitCheckinAttempt(request, counter.id, counter.policy, tenant);
}

/**
 * Public routes: each client (its address; an IPv6 client by its /64) has a budget per
 * gallery for reads and one for check-ins, the gallery's own limits or the defaults
 * (lib/galleries/rules/public-limits.ts), in the same GCRA counters as API keys. It reads the gallery the
 * request names (the use case then takes it from the context instead of reading it again) but
 * raises none of its errors: an unknown gallery counts under the tenant, and the use case
 * answers gallery_not_found as before. Over the limit: 429 with nothing written. Wrong photo
 * lookups are counted by the use case once their body parsed (lib/photos/access/participant-photos.ts),
 * with the client's address this step leaves in the context. Photo lookups count per client
 * and credential (counterClient). A check-in attempt also takes one from its tenant's share
 * of the check-in route, in the same round trip (admitCheckinAttempt).
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
      const { budget, galleryToken, credential } = publicRequest(request);
      const address = clientAddress(request);
      request.context.clientAddress = address;
      const cacheKey = `${tenant.tenantId}#${galleryToken}`;
      const known =
        galleryToken === undefined
          ? undefined
          : (recentLimits.get(cacheKey) ?? (await pointedLimits(request, tenant.tenantId)));
      if (known) {
        const counter = publicCounterId(tenant.tenantId, galleryToken, budget, counterClient(address, credential));
        const policy = publicLimitsOf(known.limits)[budget];
        // A client this process knows to be over its limit is refused before the gallery is read:
        // a flood it knows of costs no DynamoDB call at all.
        const overLimit = knownRemaining(counter, policy, now()) === 0;
        if (overLimit) await admitPublicRequest(request, tenant, { id: counter, policy, budget });
        const lookup = findGalleryConfiguration(tenant.tenantId, galleryToken);
        lookup.catch(() => undefined); // awaited below unless the limit refuses first
        const [configuration] = await Promise.all([
          lookup,
          overLimit ? undefined : admitPublicRequest(request, tenant, { id: counter, policy, budget }),
        ]);
        rememberLimits(cacheKey, configuration);
        request.context.gallery = configuration;
      } else {
        const configuration = await findGalleryConfiguration(tenant.tenantId, galleryToken);
        if (galleryToken !== undefined) rememberLimits(cacheKey, configuration);
        request.context.gallery = configuration;
        const policy = publicLimitsOf(configuration?.gallery.publicLimits)[budget];
        const client = counterClient(address, credential);
        const counter = publicCounterId(tenant.tenantId, configuration?.gallery.token, budget, client);
        await admitPublicRequest(request, tenant, { id: counter, policy, budget });
      }
    },
  };
}
