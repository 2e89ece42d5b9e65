/**
 * What a DynamoDB error means, for the stores: the one place that reads the SDK's error names
 * (the architecture test holds this). Retries of transient errors are in retry.ts.
 */

/** A single write's ConditionExpression failed. */
export function isConditionFailure(error: unknown): boolean {
  return (error as Error | undefined)?.name === 'ConditionalCheckFailedException';
}

/** A transaction was cancelled: a condition failed, or it conflicted with another (cancellationCodes tells which). */
export function isCancelledTransaction(error: unknown): boolean {
  return (error as Error | undefined)?.name === 'TransactionCanceledException';
}

/** The table does not exist (a CLI pointed at the wrong table or endpoint). */
export function isMissingTable(error: unknown): boolean {
  return (error as Error | undefined)?.name === 'ResourceNotFoundException';
}
