/**
 * `npm run deploy`: the guided deploy into a studio's own AWS account (docs/deployment.md).
 */
import { runDeploy } from './run-deploy';

// Lambda runs Node.js 24; the SDK's notice about Node 20 support is noise where the local tools run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

void runDeploy(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((exitCode) => {
  process.exitCode = exitCode;
});
