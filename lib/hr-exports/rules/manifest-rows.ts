import type { EmployeeIdSource } from '#lib/hr-exports/rules/employee-id-sources';

/**
 * The export's manifest.csv: one row per portrait. `employeeIdSource` says where its employee ID
 * came from (`hr` or `declared`), so that HR can tell an ID it gave from one a participant typed;
 * it comes last, so that a reader of the columns before it by position reads them as before.
 * A spreadsheet reads a cell that starts with `=`, `+`, `-`, `@`, a tab or a carriage return as
 * a formula, so such a cell gets a leading single quote and stays text (a name "=HYPERLINK(…)" is
 * shown, never run).
 */

export const MANIFEST_COLUMNS = [
  'employeeId',
  'name',
  'email',
  'file',
  'photoId',
  'takenAt',
  'employeeIdSource',
] as const;
export const MANIFEST_FILE_NAME = 'manifest.csv';

const FORMULA_START = /^[=+\-@\t\r]/;

/** The cell as a spreadsheet shows it as text. */
export function spreadsheetSafe(value: string): string {
  return FORMULA_START.test(value) ? `'${value}` : value;
}

export interface ManifestEntry {
  employeeId: string | null;
  /** Where employeeId came from; null without one. */
  employeeIdSource: EmployeeIdSource | null;
  name: string;
  email: string | null;
  fileName: string;
  photoId: string;
  /** When the photo was taken (capture time), else when it became the person's. */
  takenAt: string;
}

/** One row, in MANIFEST_COLUMNS' order; empty cells for what the person does not have. */
export function manifestRow(entry: ManifestEntry): string[] {
  return [
    entry.employeeId ?? '',
    entry.name,
    entry.email ?? '',
    entry.fileName,
    entry.photoId,
    entry.takenAt,
    entry.employeeIdSource ?? '',
  ].map(spreadsheetSafe);
}
