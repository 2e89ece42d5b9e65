import {
  API_KEY_RATE_LIMIT,
  admittedVerdict,
  burstTolerance,
  counterExpiry,
  emissionInterval,
  refusedVerdict,
} from '#lib/rate-limits/rules/rate-limit';

/** A reference GCRA run in memory, to check the verdict helpers against a sequence of requests. */
function simulate(times: number[]): boolean[] {
  const policy = API_KEY_RATE_LIMIT;
  let tat: number | undefined;
  return times.map((now) => {
    if (tat !== undefined && tat - burstTolerance(policy) > now) return false;
    tat = Math.max(tat ?? now, now) + emissionInterval(policy);
    return true;
  });
}

describe('GCRA policy of 60 per minute', () => {
  it('has an emission interval of one second and a tolerance of 59 seconds', () => {
    expect(emissionInterval(API_KEY_RATE_LIMIT)).toBe(1000);
    expect(burstTolerance(API_KEY_RATE_LIMIT)).toBe(59_000);
  });

  it('admits a burst of exactly 60', () => {
    const admitted = simulate(Array.from({ length: 61 }, () => 0));
    expect(admitted.filter(Boolean)).toHaveLength(60);
    expect(admitted[60]).toBe(false);
  });

  it('admits a steady 1 request per second forever', () => {
    expect(simulate(Array.from({ length: 500 }, (_, index) => index * 1000)).every(Boolean)).toBe(true);
  });

  it('counts remaining requests down from 59 to 0 across a burst', () => {
    const now = 10_000;
    const remaining = Array.from({ length: 60 }, (_, index) => {
      const verdict = admittedVerdict(API_KEY_RATE_LIMIT, now + (index + 1) * 1000, now);
      return verdict.remaining;
    });
    expect(remaining[0]).toBe(59);
    expect(remaining[59]).toBe(0);
    expect(remaining).toEqual([...remaining].sort((a, b) => b - a));
  });

  it('puts Reset of an admitted request at the second the bucket is full again', () => {
    expect(admittedVerdict(API_KEY_RATE_LIMIT, 61_500, 1_500).resetEpochSeconds).toBe(62);
  });

  it('puts Reset of a refusal at the first second a retry is admitted, and Retry-After to match', () => {
    const verdict = refusedVerdict(API_KEY_RATE_LIMIT, 60_500 + 500, 500);
    expect(verdict).toEqual({ admitted: false, limit: 60, remaining: 0, resetEpochSeconds: 2, retryAfterSeconds: 2 });
  });

  it('never advises a wait of less than a second', () => {
    expect(refusedVerdict(API_KEY_RATE_LIMIT, 59_001, 0)).toEqual(expect.objectContaining({ retryAfterSeconds: 1 }));
  });

  it('lets a counter expire only after its TAT can no longer refuse anything', () => {
    const now = 5_000;
    const latestPossibleTat = now + burstTolerance(API_KEY_RATE_LIMIT) + emissionInterval(API_KEY_RATE_LIMIT);
    expect(counterExpiry(API_KEY_RATE_LIMIT, now) * 1000).toBeGreaterThanOrEqual(latestPossibleTat);
  });
});
