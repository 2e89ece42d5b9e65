import { timingSafeEqual } from 'node:crypto';
import { now } from '#lib/platform/clock';
import { optionalEnv } from '#lib/platform/config';
import { secretValue } from '#lib/platform/secrets-manager';
import { ApiError } from '#lib/http/errors';
import { headerValue } from '#lib/http/json-response';
import type { ApiMiddleware } from '#lib/http/types';

/** The secret CloudFront sends as X-Origin-Verify when the stack's API front is on (infra/api-front.ts). */
const ORIGIN_SECRET = 'ORIGIN_VERIFY_SECRET';
/** A mismatch reads the secret again (it may have been replaced) at most this often per function instance. */
const REFRESH_AFTER_MISMATCH_MS = 60_000;
let lastRefresh = 0;

function matches(presented: string | undefined, expected: string | undefined): boolean {
  if (presented === undefined || expected === undefined) return false;
  const [a, b] = [Buffer.from(presented), Buffer.from(expected)];
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Behind the API front (CloudFront and WAF), the only way in: a request that does not carry the
 * front's secret came to the execute-api address directly, around WAF and with a client address
 * header of its own making, and is refused with 403 direct_access_forbidden before anything is
 * looked up or counted. Without a front (no secret configured) it checks nothing.
 */
export function originVerify(): ApiMiddleware {
  return {
    before: async (request) => {
      if (!optionalEnv(ORIGIN_SECRET) && !optionalEnv(`${ORIGIN_SECRET}_ARN`)) return;
      const presented = headerValue(request.event.headers, 'x-origin-verify');
      if (matches(presented, await secretValue(ORIGIN_SECRET))) return;
      if (presented !== undefined && now() - lastRefresh > REFRESH_AFTER_MISMATCH_MS) {
        lastRefresh = now();
        if (matches(presented, await secretValue(ORIGIN_SECRET, { fresh: true }))) return;
      }
      throw new ApiError('direct_access_forbidden');
    },
  };
}
