import type { ClientOptions } from '#lib/client/groupshoot-client';
import { UsageError } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import { connectLocalApi } from '../cli-kit/local-api';
import { type CliEnvironment, findLocalServer } from '../cli-kit/local-servers';
import { type RequestedMapping, parseMapOption } from './header-mapping';
import { DAY_MATCHES, type DayMatch } from './match-day';
import type { ReadOptions } from './read-table';

export const USAGE = `Usage: npm run import -- FILE --gallery TOKEN [--tenant SLUG] [--api-key KEY] [--base-url URL]
  [--map name=COLUMN[+COLUMN],email=COLUMN,employeeId=COLUMN,day=COLUMN] [--day-by auto|id|date|label]
  [--strict-days] [--delimiter ,|;|tab] [--encoding utf-8|utf-16le|windows-1252|…] [--sheet NAME]
  [--report FILE] [--dry-run] [--data DIR]
FILE is a CSV or other delimited text with a header line (comma, semicolon or tab; UTF-8,
UTF-16 or Windows-1252: detected), an .xlsx workbook, or a JSON array. Without --map, common
English and German headers are recognised. Defaults for tenant, key and URL come from
GROUPSHOOT_TENANT, GROUPSHOOT_API_KEY and GROUPSHOOT_API_URL, else from the running npm start
(--data DIR: the one started with npm start -- --data DIR).`;

export interface ImportOptions {
  file: string;
  gallery: string;
  requested: RequestedMapping;
  dayMatch: DayMatch;
  strictDays: boolean;
  read: ReadOptions;
  report: string;
  dryRun: boolean;
  settings: { baseUrl?: string; tenantSlug?: string; apiKey?: string };
  /** `--data DIR`: the local server started with this data folder. */
  dataDir?: string;
}

/** The command line as options; --help is undefined (print USAGE); anything wrong is a UsageError. */
export function parseImportOptions(argv: string[]): ImportOptions | undefined {
  const { values, positionals } = parseCommandLine(
    argv,
    {
      gallery: { type: 'string' },
      tenant: { type: 'string' },
      'api-key': { type: 'string' },
      'base-url': { type: 'string' },
      map: { type: 'string' },
      'day-by': { type: 'string' },
      'strict-days': { type: 'boolean' },
      delimiter: { type: 'string' },
      encoding: { type: 'string' },
      sheet: { type: 'string' },
      report: { type: 'string' },
      'dry-run': { type: 'boolean' },
      data: { type: 'string' },
      help: { type: 'boolean' },
    },
    { command: 'import', help: 'npm run import -- --help', allowPositionals: true },
  );
  // Every option above is a string or a flag, as declared; parseArgs has checked which.
  const text = (name: string) => values[name] as string | undefined;
  if (values.help) return undefined;
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new UsageError('Give exactly one FILE');
  const gallery = text('gallery');
  if (!gallery) throw new UsageError('--gallery TOKEN is required');
  const dayMatch = (text('day-by') ?? 'auto') as DayMatch;
  if (!DAY_MATCHES.includes(dayMatch)) throw new UsageError('--day-by is auto, id, date or label');
  const map = text('map');
  return {
    file,
    gallery,
    requested: map === undefined ? {} : parseMapOption(map),
    dayMatch,
    strictDays: values['strict-days'] === true,
    read: { encoding: text('encoding'), delimiter: text('delimiter'), sheet: text('sheet') },
    report: text('report') ?? `${file}.report.json`,
    dryRun: values['dry-run'] === true,
    settings: { baseUrl: text('base-url'), tenantSlug: text('tenant'), apiKey: text('api-key') },
    dataDir: text('data'),
  };
}

/** What to do instead of a running npm start, for the messages that need one. */
const GIVE_CONNECTION = 'give --base-url, --tenant and --api-key (or GROUPSHOOT_API_URL, GROUPSHOOT_TENANT and GROUPSHOOT_API_KEY)';

/**
 * URL, tenant and key: each from its option, else its environment variable; what is still
 * missing comes from the running `npm start` (scripts/cli-kit/local-servers.ts: the one server
 * running from this folder, or the one --data names), once its API has answered; `say` tells
 * which. With all three given no connection file is read, and --data beside them is refused.
 */
export async function connectionSettings(
  options: Pick<ImportOptions, 'settings' | 'dataDir'>,
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
      throw new UsageError(`--data ${dataDir} names a local server, but the URL, tenant and key are all given (options or environment): leave out --data, or the others`);
    }
    return { baseUrl: given.baseUrl, tenantSlug: given.tenantSlug, apiKey: given.apiKey };
  }
  const server = findLocalServer({ workingDirectory: environment.workingDirectory, dataDir, otherwise: GIVE_CONNECTION });
  const local = server && (await connectLocalApi(server));
  if (server && local) say(`Using the local API at ${local.baseUrl} (from ${server.file})`);
  const baseUrl = given.baseUrl ?? local?.baseUrl;
  const tenantSlug = given.tenantSlug ?? local?.tenantSlug;
  const apiKey = given.apiKey ?? local?.apiKey;
  if (!baseUrl || !tenantSlug || !apiKey) throw new UsageError('The API URL, tenant and API key are needed (options, environment, or a running npm start)');
  return { baseUrl, tenantSlug, apiKey };
}
