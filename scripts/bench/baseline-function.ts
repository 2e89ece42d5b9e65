import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';

/** The cold-start baseline: the least any function of the service loads, a document client. */
export const db = DynamoDBDocumentClient.from(new DynamoDBClient({}));

export async function handler(): Promise<void> {}
