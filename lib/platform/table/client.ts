import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { optionalEnv, requireEnv } from '#lib/platform/config';

/** The single table's name. */
export const tableName = requireEnv('TABLE_NAME');

/**
 * How the service's DynamoDB clients are configured; the load bench's replay uses the same, so
 * that it measures the same SDK work.
 */
export const DYNAMODB_CLIENT_CONFIG = {
  endpoint: optionalEnv('DYNAMODB_ENDPOINT'),
  maxAttempts: 4,
  // A call whose connection stays silent for 5 s is cut off and retried: 4 attempts stay within
  // the 29 s function timeout. Idle time, not total time, so a request queued for a socket
  // under load is not cut off.
  requestHandler: { socketTimeout: 5000 },
} as const;

export const DOCUMENT_TRANSLATION = { marshallOptions: { removeUndefinedValues: true } } as const;

/**
 * One document client per process, reused across invocations. DYNAMODB_ENDPOINT points it
 * at DynamoDB Local; without it the SDK's regional endpoint is used.
 */
export const db = DynamoDBDocumentClient.from(new DynamoDBClient(DYNAMODB_CLIENT_CONFIG), DOCUMENT_TRANSLATION);
