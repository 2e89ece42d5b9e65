/**
 * `npm start` and `npm run studio` as child processes, as a photographer runs them in two
 * terminals, for the studio console's browser tests (test/e2e/studio-console.e2e.ts). This test
 * process then reads and writes the table and the bucket of that `npm start`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useLocalTable } from '../../scripts/cli-kit/table-environment';
import { type StartBanner, processesInGroup, spawnNpmStart, waitForBanner, withoutTestEnvironment } from './npm-start';

const ROOT = join(__dirname, '..', '..');

/** The child's environment: nothing of this test run's table, bucket or port, so that it finds the `npm start` of `--data`. */
function childEnvironment(): NodeJS.ProcessEnv {
  const { MEDIA_BUCKET: _bucket, S3_ENDPOINT: _s3, ...rest } = withoutTestEnvironment(process.env);
  return rest;
}

/** Stops a child started in a process group of its own (by its ID), as Ctrl-C in its terminal would, then for good. */
async function stopGroup(child: ChildProcess): Promise<void> {
  const groupId = child.pid!;
  if (processesInGroup(groupId).length === 0) return;
  process.kill(-groupId, 'SIGINT');
  for (let attempt = 0; attempt < 100 && processesInGroup(groupId).length > 0; attempt += 1)
    await new Promise((resolve) => setTimeout(resolve, 100));
  if (processesInGroup(groupId).length > 0) process.kill(-groupId, 'SIGKILL');
}

export interface LocalStack {
  banner: StartBanner;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * Starts `npm start` with a data folder of its own and points this process at it as the CLIs
 * find it (useLocalTable: its table, bucket, webhook sealing key, LOCAL_STACK), in place of this
 * test run's: import the project's modules only after it, as they read these on import.
 */
export async function startLocalStack(): Promise<LocalStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'studio-e2e-'));
  const child = spawnNpmStart(['--port', '0', '--data', dataDir], { cwd: ROOT, env: childEnvironment() });
  try {
    const banner = await waitForBanner(child);
    for (const name of ['TABLE_NAME', 'DYNAMODB_ENDPOINT', 'MEDIA_BUCKET', 'S3_ENDPOINT', 'WEBHOOK_SEALING_KEY'])
      delete process.env[name];
    useLocalTable({ env: process.env, workingDirectory: ROOT }, dataDir);
    return {
      banner,
      dataDir,
      stop: async () => {
        await stopGroup(child);
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await stopGroup(child);
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
}

export interface StudioProcess {
  /** The address it printed, secret included. */
  url: string;
  stop(): Promise<void>;
}

/** `npm run studio -- --tenant SLUG --data DIR`, once it has printed its address. */
export async function startStudioProcess(tenant: string, dataDir: string): Promise<StudioProcess> {
  const child = spawn('npm', ['run', 'studio', '--', '--tenant', tenant, '--data', dataDir], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: childEnvironment(),
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      const timer = setTimeout(() => reject(new Error(`npm run studio printed no address:\n${output}`)), 60_000);
      const read = (chunk: Buffer) => {
        output += chunk.toString();
        const printed = /Studio console of tenant "[^"]+": (http:\/\/127\.0\.0\.1:\d+\/\S+\/)/.exec(output);
        if (!printed) return;
        clearTimeout(timer);
        resolve(printed[1]!);
      };
      child.stdout.on('data', read);
      child.stderr.on('data', read);
      child.once('exit', (code) => reject(new Error(`npm run studio exited with ${code}:\n${output}`)));
    });
    return { url, stop: () => stopGroup(child) };
  } catch (error) {
    await stopGroup(child);
    throw error;
  }
}
