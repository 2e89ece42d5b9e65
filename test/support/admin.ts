import { runAdmin } from '../../scripts/admin/run-admin';

export interface AdminRun {
  code: number;
  out: string;
  err: string[];
  json(): any;
}

/** `npm run admin -- ...argv` in this process, against this test file's table. */
export async function admin(...argv: string[]): Promise<AdminRun> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (line) => out.push(line), err: (line) => err.push(line) });
  return { code, out: out.join('\n'), err, json: () => JSON.parse(out.join('\n')) };
}
