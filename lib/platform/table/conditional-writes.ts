import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import {
  type RetryOptions,
  cancellationCodes,
  cancellationItem,
  itemOfFailedCondition,
  withStoreRetries,
} from '#lib/platform/table/retry';
import { db } from '#lib/platform/table/client';
import type { StoredItem } from '#lib/platform/table/item-schema';
import { isCancelledTransaction, isConditionFailure } from '#lib/platform/table/store-errors';

export type TransactItem = NonNullable<ConstructorParameters<typeof TransactWriteCommand>[0]['TransactItems']>[number];

/** Contended transactions (a day's counter, an order) get more patience than the default. */
export const CONTENDED_RETRIES: RetryOptions = { attempts: 10, baseDelayMs: 20, maxDelayMs: 1000 };

/**
 * A transaction, retried. The SDK gives it an idempotency token that its own retries reuse, so
 * a retry after a lost answer is not applied twice.
 */
export async function transact(items: TransactItem[], retry: RetryOptions = CONTENDED_RETRIES): Promise<void> {
  await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })), retry);
}

/** A transaction whose conditions may fail, retried when transient: true when it was applied, false when a condition cancelled it. */
export async function transactIfConditionsHold(items: TransactItem[]): Promise<boolean> {
  try {
    await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })));
    return true;
  } catch (error) {
    if (!isCancelledTransaction(error)) throw error;
    return false;
  }
}

/** Whether a transaction was cancelled because the condition of its item `index` failed. */
export function conditionFailedAt(error: unknown, index: number): boolean {
  return isCancelledTransaction(error) && cancellationCodes(error)[index] === 'ConditionalCheckFailed';
}

/** Item `index` of a cancelled transaction as it was (ReturnValuesOnConditionCheckFailure: ALL_OLD), as plain values. */
export function itemAt(error: unknown, index: number): StoredItem | undefined {
  const item = cancellationItem(error, index);
  return item ? unmarshall(item as Parameters<typeof unmarshall>[0]) : undefined;
}

/**
 * A single conditional write whose condition may fail because this very write was applied
 * already (its answer was lost and the SDK sent it again): `ours` recognises that from the
 * item as it is. False when the condition failed for another reason.
 */
export async function conditionalWrite(
  send: () => Promise<unknown>,
  ours: (item: StoredItem | undefined) => boolean,
): Promise<boolean> {
  try {
    await withStoreRetries(send);
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    return ours(itemOfFailedCondition(error));
  }
}
