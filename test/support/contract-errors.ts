import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ERROR_TABLE_DOCUMENT } from './documented-errors';

/**
 * The API contract, kept outside the repository: `shared/` sits beside the clone (in CI, a
 * read-only copy), so from the repository's root it is `../shared/spec/group-shoot-api.md`.
 */
export const CONTRACT_DOCUMENT = join(__dirname, '..', '..', '..', 'shared', 'spec', 'group-shoot-api.md');

/** The heading of docs/api-reference.md's list of the codes the service adds to the contract's. */
const ADDITIONS_HEADING = '## Codes beyond the contract';

/** The rows `| <status> | <code> | <condition> |` of a markdown text's error tables: each code with its status. */
export function errorTableRows(text: string): ReadonlyMap<string, number> {
  return new Map([...text.matchAll(/^\| (\d{3}) \| ([a-z_]+) \|/gm)].map((row) => [row[2]!, Number(row[1])]));
}

/** The codes of the additions table (rows ``| `<code>` | <why> |``) under ADDITIONS_HEADING, up to the next heading. */
export function documentedAdditions(text: string): ReadonlySet<string> {
  const start = text.indexOf(`\n${ADDITIONS_HEADING}\n`);
  if (start === -1) throw new Error(`No "${ADDITIONS_HEADING}" section`);
  const section = text.slice(start + ADDITIONS_HEADING.length + 2).split(/\n#{1,6} /)[0]!;
  return new Set([...section.matchAll(/^\| `([a-z_]+)` \|/gm)].map((row) => row[1]!));
}

/** The contract's error table; fails with the path it looked at when shared/ is not beside the clone. */
export function contractErrorStatuses(): ReadonlyMap<string, number> {
  if (!existsSync(CONTRACT_DOCUMENT))
    throw new Error(`The contract is not at ${CONTRACT_DOCUMENT}: shared/ must sit beside the repository`);
  return errorTableRows(readFileSync(CONTRACT_DOCUMENT, 'utf8'));
}

/** The codes docs/api-reference.md documents as the service's own, beyond the contract. */
export function documentedAdditionCodes(): ReadonlySet<string> {
  return documentedAdditions(readFileSync(ERROR_TABLE_DOCUMENT, 'utf8'));
}

export interface ContractCodeInputs {
  /** Each route (by id) with the codes it can answer and their statuses. */
  readonly answered: ReadonlyMap<string, ReadonlyMap<string, number>>;
  /** The contract's error table: code → status. */
  readonly contract: ReadonlyMap<string, number>;
  /** The codes documented as the service's own, beyond the contract. */
  readonly additions: ReadonlySet<string>;
}

/**
 * What breaks "contract codes only", as sentences (none when all is well):
 * - a code a route can answer that is neither the contract's nor a documented addition;
 * - a contract code answered with another status than the contract's;
 * - an addition that is a contract code (the contract's code must be answered as the contract's);
 * - an addition that no route answers (the list has gone stale).
 */
export function contractCodeProblems({ answered, contract, additions }: ContractCodeInputs): string[] {
  const problems: string[] = [];
  const answeredAnywhere = new Set<string>();
  for (const [route, codes] of answered) {
    for (const [code, status] of codes) {
      answeredAnywhere.add(code);
      const contractStatus = contract.get(code);
      if (contractStatus === undefined && !additions.has(code))
        problems.push(
          `${route} can answer ${code}, which is neither in the contract's error table nor a documented addition`,
        );
      if (contractStatus !== undefined && contractStatus !== status)
        problems.push(`${route} answers ${code} with ${status}; the contract says ${contractStatus}`);
    }
  }
  for (const code of additions) {
    if (contract.has(code)) problems.push(`${code} is documented as an addition, but it is a code of the contract`);
    if (!answeredAnywhere.has(code)) problems.push(`${code} is documented as an addition, but no route answers it`);
  }
  return [...new Set(problems)].sort();
}
