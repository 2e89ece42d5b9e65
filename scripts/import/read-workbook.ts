import ExcelJS from 'exceljs';
import { UsageError } from '../cli-kit/cli-errors';
import { checkWorkbookExpandedSize } from './file-limits';
import { type Table, tableOf } from './table';

/** What a cell of exceljs holds, plus its number format (for dates and zero-padded IDs). */
type Cell = { value: ExcelJS.CellValue; numFmt?: string };

const MILLISECONDS_PER_DAY = 86_400_000;
const EXCEL_EPOCH_IN_UNIX_DAYS = 25_569; // 1970-01-01 as an Excel serial (1900 date system)

/** Whether a number format shows a date: it has day or year codes outside quoted text. */
function isDateFormat(numFmt: string | undefined): boolean {
  return numFmt !== undefined && /[dy]/i.test(numFmt.replace(/"[^"]*"|\[[^\]]*\]|\\./g, ''));
}

/** A date cell: YYYY-MM-DD, with HH:MM when it has a time of day, HH:MM alone for a time. */
function dateText(date: Date): string {
  const iso = date.toISOString(); // exceljs reads serials as UTC, so UTC shows what Excel shows
  const time = iso.slice(11, 16);
  if (iso.startsWith('1899-12-30') || iso.startsWith('1899-12-31')) return time;
  return time === '00:00' ? iso.slice(0, 10) : `${iso.slice(0, 10)} ${time}`;
}

/** A number as a person reads it: 1234 not 1234.0, 0.3 not 0.30000000000000004, 00042 under format 00000. */
function numberText(value: number, numFmt: string | undefined): string {
  if (isDateFormat(numFmt))
    return dateText(new Date(Math.round((value - EXCEL_EPOCH_IN_UNIX_DAYS) * MILLISECONDS_PER_DAY)));
  if (Number.isInteger(value)) {
    const digits = BigInt(value).toString(); // no exponent for long personnel numbers
    return numFmt && /^0+$/.test(numFmt) ? digits.padStart(numFmt.length, '0') : digits;
  }
  return String(Number(value.toPrecision(15)));
}

/**
 * A cell as text: strings as they are, numbers without a trailing .0, dates as YYYY-MM-DD,
 * rich text and hyperlinks (mailto: cells) by their text, formulas by their cached result,
 * booleans as TRUE/FALSE like Excel shows them; empty and error cells (#N/A) as "".
 */
export function cellText(cell: Cell): string {
  const { value, numFmt } = cell;
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return numberText(value, numFmt);
  if (typeof value === 'boolean') return value ? 'TRUE' : 'FALSE';
  if (value instanceof Date) return dateText(value);
  if ('richText' in value) return value.richText.map((run) => run.text).join('');
  if ('hyperlink' in value) return cellText({ value: value.text, numFmt });
  if ('formula' in value || 'sharedFormula' in value) return cellText({ value: value.result, numFmt });
  return ''; // an error value: #N/A, #REF!, …
}

/**
 * The first worksheet of an .xlsx workbook, or the one named by `sheetName` (case-insensitive),
 * as a table: the first row with any value is the header; a row's line is its row number in Excel.
 * A workbook that expands to more than MAX_WORKBOOK_EXPANDED_BYTES is refused unread.
 */
export async function readWorkbook(bytes: Uint8Array, sheetName?: string): Promise<Table> {
  const workbook = new ExcelJS.Workbook();
  try {
    await checkWorkbookExpandedSize(bytes);
    await workbook.xlsx.load(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as unknown as ExcelJS.Buffer,
    );
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Cannot read the workbook: ${(error as Error).message} (only .xlsx; save an .xls as .xlsx or CSV)`,
    );
  }
  const names = workbook.worksheets.map((sheet) => sheet.name);
  const sheet =
    sheetName === undefined
      ? workbook.worksheets[0]
      : workbook.worksheets.find((candidate) => candidate.name.toLowerCase() === sheetName.trim().toLowerCase());
  if (!sheet) {
    throw new UsageError(
      sheetName === undefined
        ? 'The workbook has no worksheet'
        : `--sheet: the workbook has no sheet "${sheetName}". Its sheets: ${names.map((name) => `"${name}"`).join(', ')}`,
    );
  }
  const rows: { line: number; cells: string[] }[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, rowNumber) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, column) => {
      cells[column - 1] = cellText({ value: cell.value, numFmt: cell.numFmt }).trim();
    });
    rows.push({ line: rowNumber, cells: Array.from(cells, (text) => text ?? '') });
  });
  const headerAt = rows.findIndex(({ cells }) => cells.some((text) => text !== ''));
  const [header, ...body] = headerAt < 0 ? [] : rows.slice(headerAt);
  return tableOf(
    header?.cells ?? [],
    body,
    `Excel workbook, sheet "${sheet.name}"${names.length > 1 ? ` (of ${names.map((name) => `"${name}"`).join(', ')})` : ''}`,
  );
}
