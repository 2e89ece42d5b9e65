import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processesInGroup, spawnNpmStart, waitForBanner, withoutTestEnvironment } from '../support/npm-start';

const ROOT = join(__dirname, '..', '..');

describe('npm start', () => {
  it('serves the seeded demo with the printed key, names itself in a connection file of its own, and Ctrl-C leaves no process and no file behind', async () => {
    // Prepare: its own process group, as a terminal gives it; Ctrl-C signals the whole group.
    const child = spawnNpmStart(['--port', '0'], { cwd: ROOT, env: withoutTestEnvironment(process.env) });
    // npm itself dies of the SIGINT, as in a terminal; what matters is what its children do.
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    const groupId = child.pid!;
    try {
      const demo = await waitForBanner(child);

      // Act
      const response = await fetch(`${demo.baseUrl}/groupshoot/${demo.token}/days`, {
        headers: { 'X-Tenant-Slug': demo.slug, Authorization: `Bearer ${demo.apiKey}` },
      });
      const body = (await response.json()) as { ok: boolean; shootingDays: unknown[] };
      const reference = await fetch(demo.baseUrl.replace(/\/v1$/, '/docs/openapi.json'));
      const checkinPage = await fetch(demo.baseUrl.replace(/\/v1$/, `/checkin/?token=${demo.token}`));
      const connection = JSON.parse(readFileSync(demo.connectionFile, 'utf8'));
      // Read before Ctrl-C: the server may be gone by the time the answers are assessed.
      const processesBeforeInterrupt = processesInGroup(groupId);
      process.kill(-groupId, 'SIGINT');

      // Assess
      expect(response.status).toBe(200);
      expect(body.ok).toBe(true);
      expect(body.shootingDays).toHaveLength(3);
      expect(((await reference.json()) as { openapi: string }).openapi).toBe('3.1.0');
      expect(await checkinPage.text()).toContain('checkin.js');
      // What the CLIs find it by (scripts/cli-kit/local-servers.ts): its own process, port and values.
      expect(demo.connectionFile).toBe(join(ROOT, '.local', 'servers', `${connection.pid}.json`));
      expect(processesBeforeInterrupt.length).toBeGreaterThan(1); // npm, node and the JVM at least
      expect(processesBeforeInterrupt).toContain(connection.pid);
      expect(connection).toEqual(
        expect.objectContaining({
          port: Number(new URL(demo.baseUrl).port),
          baseUrl: demo.baseUrl,
          tenantSlug: demo.slug,
          apiKey: demo.apiKey,
          tableName: expect.any(String),
          dynamoDbEndpoint: expect.stringMatching(/^http:/),
          mediaBucket: expect.any(String),
          s3Endpoint: expect.stringMatching(/^http:/),
        }),
      );
      await exited;
      for (let attempt = 0; attempt < 50 && processesInGroup(groupId).length > 0; attempt += 1) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(processesInGroup(groupId)).toEqual([]);
      expect(existsSync(demo.connectionFile)).toBe(false);
      await expect(fetch(`${demo.baseUrl}/groupshoot/${demo.token}/days`)).rejects.toThrow();
    } finally {
      if (processesInGroup(groupId).length > 0) process.kill(-groupId, 'SIGKILL');
    }
  }, 90_000);
});

describe('npm start without Java', () => {
  it('explains in one line what to install and exits 1', () => {
    // Prepare: a PATH with node only, no java.
    const bin = mkdtempSync(join(tmpdir(), 'no-java-'));
    symlinkSync(process.execPath, join(bin, 'node'));
    // Act
    let status = 0;
    let stderr = '';
    try {
      execFileSync(
        join(bin, 'node'),
        [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/local/start.ts'],
        {
          cwd: ROOT,
          env: { ...withoutTestEnvironment(process.env), PATH: bin },
          stdio: ['ignore', 'pipe', 'pipe'],
        },
      );
    } catch (error) {
      status = (error as { status: number }).status;
      stderr = String((error as { stderr: Buffer }).stderr);
    }
    // Assess
    expect(status).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toContain('apt-get install openjdk-17-jre-headless');
  });
});
