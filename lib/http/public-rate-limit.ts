import { now } from '#lib/platform/clock';
import { optionalEnv } from '#lib/platform/config';
import { keys } from '#lib/platform/table/keys';
import { consumeRateLimit, refundRateLimit } from '#lib/rate-limits/store/rate-limit-counters';
import { addressOfViewerHeader, clientKey } from '#lib/rate-limits/rules/client-address';
import { ALL_CLIENTS, type PublicBudget, budgetOfAction, publicLimitsOf } from '#lib/galleries/rules/public-limits';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import { ApiError } from '#lib/http/errors';
import { findGalleryConfiguration } from '#lib/galleries/group-shoot-gallery';
import { headerValue } from '#lib/http/json-response';
import { admitRequest } from '#lib/http/rate-limit';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';
import { loggableError, logger } from '#lib/platform/logger';

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

/** The wrong-pair charge a photo lookup holds until its answer shows whether the pair was right. */
const heldCharges = new WeakMap<ApiRequest, { counter: string; policy: RateLimitPolicy }>();

/**
 * A photo lookup takes one from the gallery's budget of wrong pairs (all clients together)
 * before its pair is checked, so that no answer depends on the pair while the budget is spent;
 * a right pair gets it back (giveBackCharge). Taking first is exact under any concurrency, which
 * checking the budget and charging only wrong pairs afterwards would not be. Over the budget:
 * 429 rate_limit_exceeded with Retry-After and this budget's X-RateLimit-* headers, nothing written.
 */
async function chargeWrongPair(request: ApiRequest, counter: string, policy: RateLimitPolicy): Promise<void> {
  const verdict = await consumeRateLimit(counter, policy, now());
  if (verdict.admitted) {
    heldCharges.set(request, { counter, policy });
    return;
  }
  const seconds = verdict.retryAfterSeconds;
  Object.assign(request.context.responseHeaders, {
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': '0',
    'X-RateLimit-Reset': String(verdict.resetEpochSeconds),
  });
  throw new ApiError(
    'rate_limit_exceeded',
    `Too many photo lookups with a wrong access code or email in this gallery; retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    { headers: { 'Retry-After': String(seconds) } },
  );
}

/** After a 200 answer (a right pair): the charge goes back. Failing to give it back never fails the answer. */
async function giveBackCharge(request: ApiRequest): Promise<void> {
  const charge = heldCharges.get(request);
  heldCharges.delete(request);
  if (!charge || request.response?.statusCode !== 200) return;
  await refundRateLimit(charge.counter, charge.policy, now()).catch((error: Error) =>
    logger.error('photo lookup charge not given back', { error: loggableError(error) }),
  );
}

/**
 * Public routes: each client (its address; an IPv6 client by its /64) has a budget per
 * gallery for reads and one for check-ins, the gallery's own limits or the defaults
 * (lib/galleries/rules/public-limits.ts), in the same GCRA counters as API keys. It reads the gallery the
 * request names (the use case then takes it from the context instead of reading it again) but
 * raises none of its errors: an unknown gallery counts under the tenant, and the use case
 * answers gallery_not_found as before. Over the limit: 429 with nothing written. A photo
 * lookup (myPhotos) also draws on the gallery's budget of wrong pairs (chargeWrongPair).
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
      const counter = keys.publicRateLimitCounter(tenant.tenantId, configuration?.gallery.token, budget, clientKey(clientAddress(request)));
      await admitRequest(request, counter, policy);
      if (budget === 'photoLookups') {
        const failures = keys.publicRateLimitCounter(tenant.tenantId, configuration?.gallery.token, 'photoLookupFailures', ALL_CLIENTS);
        await chargeWrongPair(request, failures, publicLimitsOf(configuration?.gallery.publicLimits).photoLookupFailures);
      }
    },
    after: giveBackCharge,
  };
}
