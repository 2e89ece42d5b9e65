import { now } from '#lib/platform/clock';
import { ApiError } from '#lib/http/errors';
import { consumeRateLimit } from '#lib/rate-limits/store/rate-limit-counters';
import { windowInWords } from '#lib/galleries/rules/public-limits';
import { API_KEY_RATE_LIMIT, type RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';
import type { ApiMiddleware, ApiRequest } from '#lib/http/types';

/**
 * Takes one request from the counter `keyId` under `policy`. Every response after this step,
 * errors included, carries the X-RateLimit-* headers; a refusal is 429 rate_limit_exceeded with
 * the wait in its message and in Retry-After, and writes nothing.
 */
export async function admitRequest(request: ApiRequest, keyId: string, policy: RateLimitPolicy): Promise<void> {
  const verdict = await consumeRateLimit(keyId, policy, now());
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

/** Server-side routes: 60 requests per minute per API key. */
export function rateLimit(policy: RateLimitPolicy = API_KEY_RATE_LIMIT): ApiMiddleware {
  return {
    before: async (request) => {
      const keyId = request.context.apiKey?.keyId;
      if (!keyId) throw new Error('rateLimit needs apiKeyAuth before it');
      await admitRequest(request, keyId, policy);
    },
  };
}
