/** `npm run docs:permissions`: writes the per-function permission table of docs/deployment.md from the synthesized stack. */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { synthesizedPermissionTable, withPermissionTable } from './permission-table';

const document = join(__dirname, '..', 'docs', 'deployment.md');
writeFileSync(document, withPermissionTable(readFileSync(document, 'utf8'), synthesizedPermissionTable()));
console.log(`Wrote the permission table of ${document}`);
