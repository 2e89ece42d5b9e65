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

/**
 * An item read from the table does not have the shape its entity stores (lib/platform/table/item-schema.ts
 * checks it): a bug or a hand edit, never a request's fault, so it reaches the edge as 500
 * internal_error. Its message names the entity and the attribute, never a value; the logger
 * keeps its name, `code` and `type` (the entity).
 */
export class CorruptItemError extends Error {
  override readonly name = 'CorruptItemError';
  readonly code = 'corrupt_item';
  /** The entity whose item was read, as the logger keeps an identifier: `gallery`, `api_key`. */
  readonly type: string;
  /** Where in the item the first wrong value is (`granularConsents.face`), or `item` for the item itself. */
  readonly attribute: string;

  constructor(entity: string, attribute: string, expected: string | null) {
    super(`Corrupt ${entity} item read from the table, at ${attribute}${expected ? `: expected ${expected}` : ''}`);
    this.type = entity.replaceAll(' ', '_');
    this.attribute = attribute;
  }
}
