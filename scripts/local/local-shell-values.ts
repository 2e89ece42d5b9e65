/**
 * What `npm run -s local-env` prints (scripts/local/local-env.ts): the running `npm start`'s
 * base URL, tenant, API key and gallery token as shell assignments, so that
 * `eval "$(npm run -s local-env)"` sets BASE, TENANT, API_KEY and TOKEN for the curl lines of
 * the README and the guides, whatever port the server runs on. The server is found as the other
 * CLIs find it (scripts/cli-kit/local-servers.ts): the one running from this folder, or the one
 * `--data DIR` names.
 */
import { parseCommandLine } from '../cli-kit/command-line';
import { UsageError } from '../cli-kit/cli-errors';
import { connectLocalApi } from '../cli-kit/local-api';
import { findLocalServer } from '../cli-kit/local-servers';

/** The shell variables the README and the guides use, and where each comes from. */
export interface LocalShellValues {
  baseUrl: string;
  tenantSlug: string;
  apiKey: string;
  galleryToken: string;
}

/** `value` as one word of a POSIX shell, whatever characters it holds. */
function shellQuoted(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The export lines `eval` runs. */
export function shellAssignments(values: LocalShellValues): string {
  const variables = {
    BASE: values.baseUrl,
    TENANT: values.tenantSlug,
    API_KEY: values.apiKey,
    TOKEN: values.galleryToken,
  };
  return Object.entries(variables)
    .map(([name, value]) => `export ${name}=${shellQuoted(value)}`)
    .join('\n');
}

/**
 * The assignments for the server found from `workingDirectory`, once its API has answered. A
 * failure is a UsageError: `eval` of nothing would succeed, so the caller prints `false` for it.
 */
export async function localShellValues(args: readonly string[], workingDirectory: string): Promise<string> {
  const { values } = parseCommandLine(
    args,
    { data: { type: 'string' } },
    { command: 'local-env', help: 'npm run local-env -- --help' },
  );
  const dataDir = values.data as string | undefined;
  const server = findLocalServer({ workingDirectory, dataDir, otherwise: 'stop all but one' });
  if (!server)
    throw new UsageError(
      `No npm start runs from ${workingDirectory}: start it with \`npm start\` (in another terminal), then run this again`,
    );
  const connection = await connectLocalApi(server);
  const galleryToken = server.info.galleryToken;
  if (typeof galleryToken !== 'string')
    throw new UsageError(`${server.file} has no galleryToken: restart \`npm start\``);
  return shellAssignments({ ...connection, galleryToken });
}
