import {
  CreateTableCommand,
  DescribeTableCommand,
  type DynamoDBClient,
  type GlobalSecondaryIndex,
  UpdateTableCommand,
  UpdateTimeToLiveCommand,
  waitUntilTableExists,
} from '@aws-sdk/client-dynamodb';
import { GSI1, GSI2, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/platform/table/table-definition';

/** The table's indexes as the CDK stack defines them (infra/service-table.ts). */
const INDEXES: GlobalSecondaryIndex[] = [
  {
    IndexName: GSI1.indexName,
    KeySchema: [
      { AttributeName: GSI1.partitionKey, KeyType: 'HASH' },
      { AttributeName: GSI1.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'ALL' },
  },
  {
    IndexName: GSI2.indexName,
    KeySchema: [
      { AttributeName: GSI2.partitionKey, KeyType: 'HASH' },
      { AttributeName: GSI2.sortKey, KeyType: 'RANGE' },
    ],
    Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...GSI2.projectedAttributes] },
  },
];

const KEY_ATTRIBUTES = [
  TABLE_KEYS.partitionKey,
  TABLE_KEYS.sortKey,
  GSI1.partitionKey,
  GSI1.sortKey,
  GSI2.partitionKey,
  GSI2.sortKey,
].map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));

/**
 * Creates the single table (keys, GSI1, GSI2, TTL, a stream of new images) as the CDK stack
 * defines it. When it exists (a data folder of an earlier `npm start`), adds any index it lacks,
 * as a deployment does; persons stored before GSI2 then need `npm run admin -- backfill indexes`.
 * `stream: false` leaves the stream out: DynamoDB Local records every
 * change of a streamed table, which slows heavy concurrent tests that dispatch no events.
 */
export async function createTable(
  client: DynamoDBClient,
  tableName: string,
  options: { stream?: boolean } = {},
): Promise<void> {
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: KEY_ATTRIBUTES,
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: INDEXES,
        // The event dispatcher reads it (scripts/local/change-stream.ts), as Lambda reads the deployed table's.
        ...(options.stream === false
          ? {}
          : { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ResourceInUseException') return addMissingIndexes(client, tableName);
    throw error;
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
}

/** Adds the indexes an existing table lacks, one update each (as DynamoDB allows). */
async function addMissingIndexes(client: DynamoDBClient, tableName: string): Promise<void> {
  await waitUntilTableExists({ client, maxWaitTime: 60 }, { TableName: tableName });
  const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
  const existing = new Set((Table?.GlobalSecondaryIndexes ?? []).map((index) => index.IndexName));
  for (const index of INDEXES.filter((wanted) => !existing.has(wanted.IndexName))) {
    await client.send(
      new UpdateTableCommand({
        TableName: tableName,
        AttributeDefinitions: KEY_ATTRIBUTES.filter((attribute) =>
          index.KeySchema!.some((key) => key.AttributeName === attribute.AttributeName),
        ),
        GlobalSecondaryIndexUpdates: [{ Create: index }],
      }),
    );
  }
}
