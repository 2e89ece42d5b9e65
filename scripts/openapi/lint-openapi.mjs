// `npm run openapi:lint`: the Redocly linter (recommended rules) over docs/openapi.json.
// An ES module of its own: @redocly/openapi-core is ESM only. Prints one line per error; exit 1 on errors.
import { readFileSync } from 'node:fs';
import { createConfig, lintFromString } from '@redocly/openapi-core';

const file = process.argv[2] ?? 'docs/openapi.json';
const config = await createConfig({ extends: ['recommended'], rules: { 'security-defined': 'off' } });
const problems = await lintFromString({ source: readFileSync(file, 'utf8'), absoluteRef: file, config });
const errors = problems.filter((problem) => problem.severity === 'error');
for (const problem of errors) console.log(`${problem.ruleId}: ${problem.message} at ${problem.location[0]?.pointer}`);
console.log(`${errors.length} errors, ${problems.length - errors.length} warnings`);
process.exit(errors.length > 0 ? 1 : 0);
