import { UsageError } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import type { ConnectionOptions } from '../cli-kit/local-api';
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
  settings: ConnectionOptions;
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
