/**
 * Backoff observed rather than waited. The retry strategy of the service's AWS clients computes
 * each delay as it always does (recorded with its jitter at the maximum, so the expected delay
 * is half of it) and the wait is skipped; the timers of the application's retries
 * (lib/platform/backoff.ts) and of the Stripe SDK's retries fire at once and their delays are recorded.
 * Also: the clients' retry quotas, attempts and per-attempt timeouts, as they resolved them.
 */
import { join, sep } from 'node:path';
import { clients } from './aws-fault-injection';
import { type AwsService, lab } from './fault-lab';

interface RetryStrategyInternals {
  retryBackoffStrategy: { computeNextBackoffDelay(retries: number): number };
  getCapacity(): number;
  recordSuccess(token: { getRetryCost(): number }): void;
}

/** The setTimeout of Node, for waits the harness itself needs. */
export const realSetTimeout = globalThis.setTimeout;

/** Each client's maxAttempts, as resolved once observeRetries() has run. */
export const maxAttempts: Record<AwsService, number> = { DynamoDB: 0, S3: 0 };
/** Each client's retry quota when it is full. */
export const initialRetryCapacity: Record<AwsService, number> = { DynamoDB: 0, S3: 0 };
const strategies = {} as Record<AwsService, RetryStrategyInternals>;

/**
 * The application's own backoff (lib/platform/backoff.ts) and the Stripe SDK's retry sleeps are
 * observed rather than waited, like the AWS SDK's: while a request is measured, a timer set by
 * either fires at once and its delay is recorded. Every other timer is left alone.
 */
const RETRY_SLEEPERS = [
  { by: 'withStoreRetries' as const, frame: join('lib', 'platform', 'backoff.ts') },
  { by: 'Stripe SDK' as const, frame: `${join('node_modules', 'stripe')}${sep}` },
];

function observedSetTimeout(this: unknown, handler: (...args: unknown[]) => void, delay?: number, ...args: unknown[]) {
  if (lab.recording && typeof delay === 'number' && delay > 0) {
    // The frame that set the timer (0: "Error", 1: this function).
    const caller = (new Error().stack ?? '').split('\n')[2] ?? '';
    const sleeper = RETRY_SLEEPERS.find(
      (candidate) =>
        caller.includes(candidate.frame) && (candidate.by !== 'Stripe SDK' || caller.includes('retryRequest')),
    );
    if (sleeper) {
      lab.skippedWaitsMs.push({ by: sleeper.by, ms: delay });
      return realSetTimeout(handler, 0, ...args);
    }
  }
  return realSetTimeout(handler, delay, ...args);
}

/** Replaces setTimeout and the AWS clients' backoff with their observed versions, and reads the clients' retry settings. */
export async function observeRetries(): Promise<void> {
  globalThis.setTimeout = observedSetTimeout as typeof setTimeout;
  for (const service of ['DynamoDB', 'S3'] as const) {
    maxAttempts[service] = await clients[service].config.maxAttempts();
    const strategy = (await clients[service].config.retryStrategy()) as RetryStrategyInternals;
    strategies[service] = strategy;
    initialRetryCapacity[service] = strategy.getCapacity();
    const backoff = strategy.retryBackoffStrategy;
    const compute = backoff.computeNextBackoffDelay;
    backoff.computeNextBackoffDelay = function observedBackoff(this: unknown, retries: number) {
      const random = Math.random;
      Math.random = () => 1; // the jitter at its maximum: the cap of this retry's delay
      let capMs: number;
      try {
        capMs = compute.call(this, retries);
      } finally {
        Math.random = random;
      }
      if (lab.recording) lab.backoffCapsMs.push({ service, capMs });
      return 0;
    };
    (backoff as { restore?: () => void }).restore = () => {
      backoff.computeNextBackoffDelay = compute;
    };
  }
}

/** Puts back setTimeout and the AWS clients' own backoff. */
export function stopObservingRetries(): void {
  globalThis.setTimeout = realSetTimeout;
  for (const service of ['DynamoDB', 'S3'] as const)
    (strategies[service]?.retryBackoffStrategy as { restore?: () => void } | undefined)?.restore?.();
}

/** Every test starts with the full retry quota of a fresh Lambda container. */
export function refillRetryQuotas(): void {
  for (const service of ['DynamoDB', 'S3'] as const) {
    strategies[service].recordSuccess({ getRetryCost: () => Number.MAX_SAFE_INTEGER });
  }
}

/** The longest an attempt can wait for a silent service, from the client's resolved HTTP handler configuration. */
export function attemptTimeoutMs(service: AwsService): number {
  const config = clients[service].config.requestHandler.httpHandlerConfigs?.() ?? {};
  const candidates = [
    config.throwOnRequestTimeout === true ? config.requestTimeout : undefined,
    config.socketTimeout,
    config.defaultSocketTimeout,
  ];
  const timeouts = candidates.filter((value): value is number => typeof value === 'number' && value > 0);
  return timeouts.length > 0 ? Math.min(...timeouts) : Number.POSITIVE_INFINITY;
}
