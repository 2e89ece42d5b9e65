import { now } from '#lib/platform/clock';
import { ApiError } from '#lib/http/errors';
import { consumeRateLimit } from '#lib/rate-limits/store/rate-limit-counters';
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
