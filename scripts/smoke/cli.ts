/**
 * `npm run smoke -- --api-url URL --tenant SLUG --api-key KEY`: the check of a deployed stage (or
 * of `npm start`) that docs/deployment.md#after-a-deploy-npm-run-smoke describes.
 */
import { stopQuietlyWhenReaderCloses } from '../cli-kit/output';
import { runSmoke } from './run-smoke';

// Lambda runs Node.js 24; the SDK's notice about Node 20 support is noise where the local tools run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
stopQuietlyWhenReaderCloses();

void runSmoke(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((exitCode) => {
  process.exitCode = exitCode;
});
