/**
 * The bounds on retries that every fault must respect: attempts per call within each client's
 * maxAttempts, repeats of a call within the largest application-level retry budget, Stripe
 * attempts within maxNetworkRetries + 1, and the time the request would take with the real
 * backoff within the functions' timeout.
 */
import type { Window } from './fault-window';
import { maxAttempts } from './retry-observation';

/** infra/service-function.ts: the timeout of every function, the ingest included. */
export const FUNCTION_TIMEOUT_MS = 29_000;
/** The largest withStoreRetries budget of the stores: check-ins (lib/checkin/store/checkins.ts) and order transactions (lib/payments/store/orders.ts). */
export const APP_ATTEMPTS_MAX = 10;
/** lib/payments/adapters/stripe-payments.ts: maxNetworkRetries 1. */
export const STRIPE_ATTEMPTS_MAX = 2;

/**
 * The time the request would have taken had it waited: the AWS SDK's expected (mean) backoff
 * and the skipped waits of the application and the Stripe SDK, spread over the most calls that
 * were in flight at once (a lower bound of the waits on the request's critical path).
 */
export function virtualMs(window: Window): number {
  const expectedBackoff = window.backoffCapsMs.reduce((sum, { capMs }) => sum + capMs / 2, 0);
  const skipped = window.skippedWaitsMs.reduce((sum, { ms }) => sum + ms, 0);
  return Math.round(window.wallMs + (expectedBackoff + skipped) / Math.max(1, window.maxInFlight));
}

/** How often the most repeated call (same service, command and input) was sent. */
export function sameCallRepeats(window: Window): number {
  const counts = new Map<string, number>();
  for (const send of window.sends) {
    const key = `${send.service} ${send.command} ${send.input}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Math.max(0, ...counts.values());
}

export function expectRetriesBounded(window: Window): void {
  for (const service of ['DynamoDB', 'S3'] as const) {
    const attempts = window.sends.filter((send) => send.service === service).map((send) => send.attempts);
    expect(Math.max(0, ...attempts)).toBeLessThanOrEqual(maxAttempts[service]);
  }
  expect(sameCallRepeats(window)).toBeLessThanOrEqual(APP_ATTEMPTS_MAX);
  expect(Math.max(0, ...window.stripeCalls.map((stripeCall) => stripeCall.attempts))).toBeLessThanOrEqual(
    STRIPE_ATTEMPTS_MAX,
  );
  // The time the request would take with the SDK's real backoff stays within the function timeout.
  expect(virtualMs(window)).toBeLessThanOrEqual(FUNCTION_TIMEOUT_MS);
}
