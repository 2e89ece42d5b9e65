import { QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { GSI1 } from '#lib/platform/table/table-definition';
import { isConditionFailure } from '#lib/platform/table/store-errors';

type Item = Record<string, any>;

/** Every item of a Query, following LastEvaluatedKey. For small, bounded item collections only. */
export async function queryAll(input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>): Promise<Item[]> {
  const items: Item[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every item of a partition of the table. */
export function queryPartition(pk: string): Promise<Item[]> {
  return queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
}

/** Every item of a GSI1 partition, optionally narrowed to one sort key. */
export function queryGsi1(partition: string, sortKey?: string): Promise<Item[]> {
  return queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: sortKey === undefined ? '#pk = :pk' : '#pk = :pk AND #sk = :sk',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(sortKey === undefined ? {} : { '#sk': GSI1.sortKey }) },
    ExpressionAttributeValues: { ':pk': partition, ...(sortKey === undefined ? {} : { ':sk': sortKey }) },
  });
}

/** A page of a GSI1 partition and the key to continue after it (none on its last page). */
export interface Gsi1Page {
  items: Item[];
  nextKey?: Record<string, unknown>;
}

/** Up to `limit` items of a GSI1 partition, after `startKey`: for collections too large to read in one go. */
export async function queryGsi1Page(
  partition: string,
  startKey: Record<string, unknown> | undefined,
  limit: number,
): Promise<Gsi1Page> {
  const page = await db.send(
    new QueryCommand({
      TableName: tableName,
      IndexName: GSI1.indexName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': GSI1.partitionKey },
      ExpressionAttributeValues: { ':pk': partition },
      ExclusiveStartKey: startKey,
      Limit: limit,
    }),
  );
  return { items: page.Items ?? [], nextKey: page.LastEvaluatedKey };
}

/**
 * Sets attributes of an existing item; false when the item does not exist. Attribute names
 * come from typed settings objects of this code base and are passed as placeholders.
 */
export async function updateExistingItem(
  key: { pk: string; sk: string },
  attributes: Record<string, unknown>,
): Promise<boolean> {
  if (Object.values(attributes).every((value) => value === undefined)) return true;
  try {
    await db.send(new UpdateCommand(existingItemUpdate(key, attributes)));
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** The update of updateExistingItem as a transaction's `Update`: sets the defined attributes, on condition that the item exists. */
export function existingItemUpdate(key: { pk: string; sk: string }, attributes: Record<string, unknown>) {
  const entries = Object.entries(attributes).filter(([, value]) => value !== undefined);
  return {
    TableName: tableName,
    Key: key,
    ConditionExpression: 'attribute_exists(pk)',
    UpdateExpression: `SET ${entries.map((_, index) => `#f${index} = :v${index}`).join(', ')}`,
    ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#f${index}`, name])),
    ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:v${index}`, value])),
  };
}
