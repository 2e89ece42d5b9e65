import { QueryCommand, type QueryCommandInput } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import type { StoredItem } from '#lib/platform/table/item-schema';

/** What is done with one page of a paged read, before the next page is read. */
export type PageVisitor<T> = (page: T[]) => Promise<void> | void;

/**
 * Every item of a Query, `pageSize` (the Query's Limit) at a time: each page is handed to `visit`
 * and let go before the next is read, so that a large item collection never sits in memory whole.
 * `visit` may delete or change the items it was given: the next page starts after the last key read.
 */
export async function forEachQueryPage(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey' | 'Limit'>,
  pageSize: number,
  visit: PageVisitor<StoredItem>,
): Promise<void> {
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(
      new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: startKey, Limit: pageSize }),
    );
    if ((page.Items ?? []).length > 0) await visit(page.Items ?? []);
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/** Every item of a partition of the table, `pageSize` at a time (forEachQueryPage). */
export function forEachPartitionPage(
  pk: string,
  pageSize: number,
  visit: PageVisitor<StoredItem>,
  narrowing: Pick<QueryCommandInput, 'ProjectionExpression' | 'ExpressionAttributeNames' | 'ConsistentRead'> & {
    skPrefix?: string;
  } = {},
): Promise<void> {
  const { skPrefix, ...projection } = narrowing;
  return forEachQueryPage(
    {
      ...projection,
      KeyConditionExpression: skPrefix === undefined ? 'pk = :pk' : 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ...(skPrefix === undefined ? {} : { ':prefix': skPrefix }) },
    },
    pageSize,
    visit,
  );
}
