import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../../scripts/local/free-port';
import { type ShellBlock, scriptOfRunnableBlocks, shellBlocksOf } from '../support/runnable-docs';
import { processesInGroup, spawnNpmStart, waitForBanner } from '../support/npm-start';

const ROOT = join(__dirname, '..', '..');

/** The documents whose commands a newcomer pastes first; each of their `sh` blocks is marked. */
const DOCUMENTS = ['README.md', 'docs/integrator-toolkit.md'];

const blocksOf = (document: string): ShellBlock[] => shellBlocksOf(readFileSync(join(ROOT, document), 'utf8'));

/**
 * A folder that looks like a checkout of the repository but has no `.local/` of its own yet:
 * every entry of the real one linked, except `.local/` (the developer's running servers) and
 * `examples/`, whose files are linked into a real folder so that what a command writes next
 * to them (an import report, a workbook) stays in the temporary folder.
 */
function throwawayCheckout(): string {
  const checkout = mkdtempSync(join(tmpdir(), 'docs-commands-'));
  for (const entry of readdirSync(ROOT)) {
    if (['.local', '.git', 'examples', 'test-output'].includes(entry)) continue;
    symlinkSync(join(ROOT, entry), join(checkout, entry));
  }
  mkdirSync(join(checkout, 'examples'));
  for (const file of readdirSync(join(ROOT, 'examples')))
    symlinkSync(join(ROOT, 'examples', file), join(checkout, 'examples', file));
  return checkout;
}

/** A shell as a newcomer has it: no variable of the test run (table, endpoints, keys) leaks in. */
function newcomersEnvironment(): NodeJS.ProcessEnv {
  const kept = ['PATH', 'HOME', 'USER', 'JAVA_HOME', 'TMPDIR', 'npm_config_cache'];
  return {
    ...Object.fromEntries(
      kept.filter((name) => process.env[name] !== undefined).map((name) => [name, process.env[name]]),
    ),
    LANG: 'C.UTF-8',
  };
}

/** A free port other than 3000, the default a hard-coded URL would assume. */
async function portOtherThanTheDefault(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port !== 3000) return port;
  }
}

describe('the shell blocks of the README and the integrator guide', () => {
  it.each(DOCUMENTS)(
    '%s: each says whether this test runs it (<!-- doc-test: run --> or <!-- doc-test: skip (why) -->)',
    (document) => {
      const unmarked = blocksOf(document).filter((block) => block.marker === undefined);
      expect(unmarked.map((block) => `${document}:${block.line}`)).toEqual([]);
      expect(blocksOf(document).some((block) => block.marker === 'run')).toBe(true);
    },
  );

  it.each(DOCUMENTS)('%s: no runnable block assumes port 3000, and each curl fails loudly', (document) => {
    for (const block of blocksOf(document).filter(({ marker }) => marker === 'run')) {
      expect({ block: `${document}:${block.line}`, localhost3000: block.code.includes('localhost:3000') }).toEqual({
        block: `${document}:${block.line}`,
        localhost3000: false,
      });
      const curls = block.code.split('\n').filter((line) => /^\s*curl\s/.test(line));
      for (const curl of curls) expect(curl).toContain('--fail-with-body');
    }
  });
});

describe('the README and the integrator guide, run as printed against npm start on another port', () => {
  let checkout: string;
  let groupId: number | undefined;

  beforeAll(async () => {
    checkout = throwawayCheckout();
    const child = spawnNpmStart(['--port', String(await portOtherThanTheDefault())], {
      cwd: checkout,
      env: newcomersEnvironment(),
    });
    groupId = child.pid;
    await waitForBanner(child);
  }, 90_000);

  afterAll(async () => {
    if (groupId === undefined) return;
    process.kill(-groupId, 'SIGINT');
    for (let attempt = 0; attempt < 50 && processesInGroup(groupId).length > 0; attempt += 1)
      await new Promise((resolve) => setTimeout(resolve, 100));
    if (processesInGroup(groupId).length > 0) process.kill(-groupId, 'SIGKILL');
  }, 10_000);

  it.each(DOCUMENTS)(
    '%s: every runnable block exits 0',
    (document) => {
      // Prepare
      const script = scriptOfRunnableBlocks(document, blocksOf(document));

      // Act: one bash, as a terminal, stopping at the first failing command.
      const run = spawnSync('bash', ['-e', '-o', 'pipefail', '-c', script], {
        cwd: checkout,
        env: newcomersEnvironment(),
        encoding: 'utf8',
        timeout: 60_000,
      });

      // Assess: on failure, the block it stopped in (the last ### line) and what it printed.
      expect({
        status: run.status,
        stderr: run.status === 0 ? '' : run.stderr.slice(-3000),
        stdout: run.status === 0 ? '' : run.stdout.slice(-2000),
      }).toEqual({ status: 0, stderr: '', stdout: '' });
    },
    70_000,
  );
});
