import { type OperationClass, WRITE_UNIT_BYTES } from './assumptions';

/** A table's key attribute names: the partition key first, then the sort key if any. */
export type KeySchema = readonly string[];

type AttributeMap = Record<string, unknown>;

/** One item a request touches, at its place in the request. */
export interface TouchedItem {
  /** Its place: the action's index in a transaction, else 0 (in a batch, the table and index within it). */
  index: number;
  table: string;
  itemId: string;
  partitionId: string;
  /** The write capacity units it costs (0 for reads and condition checks). */
  writeUnits: number;
  /** For a batch: where the request sits, to hand it back unprocessed. */
  batchPlace?: { table: string; position: number };
}

export interface RequestShape {
  operationClass: OperationClass;
  /** How the operation meets ongoing ones (assumptions.ts). */
  conflictRule: 'none' | 'plainWrite' | 'transactWrite' | 'transactGet' | 'batchWrite';
  items: TouchedItem[];
}

const READS = new Set([
  'GetItem',
  'Query',
  'Scan',
  'BatchGetItem',
  'DescribeTable',
  'ListTables',
  'DescribeTimeToLive',
  'DescribeStream',
  'GetRecords',
  'GetShardIterator',
  'ListStreams',
]);

/** The tables whose key schema the request's items need. */
export function tablesOf(operation: string, body: any): string[] {
  switch (operation) {
    case 'PutItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [body.TableName];
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return [
        ...new Set<string>(
          (body.TransactItems ?? []).map(
            (action: any) => (Object.values(action)[0] as { TableName: string }).TableName,
          ),
        ),
      ];
    case 'BatchWriteItem':
      return Object.keys(body.RequestItems ?? {});
    default:
      return [];
  }
}

/** What a DynamoDB request (its X-Amz-Target operation and JSON body) touches, given each table's key schema. */
export function shapeOf(operation: string, body: any, keySchemas: ReadonlyMap<string, KeySchema>): RequestShape {
  const item = (index: number, table: string, keyOrItem: AttributeMap, writeUnits: number): TouchedItem => {
    const schema = keySchemas.get(table) ?? [];
    const keyValues = schema.map((name) => JSON.stringify(keyOrItem[name]));
    return {
      index,
      table,
      itemId: `${table}|${keyValues.join('|')}`,
      partitionId: `${table}|${keyValues[0]}`,
      writeUnits,
    };
  };
  switch (operation) {
    case 'PutItem':
      return {
        operationClass: 'write',
        conflictRule: 'plainWrite',
        items: [item(0, body.TableName, body.Item, unitsOf(body.Item))],
      };
    case 'UpdateItem':
      return {
        operationClass: 'write',
        conflictRule: 'plainWrite',
        items: [item(0, body.TableName, body.Key, unitsOf(body.Key, body.ExpressionAttributeValues))],
      };
    case 'DeleteItem':
      return { operationClass: 'write', conflictRule: 'plainWrite', items: [item(0, body.TableName, body.Key, 1)] };
    case 'TransactWriteItems':
      return {
        operationClass: 'transaction',
        conflictRule: 'transactWrite',
        items: (body.TransactItems ?? []).map((action: any, index: number) => {
          if (action.Put) return item(index, action.Put.TableName, action.Put.Item, 2 * unitsOf(action.Put.Item));
          if (action.Update)
            return item(
              index,
              action.Update.TableName,
              action.Update.Key,
              2 * unitsOf(action.Update.Key, action.Update.ExpressionAttributeValues),
            );
          if (action.Delete) return item(index, action.Delete.TableName, action.Delete.Key, 2);
          return item(index, action.ConditionCheck.TableName, action.ConditionCheck.Key, 0);
        }),
      };
    case 'TransactGetItems':
      return {
        operationClass: 'transaction',
        conflictRule: 'transactGet',
        items: (body.TransactItems ?? []).map((action: any, index: number) =>
          item(index, action.Get.TableName, action.Get.Key, 0),
        ),
      };
    case 'BatchWriteItem':
      return {
        operationClass: 'batch',
        conflictRule: 'batchWrite',
        items: Object.entries(body.RequestItems ?? {}).flatMap(([table, requests]) =>
          (requests as any[]).map((request, position) => ({
            ...(request.PutRequest
              ? item(position, table, request.PutRequest.Item, unitsOf(request.PutRequest.Item))
              : item(position, table, request.DeleteRequest.Key, 1)),
            batchPlace: { table, position },
          })),
        ),
      };
    default:
      return { operationClass: READS.has(operation) ? 'read' : 'write', conflictRule: 'none', items: [] };
  }
}

/** Write units of an item estimated from the attribute values a request carries: one per started KiB. */
function unitsOf(...parts: (AttributeMap | undefined)[]): number {
  const bytes = parts.reduce((sum, part) => sum + (part ? Buffer.byteLength(JSON.stringify(part)) : 0), 0);
  return Math.max(1, Math.ceil(bytes / WRITE_UNIT_BYTES));
}
