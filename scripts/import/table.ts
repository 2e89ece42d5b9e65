/** One row of a file: where it is, and its value per column name. */
export interface TableRow {
  /** Line of a CSV row (the header is line 1), Excel row number, or position in a JSON array (1-based). */
  line: number;
  /** Null for a JSON array entry that is not an object (the API's row_not_object). */
  values: Record<string, unknown> | null;
}

/** A file read into rows under its header, whatever its format. */
export interface Table {
  /** The header's column names in order; unique, none empty. */
  columns: string[];
  rows: TableRow[];
  /** How the file was read, for the summary printed before anything is sent. */
  description: string;
}

/**
 * Names the header's columns as written, trimmed; an empty one becomes "Column 3", a repeated
 * one "E-Mail (2)", so every column can be named in --map and none hides another.
 */
export function columnNames(header: readonly string[]): string[] {
  const used = new Set<string>();
  return header.map((raw, index) => {
    const base = raw.trim() || `Column ${index + 1}`;
    let name = base;
    for (let copy = 2; used.has(name.toLowerCase()); copy += 1) name = `${base} (${copy})`;
    used.add(name.toLowerCase());
    return name;
  });
}

/**
 * A table from a header and rows of cells (CSV, Excel). Cells past the header are ignored, and
 * so are rows without any value (the `;;;` lines Excel writes for formatted empty rows).
 */
export function tableOf(
  header: readonly string[],
  rows: readonly { line: number; cells: readonly string[] }[],
  description: string,
): Table {
  const columns = columnNames(header);
  return {
    columns,
    rows: rows
      .filter(({ cells }) => cells.some((cell) => cell.trim() !== ''))
      .map(({ line, cells }) => ({
        line,
        values: Object.fromEntries(columns.map((column, index) => [column, cells[index] ?? ''])),
      })),
    description,
  };
}
