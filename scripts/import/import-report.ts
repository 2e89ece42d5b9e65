import { writeFileSync } from 'node:fs';
import type { PreparedRow } from './import-rows';
import type { DayProblem } from './match-day';

/** What `FILE.report.json` holds: the summary, every skipped line and every warning with its reason. */
export interface ImportReport {
  summary: {
    file: string;
    gallery: string;
    dryRun: boolean;
    rows: number;
    imported: number;
    wouldImport: number;
    skipped: number;
    byReason: Record<string, number>;
    /** Rows imported without the day their value did not name (see --strict-days). */
    warnings: number;
    byWarning: Record<string, number>;
  };
  skipped: { line: number; reason: string }[];
  warnings: { line: number; warning: DayProblem; value: string }[];
}

const countBy = <T>(items: readonly T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>(
    (counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }),
    {},
  );

/**
 * The report of a run: `skipped` holds the rows skipped before sending and those the API
 * skipped; a row the API skipped has no warning any more, since it was not imported.
 */
export function buildReport(
  run: { file: string; gallery: string; dryRun: boolean; imported: number },
  rows: readonly PreparedRow[],
  skippedByApi: readonly { line: number; reason: string }[],
): ImportReport {
  const skipped = [
    ...rows.flatMap((row) => (row.reason ? [{ line: row.line, reason: row.reason }] : [])),
    ...skippedByApi,
  ].sort((a, b) => a.line - b.line);
  const notImported = new Set(skippedByApi.map(({ line }) => line));
  const warnings = rows.flatMap((row) =>
    row.warning && !notImported.has(row.line)
      ? [{ line: row.line, warning: row.warning, value: row.dayValue ?? '' }]
      : [],
  );
  return {
    summary: {
      ...run,
      rows: rows.length,
      wouldImport: rows.filter((row) => row.person).length,
      skipped: skipped.length,
      byReason: countBy(skipped, ({ reason }) => reason),
      warnings: warnings.length,
      byWarning: countBy(warnings, ({ warning }) => warning),
    },
    skipped,
    warnings,
  };
}

/** Writes the report and answers the lines printed at the end of a run. */
export function writeReport(report: ImportReport, reportFile: string): string[] {
  writeFileSync(reportFile, `${JSON.stringify(report, null, 2)}\n`);
  const { summary } = report;
  const lines = [
    summary.dryRun
      ? `Dry run: ${summary.wouldImport} of ${summary.rows} rows would be imported, ${summary.skipped} skipped.`
      : `Imported ${summary.imported} of ${summary.rows} rows, ${summary.skipped} skipped.`,
    ...Object.entries(summary.byReason).map(([reason, count]) => `  ${reason}: ${count}`),
  ];
  for (const [warning, count] of Object.entries(summary.byWarning)) {
    const values = [...new Set(report.warnings.filter((item) => item.warning === warning).map((item) => item.value))];
    const shown =
      values
        .slice(0, 5)
        .map((value) => `"${value}"`)
        .join(', ') + (values.length > 5 ? `, … (${values.length} values)` : '');
    const rows = count === 1 ? '1 row' : `${count} rows`;
    const verb = summary.dryRun ? 'would be' : count === 1 ? 'was' : 'were';
    lines.push(
      `Warning: ${rows} ${verb} imported without a day (${warning}: ${shown}); --strict-days skips them instead.`,
    );
  }
  lines.push(`Report: ${reportFile}`);
  return lines;
}
