import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../scripts/cli-kit/cli-errors';
import { localShellValues, shellAssignments } from '../../scripts/local/local-shell-values';
import { LIVE_PROCESS_IDS, writeServerFile } from '../support/connection-files';
import { useLocalApi } from '../support/local-api';
import { createTestTenant } from '../support/factories';

const api = useLocalApi();
const ROOT = join(__dirname, '..', '..');

/** What bash has in BASE, TENANT, API_KEY and TOKEN after `eval` of `assignments`, and its exit status. */
function evaluated(assignments: string): { status: number | null; values: string[] } {
  const run = spawnSync('bash', ['-c', 'eval "$ASSIGNMENTS" && printf "%s\\n" "$BASE" "$TENANT" "$API_KEY" "$TOKEN"'], {
    env: { PATH: process.env.PATH, ASSIGNMENTS: assignments },
    encoding: 'utf8',
  });
  return { status: run.status, values: run.stdout.split('\n').slice(0, 4) };
}

describe('npm run -s local-env', () => {
  it("prints the running server's URL, tenant, key and gallery as shell variables, once its API has answered", async () => {
    // Prepare: a server's connection file in a folder of its own, naming the API of this test.
    const studio = await createTestTenant();
    const workingDirectory = mkdtempSync(join(tmpdir(), 'local-env-'));
    writeServerFile(workingDirectory, {
      pid: LIVE_PROCESS_IDS[0],
      port: 3999,
      baseUrl: api.url,
      tenantSlug: studio.slug,
      apiKey: studio.apiKey,
      galleryToken: studio.token,
    });

    // Act
    const assignments = await localShellValues([], workingDirectory);

    // Assess
    expect(evaluated(assignments)).toEqual({ status: 0, values: [api.url, studio.slug, studio.apiKey, studio.token] });
  });

  it('quotes each value as one shell word, whatever it holds', () => {
    const values = { baseUrl: "http://x/v1'; rm -rf ~; '", tenantSlug: 'a b', apiKey: '$HOME', galleryToken: '`id`' };

    expect(evaluated(shellAssignments(values))).toEqual({ status: 0, values: Object.values(values) });
  });

  it('refuses where no npm start runs', async () => {
    const workingDirectory = mkdtempSync(join(tmpdir(), 'local-env-none-'));

    await expect(localShellValues([], workingDirectory)).rejects.toThrow(UsageError);
    await expect(localShellValues([], workingDirectory)).rejects.toThrow(
      /No npm start runs from .*: start it with `npm start`/,
    );
  });

  it('makes the eval fail, not leave the variables empty, where no npm start runs', () => {
    // Prepare: a folder without .local/servers.
    const workingDirectory = mkdtempSync(join(tmpdir(), 'local-env-eval-'));
    const command = `eval "$('${process.execPath}' '${join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs')}' '${join(ROOT, 'scripts', 'local', 'local-env.ts')}')" && echo "BASE=$BASE"`;

    // Act
    const run = spawnSync('bash', ['-c', command], {
      cwd: workingDirectory,
      env: { PATH: process.env.PATH },
      encoding: 'utf8',
    });

    // Assess
    expect(run.status).not.toBe(0);
    expect(run.stdout).toBe('');
    expect(run.stderr).toContain('No npm start runs from');
  });
});
