import { unmarshall } from '@aws-sdk/util-dynamodb';
import { retryWithBackoff } from '#lib/platform/backoff';
import type { StoredItem } from '#lib/platform/table/item-schema';

/**
 * Bounded retries with exponential backoff and full jitter for DynamoDB's transient
 * failures: throttling, transaction conflicts, internal errors and timeouts.
 */
const TRANSIENT_ERRORS = new Set([
  'ThrottlingException',
  'ProvisionedThroughputExceededException',
  'RequestLimitExceeded',
  'TransactionConflictException',
  'TransactionInProgressException',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
]);

/** Cancellation reasons that say "try again", as opposed to a failed condition. */
const TRANSIENT_CANCELLATION_CODES = new Set([
  'None',
  'ThrottlingError',
  'TransactionConflict',
  'ProvisionedThroughputExceeded',
]);

export function cancellationCodes(error: unknown): string[] {
  const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons ?? [];
  return reasons.map((reason) => reason.Code ?? 'None');
}

/** The item a cancelled action returned (ReturnValuesOnConditionCheckFailure: ALL_OLD), as stored. */
export function cancellationItem(error: unknown, index: number): Record<string, unknown> | undefined {
  const reasons = (error as { CancellationReasons?: { Item?: Record<string, unknown> }[] }).CancellationReasons ?? [];
  return reasons[index]?.Item;
}

/**
 * The item a failed ConditionExpression returned (ReturnValuesOnConditionCheckFailure: ALL_OLD),
 * as plain values: the document client leaves it in DynamoDB's attribute-value format.
 */
export function itemOfFailedCondition(error: unknown): StoredItem | undefined {
  const item = (error as { Item?: Parameters<typeof unmarshall>[0] }).Item;
  return item ? unmarshall(item) : undefined;
}

export function isTransientStoreError(error: unknown): boolean {
  const name = (error as Error)?.name ?? '';
  if (TRANSIENT_ERRORS.has(name)) return true;
  if (name === 'TransactionCanceledException') {
    const codes = cancellationCodes(error);
    return (
      codes.length > 0 &&
      codes.every((code) => TRANSIENT_CANCELLATION_CODES.has(code)) &&
      codes.some((code) => code !== 'None')
    );
  }
  return (error as { $retryable?: unknown })?.$retryable !== undefined;
}

/**
 * The SDK retries throttling and timeouts itself (maxAttempts, with its own backoff); sending
 * such a call again would multiply its attempts past the function's timeout. What the SDK does
 * not retry, cancelled transactions and conflicts, is retried here.
 */
function retriedBySdk(error: unknown): boolean {
  return ((error as { $metadata?: { attempts?: number } }).$metadata?.attempts ?? 1) > 1;
}

export interface RetryOptions {
  attempts?: number;
  baseDelayMs?: number;
  maxDelayMs?: number;
  /** Transient failures handed to the caller at once instead of retried (the caller has a better move). */
  passOn?: (error: unknown) => boolean;
}

/** A store operation, sent again (with the kernel's backoff) while it fails transiently and the SDK did not retry it itself. */
export function withStoreRetries<T>(operation: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  return retryWithBackoff(
    operation,
    (error) => isTransientStoreError(error) && !retriedBySdk(error) && !options.passOn?.(error),
    {
      attempts: options.attempts ?? 6,
      baseDelayMs: options.baseDelayMs ?? 25,
      maxDelayMs: options.maxDelayMs ?? 1000,
    },
  );
}
