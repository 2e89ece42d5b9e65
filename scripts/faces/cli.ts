/**
 * `npm run faces -- calibrate DIR | --packaged`: measures the face model on photos of
 * consenting people and suggests a gallery's face thresholds. docs/photos.md#thresholds describes it.
 */
import { runFaces } from './run-faces';

void runFaces(process.argv.slice(2), {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
}).then((exitCode) => {
  process.exitCode = exitCode;
});
