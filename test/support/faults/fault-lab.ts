/**
 * What the harness records while a request runs under faults (the AWS SDK's sends and attempts,
 * the backoff it computed, the waits that were skipped, how many calls were in flight) and the
 * fault it injects into the AWS clients. One record at a time: underFaults() resets it.
 */

export type AwsService = 'DynamoDB' | 'S3';

export interface SendRecord {
  service: AwsService;
  command: string;
  /** The command's input as JSON (for S3 only bucket and key). */
  input: string;
  attempts: number;
  failedWith?: string;
}

export interface AttemptInfo {
  service: AwsService;
  command: string;
  input: string;
  /** Index of the send among those of the current window, from 0. */
  sendIndex: number;
  /** 1 for the first attempt of a send. */
  attempt: number;
}

export type AwsFaultAction = { before: () => Error } | { after: () => Error } | { blackHole: true } | undefined;
export type AwsFault = (attempt: AttemptInfo) => AwsFaultAction;

export const lab = {
  recording: false,
  fault: undefined as AwsFault | undefined,
  sends: [] as SendRecord[],
  backoffCapsMs: [] as { service: AwsService; capMs: number }[],
  /** Waits of the application's retries (lib/platform/table/retry.ts) and of the Stripe SDK's, observed and skipped. */
  skippedWaitsMs: [] as { by: 'withStoreRetries' | 'Stripe SDK'; ms: number }[],
  inFlight: 0,
  maxInFlight: 0,
  /** Partition keys of access-code and checkout-token items that requests tried to write (this test). */
  written: new Set<string>(),
};

let faultCounter = 0;

/** A number for the request id of an injected failure, unique in the test file. */
export function nextFaultNumber(): number {
  faultCounter += 1;
  return faultCounter;
}
