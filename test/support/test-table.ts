import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTable } from '../../scripts/local/create-table';

/** Creates this test file's table (its name was set by test-environment.ts) before its tests. */
export function useTestTable(): void {
  beforeAll(async () => {
    const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    await createTable(client, process.env.TABLE_NAME!);
    client.destroy();
  });
}
