/**
 * Generic cell rate algorithm (GCRA), the token bucket expressed as one timestamp: the
 * theoretical arrival time (TAT) of the next request at the sustained rate. A request at
 * `now` is admitted when TAT - tolerance <= now; the TAT then moves to max(TAT, now) + interval.
 * With limit L per window W this admits a burst of L and then one request every W / L.
 */
export interface RateLimitPolicy {
  limit: number;
  windowMs: number;
}

/** The spec's limit: 60 requests per minute per API key. */
export const API_KEY_RATE_LIMIT: RateLimitPolicy = { limit: 60, windowMs: 60_000 };

export function emissionInterval(policy: RateLimitPolicy): number {
  return policy.windowMs / policy.limit;
}

/** How far ahead of `now` the TAT may run and still admit a request. */
export function burstTolerance(policy: RateLimitPolicy): number {
  return (policy.limit - 1) * emissionInterval(policy);
}

export type RateLimitVerdict =
  | { admitted: true; limit: number; remaining: number; resetEpochSeconds: number }
  | { admitted: false; limit: number; remaining: 0; resetEpochSeconds: number; retryAfterSeconds: number };

/** The verdict after a request was admitted and the TAT moved to `newTat`. */
export function admittedVerdict(policy: RateLimitPolicy, newTat: number, now: number): RateLimitVerdict {
  const interval = emissionInterval(policy);
  const remaining = Math.floor((now + burstTolerance(policy) - newTat) / interval) + 1;
  return {
    admitted: true,
    limit: policy.limit,
    remaining: Math.min(policy.limit - 1, Math.max(0, remaining)),
    // When the bucket is full again: from then on a whole burst is available.
    resetEpochSeconds: Math.ceil(newTat / 1000),
  };
}

/** The verdict for a refused request: Reset is the first Unix second at which a retry is admitted. */
export function refusedVerdict(policy: RateLimitPolicy, tat: number, now: number): RateLimitVerdict {
  const resetEpochSeconds = Math.ceil((tat - burstTolerance(policy)) / 1000);
  return {
    admitted: false,
    limit: policy.limit,
    remaining: 0,
    resetEpochSeconds,
    retryAfterSeconds: Math.max(1, resetEpochSeconds - Math.floor(now / 1000)),
  };
}

/** Unix second after which a counter holds no information (its TAT is in the past) and may expire. */
export function counterExpiry(policy: RateLimitPolicy, now: number): number {
  return Math.ceil((now + policy.windowMs) / 1000);
}
