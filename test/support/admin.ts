import { runAdmin } from '../../scripts/admin/run-admin';
import type { CliEnvironment } from '../../scripts/cli-kit/local-servers';

export interface AdminRun {
  code: number;
  out: string;
  err: string[];
  json(): any;
}

/** `npm run admin -- ...argv` in this process, against this test file's table. */
export function admin(...argv: string[]): Promise<AdminRun> {
  return adminIn({ env: process.env, workingDirectory: process.cwd() }, ...argv);
}

/**
 * The same with an environment and a working directory of its own, for what the CLI makes of
 * them (which local server, which variables); the table it reads is still this test file's.
 */
export async function adminIn(environment: CliEnvironment, ...argv: string[]): Promise<AdminRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (line) => out.push(line), err: (line) => err.push(line) }, environment);
  return { code, out: out.join('\n'), err, json: () => JSON.parse(out.join('\n')) };
}
