import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { SingleBar } from 'cli-progress';
import { GroupShootApiError, GroupShootClient } from '#lib/client/groupshoot-client';
import { MAX_PERSONS_PER_IMPORT } from '#lib/persons/rules/person-limits';
import { EXIT_CODE, UsageError, firstLineOf, reportFailure } from '../cli-kit/cli-errors';
import type { CliEnvironment } from '../cli-kit/local-servers';
import type { CliIo } from '../cli-kit/output';
import { describeMapping, resolveMapping } from './header-mapping';
import { USAGE, parseImportOptions } from './import-options';
import { connectionSettings } from '../cli-kit/local-api';
import { buildReport, writeReport } from './import-report';
import { type PreparedRow, prepareRows } from './import-rows';
import { checkImportFileSize } from './file-limits';
import { readTable } from './read-table';

export interface ImportIo extends CliIo {
  /** Whether to draw a progress bar (a terminal); otherwise progress is printed per chunk. */
  interactive: boolean;
}

/** Rows shown by --dry-run as they would be sent. */
const PREVIEW_ROWS = 5;

/** The file's bytes, once its size is known to be within MAX_IMPORT_FILE_BYTES. */
function readBytes(file: string): Uint8Array {
  checkImportFileSize(file);
  try {
    return readFileSync(file);
  } catch {
    throw new UsageError(`Cannot read ${file}`);
  }
}

/**
 * Sends the prepared rows in chunks of 500. Each chunk's Idempotency-Key is a hash of the
 * gallery and the chunk's exact body: a chunk whose answer was lost and is sent again (by a
 * re-run too) is not imported twice, and a different chunk never reuses a key (422).
 */
async function sendChunks(api: GroupShootClient, gallery: string, toImport: PreparedRow[], io: ImportIo) {
  let imported = 0;
  const skippedByApi: { line: number; reason: string }[] = [];
  const bar = io.interactive
    ? new SingleBar({ format: 'Importing [{bar}] {value}/{total} rows', hideCursor: true })
    : undefined;
  bar?.start(toImport.length, 0);
  for (let start = 0; start < toImport.length; start += MAX_PERSONS_PER_IMPORT) {
    const chunk = toImport.slice(start, start + MAX_PERSONS_PER_IMPORT);
    const persons = chunk.map((row) => row.person!);
    const chunkHash = createHash('sha256')
      .update(gallery)
      .update('\n')
      .update(JSON.stringify(persons))
      .digest('hex')
      .slice(0, 32);
    const result = await api.importPersons(gallery, persons, { idempotencyKey: `import-${chunkHash}` });
    imported += result.imported;
    for (const detail of result.skippedDetails ?? [])
      skippedByApi.push({ line: chunk[detail.index]!.line, reason: detail.reason });
    if (bar) bar.update(start + chunk.length);
    else io.err(`Imported rows ${start + 1}–${start + chunk.length} of ${toImport.length}`);
  }
  bar?.stop();
  return { imported, skippedByApi };
}

/**
 * `npm run import`: imports an HR export (delimited text in any common encoding, .xlsx, JSON)
 * into a gallery. It reads the file, prints how it read it and which columns fill which field,
 * validates every row with the API's rules, and sends the rest in chunks of 500. Re-runs are
 * idempotent: employee IDs already in the gallery are skipped, and a chunk sent again carries
 * the same Idempotency-Key. Returns the exit code: 0 done (skipped rows included), 1 the API
 * failed, 2 usage (options, an unreadable file, no API to talk to).
 */
export async function runImport(
  argv: string[],
  io: ImportIo,
  client?: GroupShootClient,
  environment: Partial<CliEnvironment> = {},
): Promise<number> {
  try {
    const options = parseImportOptions(argv);
    if (!options) return (io.out(USAGE), EXIT_CODE.ok);
    const table = await readTable(options.file, readBytes(options.file), options.read);
    const mapping = resolveMapping(table.columns, options.requested);
    io.out(
      `Read ${options.file} as ${table.description}: ${table.rows.length} ${table.rows.length === 1 ? 'row' : 'rows'}.`,
    );
    io.out(
      `Columns${Object.keys(options.requested).length > 0 ? ' (--map, the rest recognised)' : ' (recognised from the header)'}:`,
    );
    for (const line of describeMapping(mapping, table.columns, options.dayMatch)) io.out(line);

    const connection = {
      env: environment.env ?? process.env,
      workingDirectory: environment.workingDirectory ?? process.cwd(),
    };
    const api = client ?? new GroupShootClient(await connectionSettings(options, connection, (line) => io.err(line)));
    const { shootingDays } = await api.shootingDays(options.gallery);
    const existingEmployeeIds = new Set<string>();
    for await (const person of api.allPersons(options.gallery))
      if (person.employeeId) existingEmployeeIds.add(person.employeeId);
    const rows = prepareRows(table.rows, {
      mapping,
      dayMatch: options.dayMatch,
      days: shootingDays,
      existingEmployeeIds,
      strictDays: options.strictDays,
    });
    const toImport = rows.filter((row) => row.person);

    let sent = { imported: 0, skippedByApi: [] as { line: number; reason: string }[] };
    if (options.dryRun) {
      io.out(
        `The first ${Math.min(PREVIEW_ROWS, toImport.length)} of ${toImport.length} persons as they would be sent (nothing is sent in a dry run):`,
      );
      for (const row of toImport.slice(0, PREVIEW_ROWS)) io.out(`  line ${row.line}: ${JSON.stringify(row.person)}`);
    } else {
      sent = await sendChunks(api, options.gallery, toImport, io);
    }
    const report = buildReport(
      { file: options.file, gallery: options.gallery, dryRun: options.dryRun, imported: sent.imported },
      rows,
      sent.skippedByApi,
    );
    for (const line of writeReport(report, options.report)) io.out(line);
    return EXIT_CODE.ok;
  } catch (error) {
    const exitCode = reportFailure(error, io, describeImportFailure);
    if (error instanceof UsageError) io.err(`\n${USAGE}`);
    return exitCode;
  }
}

function describeImportFailure(error: unknown): string {
  if (error instanceof GroupShootApiError) return `The API refused: ${error.message}`;
  return `Import failed: ${firstLineOf(error)}`;
}
