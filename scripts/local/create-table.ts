import { CreateTableCommand, type DynamoDBClient, UpdateTimeToLiveCommand } from '@aws-sdk/client-dynamodb';
import { GSI1, TABLE_KEYS, TTL_ATTRIBUTE } from '#lib/platform/table/table-definition';

/**
 * Creates the single table (keys, GSI1, TTL, a stream of new images) as the CDK stack defines
 * it; no-op when it exists. `stream: false` leaves the stream out: DynamoDB Local records every
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
        AttributeDefinitions: [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, GSI1.partitionKey, GSI1.sortKey].map(
          (name) => ({ AttributeName: name, AttributeType: 'S' }),
        ),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: [
          {
            IndexName: GSI1.indexName,
            KeySchema: [
              { AttributeName: GSI1.partitionKey, KeyType: 'HASH' },
              { AttributeName: GSI1.sortKey, KeyType: 'RANGE' },
            ],
            Projection: { ProjectionType: 'ALL' },
          },
        ],
        // The event dispatcher reads it (scripts/local/change-stream.ts), as Lambda reads the deployed table's.
        ...(options.stream === false
          ? {}
          : { StreamSpecification: { StreamEnabled: true, StreamViewType: 'NEW_IMAGE' } }),
      }),
    );
  } catch (error) {
    if ((error as Error).name === 'ResourceInUseException') return;
    throw error;
  }
  await client.send(
    new UpdateTimeToLiveCommand({
      TableName: tableName,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
    }),
  );
}
