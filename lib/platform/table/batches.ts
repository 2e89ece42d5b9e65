import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { waitBeforeRetry } from '#lib/platform/backoff';
import { withStoreRetries } from '#lib/platform/table/retry';
import type { StoredItem } from '#lib/platform/table/item-schema';

/** How long to wait before sending again what a batch left unprocessed (DynamoDB's advice: back off). */
const UNPROCESSED_BACKOFF = { baseDelayMs: 50, maxDelayMs: 1000 };

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25;

/** Deletes items by key in batches, resending what DynamoDB leaves unprocessed. */
export async function deleteItems(itemKeys: readonly { pk: string; sk: string }[]): Promise<void> {
  for (let start = 0; start < itemKeys.length; start += BATCH_SIZE) {
    let requests = itemKeys
      .slice(start, start + BATCH_SIZE)
      .map((Key) => ({ DeleteRequest: { Key: { pk: Key.pk, sk: Key.sk } } }));
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 0) await waitBeforeRetry(attempt, UNPROCESSED_BACKOFF);
      if (attempt > 8) throw new Error('DynamoDB kept deletes unprocessed');
      const result = await withStoreRetries(() =>
        db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } })),
      );
      requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
    }
  }
}

/** BatchGetItem takes at most 100 keys. */
const GET_BATCH_SIZE = 100;

/**
 * The items at `itemKeys` (eventually consistent), in batches of 100, asking again for what
 * DynamoDB leaves unprocessed; keys that hold nothing give nothing, and the order is DynamoDB's.
 */
export async function getItems(itemKeys: readonly { pk: string; sk: string }[]): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  for (let start = 0; start < itemKeys.length; start += GET_BATCH_SIZE) {
    let requested: Record<string, unknown>[] = itemKeys
      .slice(start, start + GET_BATCH_SIZE)
      .map(({ pk, sk }) => ({ pk, sk }));
    for (let attempt = 0; requested.length > 0; attempt += 1) {
      if (attempt > 0) await waitBeforeRetry(attempt, UNPROCESSED_BACKOFF);
      if (attempt > 8) throw new Error('DynamoDB kept reads unprocessed');
      const result = await withStoreRetries(() =>
        db.send(new BatchGetCommand({ RequestItems: { [tableName]: { Keys: requested } } })),
      );
      items.push(...(result.Responses?.[tableName] ?? []));
      requested = result.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return items;
}
