/**
 * The API of a running `npm start`, for the CLIs that talk to the API rather than to the table
 * (the import and photos commands): its URL and the demo tenant's slug and key, from its
 * connection file, unless options or the environment give them.
 */
import type { ClientOptions } from '#lib/client/groupshoot-client';
import { UsageError } from './cli-errors';
import { type CliEnvironment, type LocalServer, findLocalServer } from './local-servers';

/** `--base-url`, `--tenant` and `--api-key` as given on the command line. */
export interface ConnectionOptions {
  baseUrl?: string;
  tenantSlug?: string;
  apiKey?: string;
}

/** The running local API as an API client talks to it. */
export interface LocalApiConnection {
  baseUrl: string;
  tenantSlug: string;
  apiKey: string;
}

const OTHERWISE = 'give --base-url, --tenant and --api-key';

/**
 * The URL, tenant and key of a local server's API, once that API has answered with this tenant
 * and key: a live process does not prove that its API is where the file says (a process ID can
 * be reused), and an import must not be sent into the void. A UsageError when the file lacks
 * them, nothing answers, or the API there does not know the tenant and key.
 */
export async function connectLocalApi(
  server: LocalServer,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<LocalApiConnection> {
  const { baseUrl, tenantSlug, apiKey } = server.info;
  if (typeof baseUrl !== 'string' || typeof tenantSlug !== 'string' || typeof apiKey !== 'string') {
    throw new UsageError(
      `${server.file} has no baseUrl, tenantSlug and apiKey: restart \`npm start\`, or ${OTHERWISE}`,
    );
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
    throw new UsageError(
      `No local API answers at ${baseUrl}, the server ${server.file} names: start it with \`npm start\`, or ${OTHERWISE}`,
    );
  }
  if (response.status === 401 || response.status === 400) {
    throw new UsageError(
      `The local API at ${baseUrl} does not know the tenant and key in ${server.file} (answer ${response.status}): it was started from other data; restart \`npm start\`, or give --tenant and --api-key`,
    );
  }
  return { baseUrl, tenantSlug, apiKey };
}

/** What to do instead of a running npm start, for the messages that need one. */
const GIVE_CONNECTION =
  'give --base-url, --tenant and --api-key (or GROUPSHOOT_API_URL, GROUPSHOOT_TENANT and GROUPSHOOT_API_KEY)';

/**
 * URL, tenant and key: each from its option, else its environment variable; what is still
 * missing comes from the running `npm start` (scripts/cli-kit/local-servers.ts: the one server
 * running from this folder, or the one --data names), once its API has answered; `say` tells
 * which. With all three given no connection file is read, and --data beside them is refused.
 */
export async function connectionSettings(
  options: { settings: ConnectionOptions; dataDir?: string },
  environment: CliEnvironment,
  say: (line: string) => void,
): Promise<Pick<ClientOptions, 'baseUrl' | 'tenantSlug' | 'apiKey'>> {
  const { settings, dataDir } = options;
  const { env } = environment;
  const given = {
    baseUrl: settings.baseUrl ?? env.GROUPSHOOT_API_URL,
    tenantSlug: settings.tenantSlug ?? env.GROUPSHOOT_TENANT,
    apiKey: settings.apiKey ?? env.GROUPSHOOT_API_KEY,
  };
  if (given.baseUrl && given.tenantSlug && given.apiKey) {
    if (dataDir !== undefined) {
      throw new UsageError(
        `--data ${dataDir} names a local server, but the URL, tenant and key are all given (options or environment): leave out --data, or the others`,
      );
    }
    return { baseUrl: given.baseUrl, tenantSlug: given.tenantSlug, apiKey: given.apiKey };
  }
  const server = findLocalServer({
    workingDirectory: environment.workingDirectory,
    dataDir,
    otherwise: GIVE_CONNECTION,
  });
  const local = server && (await connectLocalApi(server));
  if (server && local) say(`Using the local API at ${local.baseUrl} (from ${server.file})`);
  const baseUrl = given.baseUrl ?? local?.baseUrl;
  const tenantSlug = given.tenantSlug ?? local?.tenantSlug;
  const apiKey = given.apiKey ?? local?.apiKey;
  if (!baseUrl || !tenantSlug || !apiKey)
    throw new UsageError('The API URL, tenant and API key are needed (options, environment, or a running npm start)');
  return { baseUrl, tenantSlug, apiKey };
}
