import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { SingleBar } from 'cli-progress';
import { GroupShootApiError, GroupShootClient } from '#lib/client/groupshoot-client';
import { MAX_PERSONS_PER_IMPORT } from '#lib/domain/field-limits';
import { type ColumnMapping, DEFAULT_MAPPING, type DayMatch, type ImportSkipReason, prepareRows, readRecords } from './import-rows';

export interface ImportIo {
  out(line: string): void;
  err(line: string): void;
  /** Whether to draw a progress bar (a terminal); otherwise progress is printed per chunk. */
  interactive: boolean;
}

const USAGE = `Usage: npm run import -- FILE --gallery TOKEN [--tenant SLUG] [--api-key KEY] [--base-url URL]
  [--map name=COLUMN,email=COLUMN,employeeId=COLUMN,day=COLUMN] [--day-by id|date|label]
  [--report FILE] [--dry-run]
FILE is a CSV with a header line or a JSON array. Defaults for tenant, key and URL come from
GROUPSHOOT_TENANT, GROUPSHOOT_API_KEY and GROUPSHOOT_API_URL, else from .local/local-api.json (npm start).`;

class UsageError extends Error {}

function mappingOf(option: string | undefined): ColumnMapping {
  const mapping = { ...DEFAULT_MAPPING };
  for (const pair of option ? option.split(',') : []) {
    const [field, column] = pair.split('=').map((part) => part.trim());
    if (!field || !column || !(field in mapping)) throw new UsageError(`--map: "${pair}" is not field=COLUMN with field name, email, employeeId or day`);
    mapping[field as keyof ColumnMapping] = [column];
  }
  return mapping;
}

function connection(values: Record<string, string | boolean | undefined>) {
  const local = existsSync('.local/local-api.json') ? JSON.parse(readFileSync('.local/local-api.json', 'utf8')) : {};
  const pickSetting = (option: string, variable: string, fallback: unknown) =>
    (values[option] as string | undefined) ?? process.env[variable] ?? (typeof fallback === 'string' ? fallback : undefined);
  const baseUrl = pickSetting('base-url', 'GROUPSHOOT_API_URL', local.baseUrl);
  const tenantSlug = pickSetting('tenant', 'GROUPSHOOT_TENANT', local.tenantSlug);
  const apiKey = pickSetting('api-key', 'GROUPSHOOT_API_KEY', local.apiKey);
  if (!baseUrl || !tenantSlug || !apiKey) throw new UsageError('The API URL, tenant and API key are needed (options, environment, or npm start)');
  return { baseUrl, tenantSlug, apiKey };
}

function parseOptions(argv: string[]) {
  try {
    return parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        gallery: { type: 'string' },
        tenant: { type: 'string' },
        'api-key': { type: 'string' },
        'base-url': { type: 'string' },
        map: { type: 'string' },
        'day-by': { type: 'string' },
        report: { type: 'string' },
        'dry-run': { type: 'boolean' },
        help: { type: 'boolean' },
      },
    });
  } catch (error) {
    throw new UsageError((error as Error).message.split('\n')[0] ?? 'Bad options');
  }
}

/**
 * `npm run import`: imports an HR export into a gallery in chunks of 500. Re-runs are
 * idempotent: employee IDs already in the gallery are skipped, and each chunk carries an
 * Idempotency-Key derived from the file, so a chunk whose answer was lost is not imported twice.
 * Returns the exit code: 0 done (skipped rows included), 1 the API failed, 2 usage.
 */
export async function runImport(argv: string[], io: ImportIo, client?: GroupShootClient): Promise<number> {
  try {
    const { values, positionals } = parseOptions(argv);
    if (values.help) return io.out(USAGE), 0;
    const [file] = positionals;
    if (!file || positionals.length > 1) throw new UsageError('Give exactly one FILE');
    if (!values.gallery) throw new UsageError('--gallery TOKEN is required');
    const dayMatch = (values['day-by'] ?? 'id') as DayMatch;
    if (!['id', 'date', 'label'].includes(dayMatch)) throw new UsageError('--day-by is id, date or label');
    const mapping = mappingOf(values.map);
    let content: string;
    try {
      content = readFileSync(file, 'utf8');
    } catch {
      throw new UsageError(`Cannot read ${file}`);
    }
    const records = readRecords(file, content);
    const api = client ?? new GroupShootClient(connection(values));
    const gallery = values.gallery;

    const { shootingDays } = await api.shootingDays(gallery);
    const existingEmployeeIds = new Set<string>();
    for await (const person of api.allPersons(gallery)) if (person.employeeId) existingEmployeeIds.add(person.employeeId);
    const rows = prepareRows(records, { mapping, dayMatch, days: shootingDays, existingEmployeeIds, csv: !/\.json$/i.test(file) });
    const toImport = rows.filter((row) => row.person);
    const skipped: { line: number; reason: ImportSkipReason | string }[] = rows.flatMap((row) => (row.reason ? [{ line: row.line, reason: row.reason }] : []));

    let imported = 0;
    if (!values['dry-run']) {
      const fileHash = createHash('sha256').update(content).update(gallery).digest('hex').slice(0, 32);
      const bar = io.interactive ? new SingleBar({ format: 'Importing [{bar}] {value}/{total} rows', hideCursor: true }) : undefined;
      bar?.start(toImport.length, 0);
      for (let start = 0; start < toImport.length; start += MAX_PERSONS_PER_IMPORT) {
        const chunk = toImport.slice(start, start + MAX_PERSONS_PER_IMPORT);
        const result = await api.importPersons(gallery, chunk.map((row) => row.person!), {
          idempotencyKey: `import-${fileHash}-${start / MAX_PERSONS_PER_IMPORT}`,
        });
        imported += result.imported;
        for (const detail of result.skippedDetails ?? []) skipped.push({ line: chunk[detail.index]!.line, reason: detail.reason });
        if (bar) bar.update(start + chunk.length);
        else io.err(`Imported rows ${start + 1}–${start + chunk.length} of ${toImport.length}`);
      }
      bar?.stop();
    }

    skipped.sort((a, b) => a.line - b.line);
    const byReason: Record<string, number> = {};
    for (const { reason } of skipped) byReason[reason] = (byReason[reason] ?? 0) + 1;
    const summary = { file, gallery, dryRun: values['dry-run'] === true, rows: rows.length, imported, wouldImport: toImport.length, skipped: skipped.length, byReason };
    const reportFile = values.report ?? `${file}.report.json`;
    writeFileSync(reportFile, `${JSON.stringify({ summary, skipped }, null, 2)}\n`);
    io.out(
      values['dry-run']
        ? `Dry run: ${toImport.length} of ${rows.length} rows would be imported, ${skipped.length} skipped.`
        : `Imported ${imported} of ${rows.length} rows, ${skipped.length} skipped.`,
    );
    for (const [reason, count] of Object.entries(byReason)) io.out(`  ${reason}: ${count}`);
    io.out(`Report: ${reportFile}`);
    return 0;
  } catch (error) {
    if (error instanceof UsageError) return io.err(`${error.message}\n${USAGE}`), 2;
    if (error instanceof GroupShootApiError) return io.err(`The API refused: ${error.message}`), 1;
    io.err(`Import failed: ${(error as Error).message}`);
    return 1;
  }
}
