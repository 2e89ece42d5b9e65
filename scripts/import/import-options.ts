import { parseArgs } from 'node:util';
import type { ClientOptions } from '#lib/client/groupshoot-client';
import { LocalApiUnavailableError, findLocalApi } from '../admin/local-environment';
import { type RequestedMapping, parseMapOption } from './header-mapping';
import { DAY_MATCHES, type DayMatch } from './match-day';
import type { ReadOptions } from './read-table';
import { UsageError } from './usage-error';

export const USAGE = `Usage: npm run import -- FILE --gallery TOKEN [--tenant SLUG] [--api-key KEY] [--base-url URL]
  [--map name=COLUMN[+COLUMN],email=COLUMN,employeeId=COLUMN,day=COLUMN] [--day-by auto|id|date|label]
  [--strict-days] [--delimiter ,|;|tab] [--encoding utf-8|utf-16le|windows-1252|…] [--sheet NAME]
  [--report FILE] [--dry-run]
FILE is a CSV or other delimited text with a header line (comma, semicolon or tab; UTF-8,
UTF-16 or Windows-1252: detected), an .xlsx workbook, or a JSON array. Without --map, common
English and German headers are recognised. Defaults for tenant, key and URL come from
GROUPSHOOT_TENANT, GROUPSHOOT_API_KEY and GROUPSHOOT_API_URL, else from the running npm start.`;

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
}

/** The command line as options; --help is undefined (print USAGE); anything wrong is a UsageError. */
export function parseImportOptions(argv: string[]): ImportOptions | undefined {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
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
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'Bad options');
  }
  const { values, positionals } = parsed;
  if (values.help) return undefined;
  const [file] = positionals;
  if (!file || positionals.length > 1) throw new UsageError('Give exactly one FILE');
  if (!values.gallery) throw new UsageError('--gallery TOKEN is required');
  const dayMatch = (values['day-by'] ?? 'auto') as DayMatch;
  if (!DAY_MATCHES.includes(dayMatch)) throw new UsageError('--day-by is auto, id, date or label');
  return {
    file,
    gallery: values.gallery,
    requested: values.map === undefined ? {} : parseMapOption(values.map),
    dayMatch,
    strictDays: values['strict-days'] === true,
    read: { encoding: values.encoding, delimiter: values.delimiter, sheet: values.sheet },
    report: values.report ?? `${file}.report.json`,
    dryRun: values['dry-run'] === true,
    settings: { baseUrl: values['base-url'], tenantSlug: values.tenant, apiKey: values['api-key'] },
  };
}

/**
 * URL, tenant and key: each from its option, else its environment variable; what is still
 * missing comes from the running `npm start` (found through its info file and checked to answer).
 */
export async function connectionSettings(
  settings: ImportOptions['settings'],
  env: NodeJS.ProcessEnv,
  localApiInfoFile: string,
): Promise<Pick<ClientOptions, 'baseUrl' | 'tenantSlug' | 'apiKey'>> {
  const given = {
    baseUrl: settings.baseUrl ?? env.GROUPSHOOT_API_URL,
    tenantSlug: settings.tenantSlug ?? env.GROUPSHOOT_TENANT,
    apiKey: settings.apiKey ?? env.GROUPSHOOT_API_KEY,
  };
  if (given.baseUrl && given.tenantSlug && given.apiKey) return { baseUrl: given.baseUrl, tenantSlug: given.tenantSlug, apiKey: given.apiKey };
  let local;
  try {
    local = await findLocalApi(localApiInfoFile);
  } catch (error) {
    if (error instanceof LocalApiUnavailableError) throw new UsageError(error.message);
    throw error;
  }
  const baseUrl = given.baseUrl ?? local?.baseUrl;
  const tenantSlug = given.tenantSlug ?? local?.tenantSlug;
  const apiKey = given.apiKey ?? local?.apiKey;
  if (!baseUrl || !tenantSlug || !apiKey) throw new UsageError('The API URL, tenant and API key are needed (options, environment, or a running npm start)');
  return { baseUrl, tenantSlug, apiKey };
}
