import { generateKeyPairSync } from 'node:crypto';
import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local';
import { startS3Local } from '../../scripts/local/s3-local';

export const TEST_MEDIA_BUCKET = 'groupshoot-test-media';

/**
 * One DynamoDB Local and one local S3 server for the whole run (test files isolate
 * themselves with a table each and with their own tenants), and a CloudFront-style key pair.
 */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const [dynamoDb, s3] = await Promise.all([startDynamoDbLocal(), startS3Local({ buckets: [TEST_MEDIA_BUCKET] })]);
  process.env.DYNAMODB_ENDPOINT = dynamoDb.endpoint;
  process.env.S3_ENDPOINT = s3.endpoint;
  process.env.MEDIA_BUCKET = TEST_MEDIA_BUCKET;
  const { publicKey, privateKey } = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  process.env.CLOUDFRONT_KEY_PAIR_ID = 'KTESTKEYPAIR';
  process.env.CLOUDFRONT_PRIVATE_KEY = privateKey;
  process.env.TEST_CLOUDFRONT_PUBLIC_KEY = publicKey;
  (globalThis as { __localServices__?: unknown }).__localServices__ = [dynamoDb, s3];
}
