import { readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { type BuildOptions, type Metafile, buildSync } from 'esbuild';
import { carriesFaceModel, faceModelEnvironment, reachesFaceModel, shipFaceModel } from './face-model-assets';
import { type FunctionArchitecture, NATIVE_PACKAGES, shipNativePackage } from './native-packages';

/**
 * How every function is bundled, and the bench's baseline with it. An ES module with code
 * splitting: what a handler reaches only through `import()` (Stripe, the S3 client, sharp) becomes
 * files of their own that Node reads and compiles only when a request needs them, not at
 * every cold start. The pinned AWS SDK is bundled from its ES module builds, so unused
 * commands are shaken out. Native packages (sharp) stay external: a bundle that reaches one
 * carries it installed, with its binary for the function's architecture (native-packages.ts).
 * WebAssembly (ZXing) is bundled as bytes. The face model's networks and WebAssembly are files
 * the code opens by path: a bundle that reaches the model carries them (face-model-assets.ts).
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
  // WebAssembly a handler imports (ZXing's reader, lib/photos/sorting/adapters/shoot-photo-reader.ts) is embedded
  // as bytes in the chunk that imports it: nothing to locate at run time, nothing fetched.
  loader: { '.wasm': 'binary' },
  // CommonJS code bundled into an ES module still calls require() for Node's built-ins
  // (TensorFlow.js's util, its WebAssembly glue's fs and path), and the glue reads __dirname;
  // an ES module has neither. __filename stays undefined: the shoot photo reader tells a bundle
  // from the sources by it.
  banner: {
    js: 'import{createRequire as __createRequire}from"node:module";const require=__createRequire(import.meta.url);',
  },
  define: { __dirname: 'import.meta.dirname' },
  minify: true,
  // Node reads a bundle's source maps at every cold start (FUNCTION_NODE_OPTIONS), for the logged
  // stack frames (lib/platform/logger.ts), which need the mappings only: without the sources'
  // text, a function's maps are about a fifth of the size.
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
} as const satisfies BuildOptions;

/** Node's options in every function: logged stack frames name the source files and lines, not the bundle's. */
export const FUNCTION_NODE_OPTIONS = '--enable-source-maps';

/** The file Lambda loads, relative to the bundle's directory; the handler is `index.handler`. */
export const BUNDLE_ENTRY_FILE = 'index.mjs';

/** The architecture the functions run on (service-function.ts: arm64, Graviton). */
export const FUNCTION_ARCHITECTURE: FunctionArchitecture = 'arm64';

/** Lambda's limit on a function's code unzipped (layers included; the functions have none). */
export const UNZIPPED_CODE_LIMIT_BYTES = 250 * 1024 * 1024;

/**
 * Bundles `entry` into the empty directory `outdir` and returns the path of its entry file.
 * Native packages the code imports are copied into `outdir/node_modules` with their binaries
 * for Linux on `architecture`; the stack's bundles are for FUNCTION_ARCHITECTURE, tests also
 * build some for the machine they run on. A bundle that reaches the face model carries its
 * files. Throws when the bundle is larger than Lambda takes, rather than at deployment.
 */
export function bundleFunction(
  entry: string,
  outdir: string,
  absWorkingDir: string,
  architecture: FunctionArchitecture = FUNCTION_ARCHITECTURE,
): string {
  rmSync(outdir, { recursive: true, force: true });
  const { metafile } = buildSync({
    ...FUNCTION_BUNDLE_OPTIONS,
    metafile: true,
    entryPoints: [entry],
    outdir,
    absWorkingDir,
  });
  for (const name of nativePackagesImported(metafile)) shipNativePackage(name, outdir, architecture, absWorkingDir);
  if (reachesFaceModel(metafile)) shipFaceModel(outdir, absWorkingDir);
  const size = bundleSize(outdir);
  if (size > UNZIPPED_CODE_LIMIT_BYTES)
    throw new Error(`${entry} bundles to ${size} bytes, more than Lambda's ${UNZIPPED_CODE_LIMIT_BYTES} unzipped`);
  return join(outdir, BUNDLE_ENTRY_FILE);
}

/**
 * The environment a function needs to find what its bundle in `outdir` carries, beside the
 * stack's own: where the face model's files are in Lambda, for a bundle that has them.
 */
export function bundleEnvironment(outdir: string): Record<string, string> {
  return carriesFaceModel(outdir) ? faceModelEnvironment() : {};
}

/** The bytes of every file under `directory`, as Lambda counts a package unzipped. */
export function bundleSize(directory: string): number {
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .reduce((sum, entry) => sum + statSync(join(entry.parentPath, entry.name)).size, 0);
}

/** The native packages that any output file of the bundle imports. */
function nativePackagesImported(metafile: Metafile): string[] {
  const imported = Object.values(metafile.outputs).flatMap((output) =>
    output.imports.filter((item) => item.external).map((item) => item.path),
  );
  return Object.keys(NATIVE_PACKAGES).filter((name) =>
    imported.some((path) => path === name || path.startsWith(`${name}/`)),
  );
}
