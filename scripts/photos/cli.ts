/**
 * `npm run photos -- upload DIR --tenant … --gallery …`: uploads a shoot folder to a gallery's
 * inbox, where ingest sorts the photos to persons by their camera cards. docs/photos.md describes it.
 */
import { runPhotos } from './run-photos';

// Lambda runs Node.js 24; the SDK's notice about Node 20 support is noise where the local tools run on Node 20.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

void runPhotos(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  progress: process.stderr.isTTY ? process.stderr : undefined,
}).then((exitCode) => {
  process.exitCode = exitCode;
});
