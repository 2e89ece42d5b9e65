import { parse } from 'csv-parse/sync';
import { UsageError } from '../cli-kit/cli-errors';
import { decodeText, delimiterName, delimiterOption, detectDelimiter } from './detect-format';
import { readWorkbook } from './read-workbook';
import { type Table, columnNames, tableOf } from './table';

/** How to read a file where detection is not wanted: --encoding, --delimiter, --sheet. */
export interface ReadOptions {
  encoding?: string;
  delimiter?: string;
  sheet?: string;
}

const ZIP_SIGNATURE = [0x50, 0x4b, 0x03, 0x04]; // an .xlsx is a zip archive
const OLE_SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0]; // Excel 97-2003 .xls

const startsWith = (bytes: Uint8Array, signature: number[]) => signature.every((byte, index) => bytes[index] === byte);

/**
 * Reads an HR export: an .xlsx workbook (by its content, whatever its name), a JSON array of
 * persons (.json), or else delimited text (CSV, or Excel's "Unicode text") with a header line.
 */
export async function readTable(fileName: string, bytes: Uint8Array, options: ReadOptions = {}): Promise<Table> {
  if (startsWith(bytes, ZIP_SIGNATURE) || /\.xls[xm]$/i.test(fileName)) return readWorkbook(bytes, options.sheet);
  if (startsWith(bytes, OLE_SIGNATURE) || /\.xls$/i.test(fileName))
    throw new UsageError(`${fileName} is an Excel 97-2003 workbook: save it as .xlsx or CSV`);
  if (options.sheet !== undefined) throw new UsageError('--sheet is for .xlsx workbooks');
  const { text, encoding } = decodeText(bytes, options.encoding);
  return /\.json$/i.test(fileName) ? readJson(text, encoding) : readDelimited(text, encoding, options.delimiter);
}

function readJson(text: string, encoding: string): Table {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`The file is not valid JSON: ${(error as Error).message}`);
  }
  const records = Array.isArray(data) ? data : (data as { persons?: unknown } | null)?.persons;
  if (!Array.isArray(records))
    throw new UsageError('A JSON file must hold an array of persons (or { "persons": [...] })');
  const isObject = (record: unknown): record is Record<string, unknown> =>
    typeof record === 'object' && record !== null && !Array.isArray(record);
  const keys = [...new Set(records.filter(isObject).flatMap((record) => Object.keys(record)))];
  if (columnNames(keys).some((name, index) => name !== keys[index]))
    throw new UsageError('The JSON persons have keys that differ only in case or are empty');
  return {
    columns: keys,
    // Values stay as they are, so the API's type rules (name_not_string, …) apply as before.
    rows: records.map((record, index) => ({ line: index + 1, values: isObject(record) ? record : null })),
    description: `JSON, ${encoding}`,
  };
}

function readDelimited(text: string, encoding: string, delimiterChoice: string | undefined): Table {
  // Excel's "CSV (semicolon)" and some HR systems put a "sep=;" line above the header.
  const separatorLine = /^sep=(.)\r?\n/i.exec(text);
  const delimiter =
    delimiterChoice !== undefined ? delimiterOption(delimiterChoice) : (separatorLine?.[1] ?? detectDelimiter(text));
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, {
      delimiter,
      from_line: separatorLine ? 2 : 1,
      info: true,
      skip_empty_lines: true,
      trim: true,
      relax_column_count: true,
      relax_quotes: true, // a stray quote inside a field (Anna "Anni" Meier) is text, not an error
    }) as unknown as typeof records; // with info, csv-parse answers { record, info } per record
  } catch (error) {
    throw new UsageError(
      `The file cannot be read as text separated by ${delimiterName(delimiter)}: ${(error as Error).message}`,
    );
  }
  const [header, ...body] = records;
  return tableOf(
    header?.record ?? [],
    body.map(({ record, info }) => ({ line: info.lines, cells: record })),
    `text, ${encoding}, separated by ${delimiterName(delimiter)}${delimiterChoice !== undefined ? ' (--delimiter)' : ''}`,
  );
}
