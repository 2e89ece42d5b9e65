import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

/** Process IDs still alive in a process group (empty once everything has exited). */
function processesInGroup(groupId: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '-g', String(groupId)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
  } catch {
    return []; // ps exits 1 when nothing matches
  }
}

function waitForBanner(child: ChildProcess): Promise<{ baseUrl: string; apiKey: string; token: string; slug: string; connectionFile: string }> {
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`npm start printed no banner:\n${output}`)), 60_000);
    child.stderr!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (!output.includes('Press Ctrl-C to stop.')) return;
      clearTimeout(timer);
      const field = (label: string) => new RegExp(`${label}\\s+(\\S+)`).exec(output)?.[1] ?? '';
      resolve({ baseUrl: field('Base URL'), apiKey: field('API key'), token: field('Gallery'), slug: field('Tenant slug'), connectionFile: field('Written to') });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}

/** The test run's table and endpoint must not leak into the child: it starts its own. */
function withoutTestEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TABLE_NAME: _table, DYNAMODB_ENDPOINT: _endpoint, PORT: _port, ...rest } = env;
  return rest;
}

describe('npm start', () => {
  it('serves the seeded demo with the printed key, names itself in a connection file of its own, and Ctrl-C leaves no process and no file behind', async () => {
    // Prepare: its own process group, as a terminal gives it; Ctrl-C signals the whole group.
    const child = spawn('npm', ['start', '--', '--port', '0'], {
      cwd: ROOT,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: withoutTestEnvironment(process.env),
    });
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
      expect(processesInGroup(groupId).length).toBeGreaterThan(1); // npm, node and the JVM at least
      process.kill(-groupId, 'SIGINT');

      // Assess
      expect(response.status).toBe(200);
      expect(body.ok).toBe(true);
      expect(body.shootingDays).toHaveLength(3);
      expect(((await reference.json()) as { openapi: string }).openapi).toBe('3.1.0');
      expect(await checkinPage.text()).toContain('checkin.js');
      // What the CLIs find it by (scripts/cli-kit/local-servers.ts): its own process, port and values.
      expect(demo.connectionFile).toBe(join(ROOT, '.local', 'servers', `${connection.pid}.json`));
      expect(processesInGroup(groupId)).toContain(connection.pid);
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
      execFileSync(join(bin, 'node'), [join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/local/start.ts'], {
        cwd: ROOT,
        env: { ...withoutTestEnvironment(process.env), PATH: bin },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
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
