import { startDynamoDbLocal } from '../../scripts/local/dynamodb-local';

/** One DynamoDB Local for the whole run; test files isolate themselves with a table each. */
export default async function globalSetup(): Promise<void> {
  process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
  const dynamoDb = await startDynamoDbLocal();
  process.env.DYNAMODB_ENDPOINT = dynamoDb.endpoint;
  (globalThis as { __dynamoDbLocal__?: typeof dynamoDb }).__dynamoDbLocal__ = dynamoDb;
}
