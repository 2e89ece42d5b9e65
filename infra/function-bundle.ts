import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, buildSync } from 'esbuild';

/**
 * How every function is bundled, and the bench's baseline with it. An ES module with code
 * splitting: what a handler reaches only through `import()` (Stripe, the S3 client) becomes
 * files of their own that Node reads and compiles only when a request needs them, not at
 * every cold start. The pinned AWS SDK is bundled from its ES module builds, so unused
 * commands are shaken out.
 */
export const FUNCTION_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node24',
  format: 'esm',
  splitting: true,
  mainFields: ['module', 'main'],
  entryNames: 'index',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** The file Lambda loads, relative to the bundle's directory; the handler is `index.handler`. */
export const BUNDLE_ENTRY_FILE = 'index.mjs';

/** Bundles `entry` into the empty directory `outdir` and returns the path of its entry file. */
export function bundleFunction(entry: string, outdir: string, absWorkingDir: string): string {
  rmSync(outdir, { recursive: true, force: true });
  buildSync({ ...FUNCTION_BUNDLE_OPTIONS, entryPoints: [entry], outdir, absWorkingDir });
  return join(outdir, BUNDLE_ENTRY_FILE);
}
