import { parse } from 'csv-parse/sync';
import type { ShootingDay } from '#lib/client/groupshoot-client';
import { type SkipReason, validateImportRow } from '#lib/domain/person-import';

/** Where each person field comes from in the file: column names, matched case-insensitively. */
export interface ColumnMapping {
  name: string[];
  email: string[];
  employeeId: string[];
  day: string[];
}

export const DEFAULT_MAPPING: ColumnMapping = {
  name: ['name', 'full name', 'fullname'],
  email: ['email', 'e-mail', 'mail'],
  employeeId: ['employeeid', 'employee id', 'personnel number', 'id'],
  day: ['shootingdayid', 'shooting day', 'day', 'date'],
};

export type DayMatch = 'id' | 'date' | 'label';

export type ImportSkipReason = SkipReason | 'shooting_day_not_found' | 'duplicate_in_file' | 'already_imported';

export interface PreparedRow {
  /** Line of the row in a CSV file (header is line 1), or position in a JSON array (1-based). */
  line: number;
  person?: { name: string; email: string | null; employeeId: string | null; shootingDayId: string | null };
  reason?: ImportSkipReason;
}

/** The file's records: a CSV with a header line, or a JSON array of objects. */
export function readRecords(fileName: string, content: string): Record<string, unknown>[] {
  if (/\.json$/i.test(fileName)) {
    const data = JSON.parse(content) as unknown;
    const records = Array.isArray(data) ? data : (data as { persons?: unknown }).persons;
    if (!Array.isArray(records)) throw new Error('A JSON file must hold an array of persons (or { "persons": [...] })');
    return records as Record<string, unknown>[];
  }
  return parse(content, { columns: true, skip_empty_lines: true, trim: true, bom: true, relax_column_count: true });
}

function pick(record: Record<string, unknown>, columns: string[]): unknown {
  const wanted = new Set(columns.map((column) => column.toLowerCase()));
  const key = Object.keys(record).find((name) => wanted.has(name.trim().toLowerCase()));
  return key === undefined ? undefined : record[key];
}

/**
 * Maps, validates and deduplicates the file's records before anything is sent: the same rules
 * as the API (lib/domain/person-import.ts), shooting days matched by ID, date or label, and
 * employee IDs that the gallery has already, or that came earlier in the file, skipped.
 */
export function prepareRows(
  records: Record<string, unknown>[],
  options: { mapping: ColumnMapping; dayMatch: DayMatch; days: ShootingDay[]; existingEmployeeIds: Set<string>; csv: boolean },
): PreparedRow[] {
  const seen = new Set<string>();
  const dayIds = new Set(options.days.map((day) => day.id));
  return records.map((record, index) => {
    const line = options.csv ? index + 2 : index + 1;
    const dayValue = pick(record, options.mapping.day);
    let shootingDayId: string | null = null;
    if (typeof dayValue === 'string' && dayValue.trim() !== '') {
      const wanted = dayValue.trim();
      const day = options.days.find((candidate) => candidate[options.dayMatch] === wanted);
      if (!day) return { line, reason: 'shooting_day_not_found' };
      shootingDayId = day.id;
    }
    const verdict = validateImportRow(
      {
        name: pick(record, options.mapping.name),
        email: pick(record, options.mapping.email),
        employeeId: pick(record, options.mapping.employeeId),
        shootingDayId,
      },
      dayIds,
    );
    if (!verdict.ok) return { line, reason: verdict.reason };
    const { employeeId } = verdict.row;
    if (employeeId !== null && options.existingEmployeeIds.has(employeeId)) return { line, reason: 'already_imported' };
    if (employeeId !== null && seen.has(employeeId)) return { line, reason: 'duplicate_in_file' };
    if (employeeId !== null) seen.add(employeeId);
    return { line, person: verdict.row };
  });
}
