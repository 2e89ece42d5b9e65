import { BatchGetCommand, BatchWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { waitBeforeRetry } from '#lib/platform/backoff';
import { withStoreRetries } from '#lib/platform/table/retry';
import type { StoredItem } from '#lib/platform/table/item-schema';

/** How long to wait before sending again what a batch left unprocessed (DynamoDB's advice: back off). */
const UNPROCESSED_BACKOFF = { baseDelayMs: 50, maxDelayMs: 1000 };

/** BatchWriteItem takes at most 25 requests. */
const BATCH_SIZE = 25;

type WriteRequest = { DeleteRequest: { Key: { pk: string; sk: string } } } | { PutRequest: { Item: StoredItem } };

/** Sends write requests in batches, resending what DynamoDB leaves unprocessed. */
async function writeInBatches(writes: readonly WriteRequest[]): Promise<void> {
  for (let start = 0; start < writes.length; start += BATCH_SIZE) {
    let requests = writes.slice(start, start + BATCH_SIZE);
    for (let attempt = 0; requests.length > 0; attempt += 1) {
      if (attempt > 0) await waitBeforeRetry(attempt, UNPROCESSED_BACKOFF);
      if (attempt > 8) throw new Error('DynamoDB kept writes unprocessed');
      const result = await withStoreRetries(() =>
        db.send(new BatchWriteCommand({ RequestItems: { [tableName]: requests } })),
      );
      requests = (result.UnprocessedItems?.[tableName] ?? []) as typeof requests;
    }
  }
}

/** Deletes items by key in batches, resending what DynamoDB leaves unprocessed. */
export function deleteItems(itemKeys: readonly { pk: string; sk: string }[]): Promise<void> {
  return writeInBatches(itemKeys.map((Key) => ({ DeleteRequest: { Key: { pk: Key.pk, sk: Key.sk } } })));
}

/** Puts items (unconditionally: a batch takes no condition) in batches, resending what DynamoDB leaves unprocessed. */
export function putItems(items: readonly StoredItem[]): Promise<void> {
  return writeInBatches(items.map((Item) => ({ PutRequest: { Item } })));
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
