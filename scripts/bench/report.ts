type Flat = Record<string, string | number | boolean>;

/** A Markdown table, so that the output can be pasted into the docs as it is. */
export function markdownTable(header: string[], rows: (string | number | boolean)[][]): string {
  const line = (cells: (string | number | boolean)[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(header.map(() => '---')), ...rows.map(line)].join('\n');
}

/**
 * A section's figures as Markdown, named as they are in the JSON: a list of records as one table,
 * a row each (a column each when it has more figures than records, so that three load scenarios
 * stay readable), a record as a table of its figures; nested names dotted, lists of values joined.
 */
export function figuresAsMarkdown(result: unknown): string {
  // A record of lists of records (the scale section): a table each, under its name.
  const lists = result !== null && typeof result === 'object' && !Array.isArray(result) ? Object.entries(result) : [];
  if (lists.length > 0 && lists.every(([, value]) => Array.isArray(value) && typeof value[0] === 'object'))
    return lists.map(([name, value]) => `#### ${name}\n\n${figuresAsMarkdown(value)}`).join('\n\n');
  if (!Array.isArray(result)) return markdownTable(['Figure', 'Value'], Object.entries(flatten(result)));
  const rows = result.map((element) => flatten(element));
  const names = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cells = rows.map((row) => names.map((name) => row[name] ?? ''));
  if (names.length <= rows.length) return markdownTable(names, cells);
  const [first, ...others] = names.map((name, column) => [name, ...cells.map((row) => row[column]!)]);
  return markdownTable(first!.map(String), others);
}

function flatten(value: unknown, prefix = '', into: Flat = {}): Flat {
  const isRecordList = Array.isArray(value) && value.some((element) => typeof element === 'object');
  if (value !== null && typeof value === 'object' && (isRecordList || !Array.isArray(value))) {
    for (const [key, element] of Object.entries(value)) flatten(element, `${prefix}${key}.`, into);
  } else into[prefix.slice(0, -1)] = Array.isArray(value) ? value.join(', ') : (value as string | number | boolean);
  return into;
}
