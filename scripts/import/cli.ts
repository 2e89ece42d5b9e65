import { runImport } from './run-import';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
void runImport(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  interactive: process.stderr.isTTY === true,
}).then((code) => {
  process.exitCode = code;
});
