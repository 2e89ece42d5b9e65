/**
 * `npm run studio -- --tenant SLUG [--data DIR] [--port N]`: the studio console (docs/studio-console.md),
 * a page on 127.0.0.1 that drives the admin CLI's commands for one tenant. It finds the table and
 * the bucket as the admin CLI does: a running `npm start`, or TABLE_NAME and MEDIA_BUCKET set.
 */
import { EXIT_CODE, UsageError, reportFailure } from '../cli-kit/cli-errors';
import { parseCommandLine } from '../cli-kit/command-line';
import { optionalText, optionalWholeNumber, tenantSlug } from '../cli-kit/options';
import { requireEnvironment, useLocalTable } from '../cli-kit/table-environment';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const USAGE = 'Usage: npm run studio -- --tenant SLUG [--data DIR] [--port N]';

async function main(argv: readonly string[]): Promise<number> {
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  try {
    const { values } = parseCommandLine(
      argv,
      { tenant: { type: 'string' }, data: { type: 'string' }, port: { type: 'string' }, help: { type: 'boolean' } },
      { command: 'studio', help: 'npm run studio -- --help' },
    );
    if (values.help === true) {
      io.out(USAGE);
      return EXIT_CODE.ok;
    }
    const tenant = tenantSlug(values, 'tenant');
    const port = optionalWholeNumber(values, 'port', 1);
    if (port !== undefined && port > 65535) throw new UsageError('--port must be at most 65535');
    const environment = { env: process.env, workingDirectory: process.cwd() };
    const note = useLocalTable(environment, optionalText(values, 'data'));
    if (note) io.err(note);
    requireEnvironment(environment.env, ['TABLE_NAME']);
    if (!process.env.MEDIA_BUCKET) io.err('MEDIA_BUCKET is not set: the review queue shows no thumbnails');
    // Loaded once the environment is set: lib/platform/ reads it on import.
    const { startStudio } = await import('./studio-server');
    const studio = await startStudio({ tenant, port });
    io.out(`Studio console of tenant "${tenant}": ${studio.url}`);
    io.out('Only this URL opens it (it holds the session secret); stop with Ctrl-C');
    const stop = () => void studio.close().finally(() => process.exit(EXIT_CODE.ok));
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
    return EXIT_CODE.ok;
  } catch (error) {
    return reportFailure(error, io);
  }
}

void main(process.argv.slice(2)).then((exitCode) => {
  if (exitCode !== EXIT_CODE.ok) process.exitCode = exitCode;
});
