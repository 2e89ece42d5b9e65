/**
 * The API of a running `npm start`, for the CLIs that talk to the API rather than to the table
 * (the import command): its URL and the demo tenant's slug and key, from its connection file.
 */
import { UsageError } from './cli-errors';
import type { LocalServer } from './local-servers';

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
    throw new UsageError(`${server.file} has no baseUrl, tenantSlug and apiKey: restart \`npm start\`, or ${OTHERWISE}`);
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
    throw new UsageError(`No local API answers at ${baseUrl}, the server ${server.file} names: start it with \`npm start\`, or ${OTHERWISE}`);
  }
  if (response.status === 401 || response.status === 400) {
    throw new UsageError(
      `The local API at ${baseUrl} does not know the tenant and key in ${server.file} (answer ${response.status}): it was started from other data; restart \`npm start\`, or give --tenant and --api-key`,
    );
  }
  return { baseUrl, tenantSlug, apiKey };
}
