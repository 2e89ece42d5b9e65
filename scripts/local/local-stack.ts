import { mkdirSync } from 'node:fs';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import type { S3Event } from 'aws-lambda';
import { join } from 'node:path';
import { createTable } from './create-table';
import { type RunningDynamoDb, startDynamoDbLocal } from './dynamodb-local';
import { LOCAL_PHOTO_LINK_KEY, LOCAL_WEBHOOK_SEALING_KEY } from './local-secrets';
import { type RunningS3, startS3Local } from './s3-local';

export const LOCAL_TABLE_NAME = 'groupshoot-local';
export const LOCAL_MEDIA_BUCKET = 'groupshoot-local-media';
export const LOCAL_PHOTO_NOTICE_FROM = 'photos@groupshoot.example';

export interface LocalServices {
  dynamoDb: RunningDynamoDb;
  s3: RunningS3;
  stop(): Promise<void>;
}

/**
 * Environment of the functions when they run locally. Values already set win, so a
 * developer can point the local API at another table or endpoint. LOCAL_STACK marks this
 * process as the local stack (lib/payments/payment-settings.ts: return URLs on localhost).
 */
export function applyLocalEnvironment(endpoints: { dynamoDb: string; s3: string }): void {
  const defaults: Record<string, string> = {
    TABLE_NAME: LOCAL_TABLE_NAME,
    MEDIA_BUCKET: LOCAL_MEDIA_BUCKET,
    DYNAMODB_ENDPOINT: endpoints.dynamoDb,
    S3_ENDPOINT: endpoints.s3,
    AWS_REGION: 'eu-central-1',
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    POWERTOOLS_SERVICE_NAME: 'groupshoot-api',
    LOCAL_STACK: 'true',
    WEBHOOK_SEALING_KEY: LOCAL_WEBHOOK_SEALING_KEY,
    PHOTO_LINK_KEY: LOCAL_PHOTO_LINK_KEY,
    // The sender of photo-ready emails; the local SES (scripts/local/ses-local.ts) takes any address.
    PHOTO_NOTICE_FROM: LOCAL_PHOTO_NOTICE_FROM,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  };
  for (const [name, value] of Object.entries(defaults)) {
    if (!process.env[name]) process.env[name] = value;
  }
}

/**
 * DynamoDB Local and the local S3 server, with the table created. In memory unless
 * `dataDir` is given, in which case both persist under it.
 */
export async function startLocalServices(
  options: { dataDir?: string; onS3Event?: (event: S3Event) => void } = {},
): Promise<LocalServices> {
  const persist = options.dataDir !== undefined;
  if (persist) mkdirSync(join(options.dataDir!, 's3'), { recursive: true });
  const dynamoDb = await startDynamoDbLocal({ dataDir: options.dataDir });
  let s3: RunningS3;
  try {
    s3 = await startS3Local({
      buckets: [LOCAL_MEDIA_BUCKET],
      directory: persist ? join(options.dataDir!, 's3') : undefined,
      onEvent: options.onS3Event,
    });
  } catch (error) {
    await dynamoDb.stop();
    throw error;
  }
  applyLocalEnvironment({ dynamoDb: dynamoDb.endpoint, s3: s3.endpoint });
  const client = new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT });
  await createTable(client, process.env.TABLE_NAME!);
  client.destroy();
  return {
    dynamoDb,
    s3,
    stop: async () => {
      await Promise.allSettled([s3.stop(), dynamoDb.stop()]);
    },
  };
}
