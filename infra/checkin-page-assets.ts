import { buildSync } from 'esbuild';
import { join } from 'node:path';

/** The check-in page's QR encoder, next to its files (web/index.html loads it). */
export const QR_ENCODER_FILE = 'qr-encoder.js';

const ROOT = join(__dirname, '..');
let built: string | undefined;

/**
 * The QR encoder of the reference page: the core of the `qrcode` npm package (text to module
 * matrix, no renderer, no Node APIs) bundled by esbuild into one browser script that defines
 * `window.QRCodeCore` (`QRCodeCore.create(text, options).modules`: `size` and `get(row, column)`).
 * web/ has no build step, so this one file is built where the page is served: by the local
 * server (scripts/local/checkin-page.ts) and by the CDK stack into the page bucket. About 20 KB.
 */
export function buildQrEncoder(): string {
  built ??= buildSync({
    stdin: {
      contents: "module.exports = require('qrcode/lib/core/qrcode');",
      resolveDir: ROOT,
      sourcefile: QR_ENCODER_FILE,
    },
    absWorkingDir: ROOT,
    bundle: true,
    format: 'iife',
    globalName: 'QRCodeCore',
    platform: 'browser',
    target: 'es2017',
    minify: true,
    write: false,
    logLevel: 'warning',
    banner: {
      js: '/* QR encoder of the check-in page: the core of qrcode (MIT, Ryan Day) with dijkstrajs (MIT), bundled by esbuild. */',
    },
  }).outputFiles[0]!.text;
  return built;
}
