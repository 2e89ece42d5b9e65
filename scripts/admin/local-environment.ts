import { existsSync, readFileSync } from 'node:fs';
import { LOCAL_WEBHOOK_SEALING_KEY } from '../local/local-secrets';

/** What `npm start` writes to .local/local-api.json that the admin CLI needs. */
interface LocalApiInfo {
  tableName?: unknown;
  dynamoDbEndpoint?: unknown;
  mediaBucket?: unknown;
  s3Endpoint?: unknown;
}

/**
 * When TABLE_NAME is not set and `npm start` has written its info file, points the CLI at
 * that local table and bucket: TABLE_NAME, DYNAMODB_ENDPOINT, MEDIA_BUCKET, S3_ENDPOINT, a region and the placeholder credentials
 * DynamoDB Local accepts, the local stack's webhook sealing key and LOCAL_STACK. Values already set are kept. Returns a note for standard error
 * when the defaults were applied, undefined otherwise.
 */
export function applyLocalApiDefaults(env: NodeJS.ProcessEnv, infoFile: string): string | undefined {
  if (env.TABLE_NAME || !existsSync(infoFile)) return undefined;
  let info: LocalApiInfo;
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8')) as LocalApiInfo;
  } catch {
    return `Ignoring ${infoFile}: it is not valid JSON`;
  }
  if (typeof info.tableName !== 'string' || typeof info.dynamoDbEndpoint !== 'string') {
    return `Ignoring ${infoFile}: it has no tableName and dynamoDbEndpoint`;
  }
  env.TABLE_NAME = info.tableName;
  env.DYNAMODB_ENDPOINT ||= info.dynamoDbEndpoint;
  if (typeof info.mediaBucket === 'string') env.MEDIA_BUCKET ||= info.mediaBucket;
  if (typeof info.s3Endpoint === 'string') env.S3_ENDPOINT ||= info.s3Endpoint;
  env.AWS_REGION ||= 'eu-central-1';
  env.AWS_ACCESS_KEY_ID ||= 'S3RVER'; // the local S3 server's fixed credentials; DynamoDB Local takes any
  env.AWS_SECRET_ACCESS_KEY ||= 'S3RVER';
  // Webhook subscriptions of the local stack: its sealing key, and http://localhost allowed.
  env.WEBHOOK_SEALING_KEY ||= LOCAL_WEBHOOK_SEALING_KEY;
  env.LOCAL_STACK ||= 'true';
  return `Using the local table "${env.TABLE_NAME}" at ${env.DYNAMODB_ENDPOINT} (from ${infoFile})`;
}
