import { type ExecFileOptions, execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { rounded } from './statistics';

const runFile = promisify(execFile);

/** Runs `args` in a fresh node process (behind `prefix`, e.g. taskset, if given) with `options`; what it printed. */
export async function runNode(args: string[], options: ExecFileOptions = {}, prefix: string[] = []): Promise<string> {
  const [command, ...commandArgs] = [...prefix, process.execPath, ...args];
  const { stdout } = await runFile(command!, commandArgs, { maxBuffer: 16 * 1024 * 1024, ...options });
  return String(stdout);
}

/**
 * Runs `file` again in a fresh node process as `file child ...args` (behind `prefix`, if given),
 * so that what it measures, its peak memory included, is its own; the JSON it printed.
 */
export async function inChildProcess<Result>(file: string, args: string[], prefix: string[] = []): Promise<Result> {
  const env = { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' };
  return JSON.parse(await runNode([...process.execArgv, file, 'child', ...args], { env }, prefix)) as Result;
}

/** In the process inChildProcess started for `file`: `measure` with its arguments, its result printed as JSON. */
export function whenChildOf(file: string, measure: (args: string[]) => Promise<unknown>): void {
  const [entry, mode, ...args] = process.argv.slice(1);
  if (mode !== 'child' || resolve(entry ?? '') !== file) return;
  measure(args).then(
    (result) => process.stdout.write(JSON.stringify(result)),
    (error: Error) => {
      console.error(error.stack ?? error.message);
      process.exitCode = 1;
    },
  );
}

/** `work` given a new directory of its own under the system's temporary directory, removed after it. */
export async function inTemporaryDirectory<Result>(work: (directory: string) => Promise<Result>): Promise<Result> {
  const directory = mkdtempSync(join(tmpdir(), 'groupshoot-bench-'));
  try {
    return await work(directory);
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** This process's resident memory in MB: `VmHWM`, its peak (which, unlike getrusage's maxrss, starts anew at exec), or `VmRSS`, now. */
export function residentMb(field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync('/proc/self/status', 'utf8');
  return rounded(Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(status)![1]) / 1024, 1);
}
