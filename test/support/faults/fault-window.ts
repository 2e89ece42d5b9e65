/**
 * Running a request under faults: the faults are switched on, the request runs, and what the
 * clients did meanwhile (a "window": sends, attempts, backoff, skipped waits, Stripe calls) is
 * handed back with its outcome. The faults are switched off again whatever happens.
 */
import { type AwsFault, type AwsService, type SendRecord, lab } from './fault-lab';
import type { Outcome } from './requests';
import { refillRetryQuotas } from './retry-observation';
import { type StripeCall, type StripeMode, flushDeliveries, stripeLab } from './stripe-fault-proxy';

export interface Faults {
  aws?: AwsFault;
  stripe?: StripeMode;
}

export interface Window {
  outcome: Outcome;
  wallMs: number;
  sends: SendRecord[];
  backoffCapsMs: { service: AwsService; capMs: number }[];
  skippedWaitsMs: { by: string; ms: number }[];
  maxInFlight: number;
  stripeCalls: StripeCall[];
}

/**
 * Runs `act` with the faults on and answers its window. Retry quotas start full unless
 * `keepRetryQuota` (a storm across requests); Stripe's deferred events are delivered afterwards.
 */
export async function underFaults(
  faults: Faults,
  act: () => Promise<Outcome>,
  options: { keepRetryQuota?: boolean } = {},
): Promise<Window> {
  if (!options.keepRetryQuota) refillRetryQuotas();
  Object.assign(lab, {
    recording: true,
    fault: faults.aws,
    sends: [],
    backoffCapsMs: [],
    skippedWaitsMs: [],
    inFlight: 0,
    maxInFlight: 0,
  });
  Object.assign(stripeLab, { recording: true, mode: faults.stripe ?? 'pass', calls: [], last: undefined });
  const started = Date.now();
  try {
    const outcome = await act();
    const wallMs = Date.now() - started;
    return {
      outcome,
      wallMs,
      sends: lab.sends,
      backoffCapsMs: lab.backoffCapsMs,
      skippedWaitsMs: lab.skippedWaitsMs,
      maxInFlight: lab.maxInFlight,
      stripeCalls: stripeLab.calls,
    };
  } finally {
    stopFaults();
    stripeLab.last = undefined;
    await flushDeliveries();
  }
}

/** Switches every fault off and stops recording. */
export function stopFaults(): void {
  Object.assign(lab, { recording: false, fault: undefined });
  Object.assign(stripeLab, { recording: false, mode: 'pass' });
}
