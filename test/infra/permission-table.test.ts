import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PolicyStatement } from 'aws-cdk-lib/aws-iam';
import {
  TABLE_END,
  TABLE_START,
  renderPermissionTable,
  synthesizedPermissionTable,
} from '../../infra/permission-table';
import { unbundledStack } from './unbundled-stack';

const DOCUMENT = join(__dirname, '..', '..', 'docs', 'deployment.md');

/** The generated block of docs/deployment.md, without its markers. */
function documentedTable(): string[] {
  const text = readFileSync(DOCUMENT, 'utf8');
  return text
    .slice(text.indexOf(TABLE_START) + TABLE_START.length, text.indexOf(TABLE_END))
    .trim()
    .split('\n');
}

describe("docs/deployment.md's per-function permission table", () => {
  it('is what the synthesized stack grants (npm run docs:permissions writes it)', () => {
    // Act
    const synthesized = synthesizedPermissionTable();
    // Assess
    expect(documentedTable()).toEqual(synthesized);
  });

  it('has a row for every function of the stack', () => {
    // Prepare
    const { stack } = unbundledStack();
    // Act
    const handlers = documentedTable()
      .slice(2)
      .map((row) => /^\| `([^`]+)`/.exec(row)?.[1]);
    // Assess
    expect(handlers.sort()).toEqual([...stack.functions.keys()].sort());
  });

  it("shows a grant added to a function's role in its row", () => {
    // Prepare
    const built = unbundledStack({}, (stack) =>
      stack.functions.get('http/route-not-matched')!.addToRolePolicy(
        new PolicyStatement({
          actions: ['sqs:SendMessage'],
          resources: ['arn:aws:sqs:eu-central-1:123456789012:anything'],
        }),
      ),
    );
    // Act
    const table = renderPermissionTable(built.template.toJSON().Resources, built.functionIds);
    // Assess
    expect(table.find((row) => row.startsWith('| `http/route-not-matched`'))).toContain(
      'sends to `arn:aws:sqs:eu-central-1:123456789012:anything`',
    );
    expect(table.find((row) => row.startsWith('| `http/cors-preflight`'))).toBe(
      '| `http/cors-preflight` |   |   |   |   |',
    );
  });
});
