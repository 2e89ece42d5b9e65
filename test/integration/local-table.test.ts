import { CreateTableCommand, DescribeTableCommand, DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTable } from '../../scripts/local/create-table';
import { GSI1, GSI2, TABLE_KEYS } from '#lib/platform/table/table-definition';

/**
 * The local table as the stack makes it: a new one has every index, and one kept in a data folder
 * from before GSI2 gets it added, as a deployment adds it to the deployed table.
 */
describe('createTable (the local stack)', () => {
  const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  afterAll(() => client.destroy());

  const indexesOf = async (tableName: string) => {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    return (Table?.GlobalSecondaryIndexes ?? []).map((index) => ({
      name: index.IndexName,
      projection: index.Projection,
    }));
  };

  it('creates GSI1 (all attributes) and GSI2 (what an address look-up reads)', async () => {
    // Act
    const tableName = `${process.env.TABLE_NAME}-fresh`;
    await createTable(client, tableName, { stream: false });

    // Assess
    expect(await indexesOf(tableName)).toEqual(
      expect.arrayContaining([
        { name: GSI1.indexName, projection: { ProjectionType: 'ALL' } },
        {
          name: GSI2.indexName,
          projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: [...GSI2.projectedAttributes] },
        },
      ]),
    );
  });

  it('adds GSI2 to a table made before it, and leaves it alone the next time', async () => {
    // Prepare: the table as createTable made it before GSI2.
    const tableName = `${process.env.TABLE_NAME}-older`;
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
      }),
    );

    // Act
    await createTable(client, tableName);
    await createTable(client, tableName);

    // Assess
    expect((await indexesOf(tableName)).map((index) => index.name).sort()).toEqual([GSI1.indexName, GSI2.indexName]);
  });
});
