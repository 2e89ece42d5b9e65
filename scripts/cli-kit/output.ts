/** What the CLIs print: results as plain-text tables and fields, or as JSON with --json. */

/**
 * Ends the process quietly, with the exit code it has so far, once the reader of `stream` has
 * gone (`npm run admin -- ... | head -1`): the next write fails with EPIPE, which Node reports as
 * an error event and, unheard, as a crash with a stack trace. The commands print after their
 * work is done, so nothing is cut short but the output nobody reads. Other write errors stay
 * errors.
 */
export function stopQuietlyWhenReaderCloses(stream: NodeJS.WriteStream = process.stdout): void {
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(typeof process.exitCode === 'number' ? process.exitCode : 0);
  });
}

/** Where a command writes: standard output for results, standard error for messages. */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
}

/** A command's result in both forms; `--json` prints `data`, otherwise `lines` are printed. */
export interface PrintableResult {
  data: unknown;
  lines: readonly string[];
}

/** Prints a result to standard output, as JSON (two-space indented) or as its lines. */
export function printResult(io: Pick<CliIo, 'out'>, result: PrintableResult, asJson: boolean): void {
  if (asJson) io.out(JSON.stringify(result.data, null, 2));
  else printLines(io, result.lines);
}

/** Prints lines to standard output, one call each, so a test's io records them as printed. */
export function printLines(io: Pick<CliIo, 'out'>, lines: readonly string[]): void {
  for (const line of lines) io.out(line);
}

/** Rows under a header, each column as wide as its widest cell; "(none)" for no rows. */
export function formatTable(header: string[], rows: string[][]): string[] {
  if (rows.length === 0) return ['  (none)'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    `  ${cells.map((cell, column) => cell.padEnd(widths[column] ?? 0)).join('  ')}`.trimEnd();
  return [line(header), ...rows.map(line)];
}

/** `label  value` pairs with the values aligned; pairs without a value are left out. */
export function formatFields(pairs: Array<[string, string | undefined]>): string[] {
  const shown = pairs.filter((pair): pair is [string, string] => pair[1] !== undefined);
  const width = Math.max(...shown.map(([label]) => label.length));
  return shown.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`);
}

/** Booleans as operators read them in tables. */
export function yesNo(value: boolean): string {
  return value ? 'yes' : 'no';
}

/** 2900 eur -> "29.00 EUR", using the currency's own number of decimals (0 for JPY). */
export function formatPrice(price: number, currency: string): string {
  const code = currency.toUpperCase();
  let decimals = 2;
  try {
    decimals =
      new Intl.NumberFormat('en', { style: 'currency', currency: code }).resolvedOptions().maximumFractionDigits ?? 2;
  } catch {
    // An unknown code stored by other means is still shown, with two decimals.
  }
  return `${(price / 10 ** decimals).toFixed(decimals)} ${code}`;
}
