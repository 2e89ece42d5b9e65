import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { createTable } from '../../scripts/local/create-table';

/**
 * Creates this test file's table (its name was set by test-environment.ts) before its tests,
 * with the stream the event pipeline reads only where a file dispatches events.
 */
export function useTestTable(options: { stream?: boolean } = {}): void {
  beforeAll(async () => {
    const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
    await createTable(client, process.env.TABLE_NAME!, { stream: options.stream === true });
    client.destroy();
  });
}
