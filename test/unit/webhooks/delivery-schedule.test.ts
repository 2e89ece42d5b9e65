import {
  DELIVERY_RETRY_PERIOD_MS,
  ENDPOINT_FAILURE_PERIOD_MS,
  endpointFailedTooLong,
  nextRetryAt,
  retryDelayMs,
} from '#lib/webhooks/rules/delivery-schedule';

const HOUR = 3_600_000;

describe('webhook retry schedule', () => {
  it('backs off exponentially from 30 seconds to 12 hours', () => {
    const middle = () => 0.5; // no jitter
    expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 20].map((failures) => retryDelayMs(failures, middle))).toEqual([
      30_000,
      120_000,
      600_000,
      1_800_000,
      HOUR,
      2 * HOUR,
      4 * HOUR,
      8 * HOUR,
      12 * HOUR,
      12 * HOUR,
    ]);
  });

  it.each([1, 5, 12])('jitters the delay after %i failures by at most a quarter either way', (failures) => {
    const base = retryDelayMs(failures, () => 0.5);
    expect(retryDelayMs(failures, () => 0)).toBe(Math.round(base * 0.75));
    expect(retryDelayMs(failures, () => 0.999999)).toBeLessThanOrEqual(Math.round(base * 1.25));
    expect(retryDelayMs(failures, () => 0.999999)).toBeGreaterThan(base);
  });

  it('keeps retrying for three days from the first attempt, then gives up', () => {
    // Prepare: the earliest retries the jitter allows.
    const earliest = () => 0;
    let at = 0;
    let attempts = 1;
    // Act
    for (
      let next = nextRetryAt(0, 1, at, earliest);
      next !== undefined;
      next = nextRetryAt(0, attempts, at, earliest)
    ) {
      at = next;
      attempts += 1;
    }
    // Assess
    expect(at).toBeGreaterThanOrEqual(DELIVERY_RETRY_PERIOD_MS);
    expect(at).toBeLessThan(DELIVERY_RETRY_PERIOD_MS + 12 * HOUR);
    expect(attempts).toBeGreaterThanOrEqual(12);
    expect(nextRetryAt(0, attempts, DELIVERY_RETRY_PERIOD_MS - 1, earliest)).toBeDefined();
    expect(nextRetryAt(0, attempts, DELIVERY_RETRY_PERIOD_MS, earliest)).toBeUndefined();
  });

  it('disables an endpoint only after it has failed for the whole period', () => {
    expect(endpointFailedTooLong(undefined, 10 * DELIVERY_RETRY_PERIOD_MS)).toBe(false);
    expect(endpointFailedTooLong(1000, 1000 + ENDPOINT_FAILURE_PERIOD_MS - 1)).toBe(false);
    expect(endpointFailedTooLong(1000, 1000 + ENDPOINT_FAILURE_PERIOD_MS)).toBe(true);
  });
});
