/**
 * `npm run -s local-env [-- --data DIR]`: prints the running `npm start`'s BASE, TENANT, API_KEY
 * and TOKEN as shell assignments, for `eval "$(npm run -s local-env)"`
 * (scripts/local/local-shell-values.ts says how the server is found).
 */
import { reportFailure } from '../cli-kit/cli-errors';
import { localShellValues } from './local-shell-values';

const USAGE =
  'Usage: eval "$(npm run -s local-env [-- --data DIR])"   sets BASE, TENANT, API_KEY and TOKEN from the running npm start';

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  if (args.includes('--help')) {
    console.error(USAGE);
    return;
  }
  try {
    console.log(await localShellValues(args, process.cwd()));
  } catch (error) {
    process.exitCode = reportFailure(error, { err: (line) => console.error(line) });
    // What `eval` runs: a failing command, so that the eval (and a script under `set -e`) fails too.
    console.log('false');
  }
}

void main();
