import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, type Metafile, buildSync } from 'esbuild';
import { type FunctionArchitecture, NATIVE_PACKAGES, shipNativePackage } from './native-packages';

/**
 * How every function is bundled, and the bench's baseline with it. An ES module with code
 * splitting: what a handler reaches only through `import()` (Stripe, the S3 client, sharp) becomes
 * files of their own that Node reads and compiles only when a request needs them, not at
 * every cold start. The pinned AWS SDK is bundled from its ES module builds, so unused
 * commands are shaken out. Native packages (sharp) stay external: a bundle that reaches one
 * carries it installed, with its binary for the function's architecture (native-packages.ts).
 * WebAssembly (ZXing) is bundled as bytes.
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
  external: Object.keys(NATIVE_PACKAGES),
  // WebAssembly a handler imports (ZXing's reader, lib/photos/adapters/shoot-photo-reader.ts) is embedded
  // as bytes in the chunk that imports it: nothing to locate at run time, nothing fetched.
  loader: { '.wasm': 'binary' },
  minify: true,
  sourcemap: true,
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** The file Lambda loads, relative to the bundle's directory; the handler is `index.handler`. */
export const BUNDLE_ENTRY_FILE = 'index.mjs';

/** The architecture the functions run on (service-function.ts: arm64, Graviton). */
export const FUNCTION_ARCHITECTURE: FunctionArchitecture = 'arm64';

/**
 * Bundles `entry` into the empty directory `outdir` and returns the path of its entry file.
 * Native packages the code imports are copied into `outdir/node_modules` with their binaries
 * for Linux on `architecture`; the stack's bundles are for FUNCTION_ARCHITECTURE, tests also
 * build some for the machine they run on.
 */
export function bundleFunction(entry: string, outdir: string, absWorkingDir: string, architecture: FunctionArchitecture = FUNCTION_ARCHITECTURE): string {
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = buildSync({ ...FUNCTION_BUNDLE_OPTIONS, metafile: true, entryPoints: [entry], outdir, absWorkingDir });
  for (const name of nativePackagesImported(metafile)) shipNativePackage(name, outdir, architecture, absWorkingDir);
  return join(outdir, BUNDLE_ENTRY_FILE);
}

/** The native packages that any output file of the bundle imports. */
function nativePackagesImported(metafile: Metafile): string[] {
  const imported = Object.values(metafile.outputs).flatMap((output) => output.imports.filter((item) => item.external).map((item) => item.path));
  return Object.keys(NATIVE_PACKAGES).filter((name) => imported.some((path) => path === name || path.startsWith(`${name}/`)));
}
