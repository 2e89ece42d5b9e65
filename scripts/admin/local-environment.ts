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

/**
 * Where `npm start` records its URL, tenant, key and table for the CLIs. It writes this file
 * also when `--data DIR` keeps its data (and a copy of the file) elsewhere, so the defaults of
 * every CLI find the server that runs now.
 */
export const LOCAL_API_INFO_FILE = '.local/local-api.json';

/** The running local API as the import command talks to it. */
export interface LocalApiConnection {
  baseUrl: string;
  tenantSlug: string;
  apiKey: string;
}

/** The info file names a local API that is not there, or not the one that wrote the file. */
export class LocalApiUnavailableError extends Error {}

/**
 * The local API's URL, tenant and key from `npm start`'s info file, once the server there has
 * answered with that tenant and key: a file left behind by a stopped server, or by one started
 * with other data, must not send an import into the void. Undefined without a file; throws
 * LocalApiUnavailableError when the file is unusable or its server does not answer or does not
 * know its tenant and key.
 */
export async function findLocalApi(
  infoFile: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<LocalApiConnection | undefined> {
  if (!existsSync(infoFile)) return undefined;
  let info: Record<string, unknown>;
  try {
    info = JSON.parse(readFileSync(infoFile, 'utf8')) as Record<string, unknown>;
  } catch {
    throw new LocalApiUnavailableError(`${infoFile} is not valid JSON: restart \`npm start\`, or give --base-url, --tenant and --api-key`);
  }
  const { baseUrl, tenantSlug, apiKey } = info;
  if (typeof baseUrl !== 'string' || typeof tenantSlug !== 'string' || typeof apiKey !== 'string') {
    throw new LocalApiUnavailableError(`${infoFile} has no baseUrl, tenantSlug and apiKey: restart \`npm start\`, or give --base-url, --tenant and --api-key`);
  }
  const fetchFunction = options.fetch ?? fetch;
  let response: Response;
  try {
    // Any gallery path checks the tenant and the key first; an unknown gallery is a 404 after them.
    response = await fetchFunction(`${baseUrl.replace(/\/$/, '')}/group-shoot/checkin/local-api-probe/days`, {
      headers: { 'X-Tenant-Slug': tenantSlug, Authorization: `Bearer ${apiKey}` },
      signal: AbortSignal.timeout(options.timeoutMs ?? 3000),
    });
    await response.arrayBuffer();
  } catch {
    throw new LocalApiUnavailableError(
      `No local API answers at ${baseUrl}, the server ${infoFile} names: start it with \`npm start\` (it rewrites the file), or give --base-url, --tenant and --api-key`,
    );
  }
  if (response.status === 401 || response.status === 400) {
    throw new LocalApiUnavailableError(
      `The local API at ${baseUrl} does not know the tenant and key in ${infoFile} (answer ${response.status}): it was started from other data; restart \`npm start\`, or give --tenant and --api-key`,
    );
  }
  return { baseUrl, tenantSlug, apiKey };
}
