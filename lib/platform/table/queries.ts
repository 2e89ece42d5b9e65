import { QueryCommand, type QueryCommandInput, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { GSI1 } from '#lib/platform/table/table-definition';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import type { StoredItem } from '#lib/platform/table/item-schema';

/** Every item of a Query, following LastEvaluatedKey. For small, bounded item collections only. */
export async function queryAll(
  input: Omit<QueryCommandInput, 'TableName' | 'ExclusiveStartKey'>,
): Promise<StoredItem[]> {
  const items: StoredItem[] = [];
  let startKey: Record<string, unknown> | undefined;
  do {
    const page = await db.send(new QueryCommand({ ...input, TableName: tableName, ExclusiveStartKey: startKey }));
    items.push(...(page.Items ?? []));
    startKey = page.LastEvaluatedKey;
  } while (startKey);
  return items;
}

/** Every item of a partition of the table. */
export function queryPartition(pk: string): Promise<StoredItem[]> {
  return queryAll({ KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': pk } });
}

/** Every item of a GSI1 partition, optionally narrowed to one sort key. */
export function queryGsi1(partition: string, sortKey?: string): Promise<StoredItem[]> {
  return queryAll({
    IndexName: GSI1.indexName,
    KeyConditionExpression: sortKey === undefined ? '#pk = :pk' : '#pk = :pk AND #sk = :sk',
    ExpressionAttributeNames: { '#pk': GSI1.partitionKey, ...(sortKey === undefined ? {} : { '#sk': GSI1.sortKey }) },
    ExpressionAttributeValues: { ':pk': partition, ...(sortKey === undefined ? {} : { ':sk': sortKey }) },
  });
}

/** A page of a GSI1 partition and the key to continue after it (none on its last page). */
export interface Gsi1Page {
  items: StoredItem[];
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

/** The `SET` clause of an update, with the names and values its placeholders stand for. */
export interface SetClause {
  expression: string;
  names: Record<string, string>;
  values: Record<string, unknown>;
}

/**
 * `SET #a0 = :a0, ...` for the defined attributes of a typed object (a settings type, an item's
 * attributes): every name and value goes through a placeholder, never into the expression.
 * Empty (`expression` '') when no attribute is defined.
 */
export function setClause<TAttributes extends object>(
  attributes: TAttributes,
  placeholders: { name: string; value: string } = { name: '#a', value: ':a' },
): SetClause {
  const entries = Object.entries(attributes).filter(([, value]) => value !== undefined);
  return {
    expression:
      entries.length === 0
        ? ''
        : `SET ${entries.map((_, index) => `${placeholders.name}${index} = ${placeholders.value}${index}`).join(', ')}`,
    names: Object.fromEntries(entries.map(([name], index) => [`${placeholders.name}${index}`, name])),
    values: Object.fromEntries(entries.map(([, value], index) => [`${placeholders.value}${index}`, value])),
  };
}

/**
 * Sets attributes of an existing item; false when the item does not exist. `attributes` is a
 * typed settings object of the entity (its undefined members are left alone).
 */
export async function updateExistingItem<TAttributes extends object>(
  key: { pk: string; sk: string },
  attributes: TAttributes,
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
export function existingItemUpdate<TAttributes extends object>(
  key: { pk: string; sk: string },
  attributes: TAttributes,
) {
  const set = setClause(attributes, { name: '#f', value: ':v' });
  return {
    TableName: tableName,
    Key: key,
    ConditionExpression: 'attribute_exists(pk)',
    UpdateExpression: set.expression,
    ExpressionAttributeNames: set.names,
    ExpressionAttributeValues: set.values,
  };
}
