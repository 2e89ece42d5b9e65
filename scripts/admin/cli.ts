/**
 * `npm run admin -- <resource> <command> [options]`: provisions tenants, API keys, galleries,
 * shooting days, packages and form fields. docs/admin-cli.md describes every command.
 */
import { stopQuietlyWhenReaderCloses } from '../cli-kit/output';
import { runAdmin } from './run-admin';

// Lambda runs Node.js 24; the SDK's notice about Node 20 support is noise where the local tools run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// Every command prints once its work is done: a reader that stops early (`| head`) only shortens the output.
stopQuietlyWhenReaderCloses();

void runAdmin(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((exitCode) => {
  process.exitCode = exitCode;
});
