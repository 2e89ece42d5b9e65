/**
 * When a failed webhook delivery is tried again, and when it is given up (docs/events.md#retries).
 * Retries back off exponentially from 30 seconds to 12 hours, each delay jittered by ±25% so
 * that the deliveries of one outage do not all return at once, and go on for three days from
 * the first attempt. An endpoint whose deliveries have all failed for three days is disabled.
 */

/** How long a delivery is retried, counted from its first attempt. */
export const DELIVERY_RETRY_PERIOD_MS = 3 * 24 * 3_600_000;
/** How long an endpoint may fail without one success before it is disabled. */
export const ENDPOINT_FAILURE_PERIOD_MS = DELIVERY_RETRY_PERIOD_MS;
/** How long one attempt may take, connection and answer together. */
export const DELIVERY_TIMEOUT_MS = 10_000;

const BASE_DELAYS_MS = [30_000, 120_000, 600_000, 1_800_000, 3_600_000, 7_200_000, 14_400_000, 28_800_000];
const LONGEST_DELAY_MS = 12 * 3_600_000;
const JITTER = 0.25;

/** The delay before the next attempt after `failedAttempts` failures (1 after the first), jittered. */
export function retryDelayMs(failedAttempts: number, random: () => number = Math.random): number {
  return jittered(BASE_DELAYS_MS[failedAttempts - 1] ?? LONGEST_DELAY_MS, random);
}

/** A delay of `baseMs` jittered by ±25 %. */
export function jittered(baseMs: number, random: () => number = Math.random): number {
  return Math.round(baseMs * (1 - JITTER + 2 * JITTER * random()));
}

/** After a failed attempt at `at`: when to try again, or undefined once the retry period is over. */
export function nextRetryAt(
  firstAttemptAt: number,
  failedAttempts: number,
  at: number,
  random?: () => number,
): number | undefined {
  if (at - firstAttemptAt >= DELIVERY_RETRY_PERIOD_MS) return undefined;
  return at + retryDelayMs(failedAttempts, random);
}

/** Whether an endpoint failing since `failingSince` (without a success since) is to be disabled at `at`. */
export function endpointFailedTooLong(failingSince: number | undefined, at: number): boolean {
  return failingSince !== undefined && at - failingSince >= ENDPOINT_FAILURE_PERIOD_MS;
}
