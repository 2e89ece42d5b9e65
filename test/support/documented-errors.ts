import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The document that holds the error table: one row `| <status> | <code> | <condition> |` per code. */
export const ERROR_TABLE_DOCUMENT = join(__dirname, '..', '..', 'docs', 'api-reference.md');

/** Every error code the documentation's error table lists, with its HTTP status. */
export function documentedErrorStatuses(): ReadonlyMap<string, number> {
  const text = readFileSync(ERROR_TABLE_DOCUMENT, 'utf8');
  return new Map([...text.matchAll(/^\| (\d{3}) \| ([a-z_]+) \|/gm)].map((row) => [row[2]!, Number(row[1])]));
}
