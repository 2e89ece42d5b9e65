/**
 * The environment of the CLIs that reach the table and the media bucket themselves (admin,
 * photos): taken from a running `npm start` unless TABLE_NAME is set, and checked per command,
 * so that each command asks only for what it uses.
 */
import { LOCAL_WEBHOOK_SEALING_KEY } from '../local/local-secrets';
import { UsageError } from './cli-errors';
import { type CliEnvironment, type ServerSearch, findLocalServer } from './local-servers';

/**
 * Unless TABLE_NAME is set, points `environment.env` at the table and bucket of the running
 * local server (findLocalServer: the one running from this folder, or the one `dataDir` names):
 * TABLE_NAME, DYNAMODB_ENDPOINT, MEDIA_BUCKET and S3_ENDPOINT, a region and the placeholder
 * credentials the local servers accept, the local stack's webhook sealing key and LOCAL_STACK.
 * Values already set are kept. Returns the note for standard error when it did, undefined when
 * the environment is left as it was. TABLE_NAME set together with `dataDir` is a UsageError:
 * one of them names a table the user does not mean, and a deployed one may be among them.
 */
export function useLocalTable(
  environment: CliEnvironment,
  dataDir?: string,
  isAlive?: ServerSearch['isAlive'],
): string | undefined {
  const { env } = environment;
  if (env.TABLE_NAME) {
    if (dataDir !== undefined) {
      throw new UsageError(
        `--data ${dataDir} names a local server, but TABLE_NAME is set ("${env.TABLE_NAME}"): unset TABLE_NAME to use the server, or leave out --data`,
      );
    }
    return undefined;
  }
  const server = findLocalServer({
    workingDirectory: environment.workingDirectory,
    dataDir,
    otherwise: 'set TABLE_NAME (and DYNAMODB_ENDPOINT) yourself',
    isAlive,
  });
  if (!server) return undefined;
  const { tableName, dynamoDbEndpoint, mediaBucket, s3Endpoint, port, failureDir } = server.info;
  if (typeof tableName !== 'string' || typeof dynamoDbEndpoint !== 'string') {
    throw new UsageError(
      `${server.file} has no tableName and dynamoDbEndpoint: restart npm start, or set TABLE_NAME yourself`,
    );
  }
  env.TABLE_NAME = tableName;
  env.DYNAMODB_ENDPOINT ||= dynamoDbEndpoint;
  if (typeof mediaBucket === 'string') env.MEDIA_BUCKET ||= mediaBucket;
  if (typeof s3Endpoint === 'string') env.S3_ENDPOINT ||= s3Endpoint;
  // Where the server keeps its failures, for `ops replay`.
  if (typeof failureDir === 'string') env.LOCAL_FAILURE_DIR ||= failureDir;
  env.AWS_REGION ||= 'eu-central-1';
  env.AWS_ACCESS_KEY_ID ||= 'S3RVER'; // the local S3 server's fixed credentials; DynamoDB Local takes any
  env.AWS_SECRET_ACCESS_KEY ||= 'S3RVER';
  // Webhook subscriptions of the local stack: its sealing key, and http://localhost allowed.
  env.WEBHOOK_SEALING_KEY ||= LOCAL_WEBHOOK_SEALING_KEY;
  env.LOCAL_STACK ||= 'true';
  const whichServer = typeof port === 'number' ? `npm start on port ${port}, ` : '';
  return `Using the local table "${tableName}" at ${env.DYNAMODB_ENDPOINT} (${whichServer}from ${server.file})`;
}

/**
 * Refuses with exit code 2, before anything is read or written, when a variable the command
 * needs is not set; the message names every missing one. lib/platform/ reads them on import and
 * would fail later with less to say.
 */
export function requireEnvironment(env: NodeJS.ProcessEnv, names: readonly string[]): void {
  const missing = names.filter((name) => !env[name]);
  if (missing.length === 0) return;
  const listed = missing.join(' and ');
  throw new UsageError(
    `${listed} ${missing.length > 1 ? 'are' : 'is'} not set: export ${listed} (and AWS_REGION, or DYNAMODB_ENDPOINT and S3_ENDPOINT for local servers), or run \`npm start\` in this folder (with several running, name one with --data DIR)`,
  );
}
