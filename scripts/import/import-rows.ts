import type { ShootingDay } from '#lib/client/groupshoot-client';
import { type ImportRow, type SkipReason, validateImportRow } from '#lib/persons/rules/person-import';
import type { ColumnMapping } from './header-mapping';
import { type DayMatch, type DayProblem, matchShootingDay } from './match-day';
import type { TableRow } from './table';

export type ImportSkipReason = SkipReason | DayProblem | 'duplicate_in_file' | 'already_imported';

export interface PreparedRow {
  line: number;
  /** The person as it is sent; absent when the row is skipped. */
  person?: ImportRow;
  reason?: ImportSkipReason;
  /** The row is imported, but without the day its value did not name (not with --strict-days). */
  warning?: DayProblem;
  /** The day value behind a warning or a day skip, for the summary. */
  dayValue?: string;
}

export interface PrepareOptions {
  mapping: ColumnMapping;
  dayMatch: DayMatch;
  days: readonly ShootingDay[];
  existingEmployeeIds: ReadonlySet<string>;
  /** Skip rows whose day is not found, instead of importing them without a day. */
  strictDays: boolean;
}

/**
 * A field's value from its columns: one column's value as it is (JSON keeps its types for the
 * API's rules), several columns' texts joined by a space with the blank ones dropped.
 */
export function fieldValue(values: Record<string, unknown>, columns: readonly string[]): unknown {
  if (columns.length === 1) return values[columns[0]!];
  const parts = columns
    .map((column) => values[column])
    .map((value) => (value === undefined || value === null ? '' : textOf(value)).trim())
    .filter((text) => text !== '');
  return parts.length === 0 ? undefined : parts.join(' ');
}

/**
 * Maps, validates and deduplicates the rows before anything is sent: the API's own rules
 * (lib/persons/rules/person-import.ts), shooting days matched by ID, date or label, and employee IDs
 * that the gallery has already, or that came earlier in the file, skipped. A day value that
 * names no day follows the API's rule, imported without a day, with a warning; with
 * strictDays the row is skipped.
 */
export function prepareRows(rows: readonly TableRow[], options: PrepareOptions): PreparedRow[] {
  const seen = new Set<string>();
  const dayIds = new Set(options.days.map((day) => day.id));
  return rows.map(({ line, values }) => {
    if (values === null) return { line, reason: 'row_not_object' };
    const dayValue = options.mapping.day.length > 0 ? fieldValue(values, options.mapping.day) : undefined;
    let shootingDayId: string | null = null;
    let warning: DayProblem | undefined;
    const wanted = typeof dayValue === 'number' ? String(dayValue) : dayValue;
    if (typeof wanted === 'string' && wanted.trim() !== '') {
      const verdict = matchShootingDay(wanted, options.days, options.dayMatch);
      if ('problem' in verdict && options.strictDays) return { line, reason: verdict.problem, dayValue: wanted.trim() };
      if ('problem' in verdict) warning = verdict.problem;
      else shootingDayId = verdict.day.id;
    }
    const verdict = validateImportRow(
      {
        name: fieldValue(values, options.mapping.name),
        email: options.mapping.email.length > 0 ? fieldValue(values, options.mapping.email) : undefined,
        employeeId: options.mapping.employeeId.length > 0 ? fieldValue(values, options.mapping.employeeId) : undefined,
        shootingDayId,
      },
      dayIds,
    );
    if (!verdict.ok) return { line, reason: verdict.reason };
    const { employeeId } = verdict.row;
    if (employeeId !== null && options.existingEmployeeIds.has(employeeId)) return { line, reason: 'already_imported' };
    if (employeeId !== null && seen.has(employeeId)) return { line, reason: 'duplicate_in_file' };
    if (employeeId !== null) seen.add(employeeId);
    return warning
      ? { line, person: verdict.row, warning, dayValue: (wanted as string).trim() }
      : { line, person: verdict.row };
  });
}

/** A cell's value as text: JSON's objects and arrays as JSON, never `[object Object]`. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value) ?? '';
}
