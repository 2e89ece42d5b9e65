import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv, requireEnv } from '#lib/config';

/** The single table's name. */
export const tableName = requireEnv('TABLE_NAME');

/**
 * One document client per process, reused across invocations. DYNAMODB_ENDPOINT points it
 * at DynamoDB Local; without it the SDK's regional endpoint is used.
 */
export const db = DynamoDBDocumentClient.from(
  new DynamoDBClient({ endpoint: optionalEnv('DYNAMODB_ENDPOINT'), maxAttempts: 4 }),
  { marshallOptions: { removeUndefinedValues: true } },
);
