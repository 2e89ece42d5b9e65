import { randomBytes } from 'node:crypto';

// Runs in every test file before its modules load: a table of its own, local credentials.
process.env.TABLE_NAME = `test-${randomBytes(6).toString('hex')}`;
process.env.AWS_REGION = 'eu-central-1';
process.env.AWS_ACCESS_KEY_ID = 'S3RVER'; // s3rver's fixed credentials; DynamoDB Local takes any
process.env.AWS_SECRET_ACCESS_KEY = 'S3RVER';
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';
process.env.WEBHOOK_SEALING_KEY = randomBytes(32).toString('hex');
process.env.PHOTO_LINK_KEY = randomBytes(32).toString('hex');
process.env.PUBLIC_API_URL = 'https://api.groupshoot.example/v1'; // the API's public address, as emails' unsubscribe links name it
