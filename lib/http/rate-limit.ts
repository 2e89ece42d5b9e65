import { now } from '#lib/platform/clock';
import { ApiError } from '#lib/http/errors';
import {
  consumeRateLimit,
  knownRemaining,
  refundRateLimit,
  tenantShareCounterId,
} from '#lib/rate-limits/store/rate-limit-counters';
import type { Tenant } from '#lib/tenants/store/tenants';
import { tenantShareOf, tenantSharePolicy } from '#lib/tenants/rules/tenant-share';
import { windowInWords } from '#lib/galleries/rules/public-limits';
import type { RateLimitPolicy, RateLimitVerdict } from '#lib/rate-limits/rules/rate-limit';
import { takenVerdict } from '#lib/http/api-key-auth';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * Takes one request from the counter `keyId` under `policy`. Every response after this step,
 * errors included, carries the X-RateLimit-* headers; a refusal is 429 rate_limit_exceeded with
 * the wait in its message and in Retry-After, and writes nothing.
 */
export async function admitRequest(request: ApiRequest, keyId: string, policy: RateLimitPolicy): Promise<void> {
  answerVerdict(request, await consumeRateLimit(keyId, policy, now()), policy);
}

/** Sets the X-RateLimit-* headers of `verdict`; a refusal throws 429 rate_limit_exceeded. */
export function answerVerdict(request: ApiRequest, verdict: RateLimitVerdict, policy: RateLimitPolicy): void {
  Object.assign(request.context.responseHeaders, {
    'X-RateLimit-Limit': String(verdict.limit),
    'X-RateLimit-Remaining': String(verdict.remaining),
    'X-RateLimit-Reset': String(verdict.resetEpochSeconds),
  });
  if (!verdict.admitted) {
    const seconds = verdict.retryAfterSeconds;
    throw new ApiError(
      'rate_limit_exceeded',
      `Rate limit of ${verdict.limit} requests per ${windowInWords(policy.windowMs)} exceeded; retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { headers: { 'Retry-After': String(seconds) } },
    );
  }
}

/** Check-in attempts this process is taking from each client counter right now. */
const attemptsInFlight = new Map<string, number>();

/**
 * Takes one check-in attempt from the client's counter and one from its tenant's share of the
 * check-in route (lib/tenants/rules/tenant-share.ts). Where the client's counter has room for
 * this request besides those in flight, or this process has not seen it and takes no other
 * request of it (a Lambda instance takes one request at a time), both are taken at once (one
 * round trip), and whichever refuses gets the other's token back. Otherwise the client's counter
 * is taken first and the share only once it admitted, so that a client this process knows to be
 * over its own limit writes nothing of its tenant's share.
 * The client's refusal is answered first (with its X-RateLimit-* headers); the share's is 429
 * rate_limit_exceeded with Retry-After.
 */
export async function admitCheckinAttempt(
  request: ApiRequest,
  keyId: string,
  policy: RateLimitPolicy,
  tenant: Pick<Tenant, 'tenantId' | 'publicShare'>,
): Promise<void> {
  const at = now();
  const sharePolicy = tenantSharePolicy(tenantShareOf(tenant.publicShare));
  const shareId = tenantShareCounterId(tenant.tenantId);
  const inFlight = attemptsInFlight.get(keyId) ?? 0;
  const remaining = knownRemaining(keyId, policy, at);
  attemptsInFlight.set(keyId, inFlight + 1);
  try {
    let share: RateLimitVerdict;
    const roomKnown = remaining === undefined ? inFlight === 0 : remaining - inFlight >= 1;
    if (!roomKnown) {
      answerVerdict(request, await consumeRateLimit(keyId, policy, at), policy);
      share = await consumeRateLimit(shareId, sharePolicy, at);
      if (!share.admitted) await refundRateLimit(keyId, policy, at);
    } else {
      const [client, taken] = await Promise.all([
        consumeRateLimit(keyId, policy, at),
        consumeRateLimit(shareId, sharePolicy, at),
      ]);
      share = taken;
      if (client.admitted !== share.admitted)
        await (client.admitted ? refundRateLimit(keyId, policy, at) : refundRateLimit(shareId, sharePolicy, at));
      answerVerdict(request, client, policy);
    }
    if (share.admitted) return;
    const seconds = share.retryAfterSeconds;
    throw new ApiError(
      'rate_limit_exceeded',
      `This studio's check-ins are very busy; retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
      { headers: { 'Retry-After': String(seconds) } },
    );
  } finally {
    const left = (attemptsInFlight.get(keyId) ?? 1) - 1;
    if (left > 0) attemptsInFlight.set(keyId, left);
    else attemptsInFlight.delete(keyId);
  }
}

/**
 * Server-side routes: 60 requests per minute per API key. apiKeyAuth took the request from the
 * key's counter in the write that checked the key (lib/http/api-key-auth.ts); this step answers
 * that verdict after the plan check, so a refusal by the plan never shows rate-limit headers.
 */
export function rateLimit(): ApiMiddleware {
  return {
    before: async (request) => {
      const taken = takenVerdict(request);
      if (!taken) throw new Error('rateLimit needs apiKeyAuth before it');
      answerVerdict(request, taken.verdict, taken.policy);
    },
  };
}
