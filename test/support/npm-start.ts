/**
 * `npm start` as a child process in a process group of its own, as a terminal runs it, for the
 * tests that need the whole local stack (test/integration/local-start.test.ts,
 * test/integration/docs-commands.test.ts).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';

/** What the banner of `npm start` shows. */
export interface StartBanner {
  baseUrl: string;
  apiKey: string;
  token: string;
  slug: string;
  connectionFile: string;
}

/** Process IDs still alive in a process group (empty once everything has exited). */
export function processesInGroup(groupId: number): number[] {
  try {
    return execFileSync('ps', ['-o', 'pid=', '-g', String(groupId)], { encoding: 'utf8' })
      .split('\n')
      .map((line) => Number(line.trim()))
      .filter((pid) => pid > 0);
  } catch {
    return []; // ps exits 1 when nothing matches
  }
}

/** The values of the banner, once `npm start` has printed it; rejects when it exits first or takes a minute. */
export function waitForBanner(child: ChildProcess): Promise<StartBanner> {
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
      resolve({
        baseUrl: field('Base URL'),
        apiKey: field('API key'),
        token: field('Gallery'),
        slug: field('Tenant slug'),
        connectionFile: field('Written to'),
      });
    });
    child.once('exit', (code) => reject(new Error(`npm start exited with ${code}:\n${output}`)));
  });
}

/** The test run's table and endpoint must not leak into the child: it starts its own. */
export function withoutTestEnvironment(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { TABLE_NAME: _table, DYNAMODB_ENDPOINT: _endpoint, PORT: _port, ...rest } = env;
  return rest;
}

/** Starts `npm start` with `args` in `cwd`, in a process group of its own whose ID is the child's. */
export function spawnNpmStart(args: readonly string[], options: { cwd: string; env: NodeJS.ProcessEnv }): ChildProcess {
  return spawn('npm', ['start', '--', ...args], {
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: options.env,
  });
}
