import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Metafile } from 'esbuild';

/**
 * The files the face model (lib/faces/adapters/face-model.ts) reads at run time, which a bundle
 * that reaches it carries: face-api's networks and TensorFlow.js's WebAssembly backend. esbuild
 * bundles their JavaScript; these are data the code opens by path, named to it by
 * FACE_MODEL_DIR and FACE_WASM_DIR.
 */

const ROOT = join(__dirname, '..');

/** The module that reads FACE_MODEL_DIR and FACE_WASM_DIR: a bundle whose inputs hold it carries the files. */
export const FACE_MODEL_ADAPTER = 'lib/faces/adapters/face-model.ts';

/** Where the files come from, in the project's node_modules. */
const MODEL_SOURCE = join('node_modules', '@vladmandic', 'face-api', 'model');
const WASM_SOURCE = join('node_modules', '@tensorflow', 'tfjs-backend-wasm', 'dist');

/** The networks the adapter loads: the detector, the 68 landmarks that align a face, the 128-d descriptor. */
const FACE_NETWORKS = ['ssd_mobilenetv1_model', 'face_landmark_68_model', 'face_recognition_model'];

/** Each network's weights manifest, and the weight shards that the manifest names. */
export const FACE_MODEL_FILES: readonly string[] = FACE_NETWORKS.flatMap((network) => {
  const manifest = `${network}-weights_manifest.json`;
  const groups = JSON.parse(readFileSync(join(ROOT, MODEL_SOURCE, manifest), 'utf8')) as { paths: string[] }[];
  return [manifest, ...groups.flatMap((group) => group.paths)];
});

/**
 * The backend's binaries that the package has. In Node it loads the SIMD one where WebAssembly
 * SIMD validates (V8 has it on x64 and arm64), the plain one otherwise; the threaded one is never
 * loaded in Node, but it is one of the files setWasmPaths may name, and 0.4 MB.
 */
export const FACE_WASM_FILES: readonly string[] = [
  'tfjs-backend-wasm.wasm',
  'tfjs-backend-wasm-simd.wasm',
  'tfjs-backend-wasm-threaded-simd.wasm',
].filter((file) => existsSync(join(ROOT, WASM_SOURCE, file)));

/** The folders of a bundle that hold them. */
export const FACE_MODEL_FOLDER = 'face-model';
export const FACE_WASM_FOLDER = 'face-wasm';

/**
 * Where Lambda puts a function's code, the bundle's directory (its reserved variable
 * LAMBDA_TASK_ROOT, fixed for .zip packages). The variables name absolute paths below it, so
 * that they hold whatever the process' working directory is.
 */
export const LAMBDA_TASK_ROOT = '/var/task';

/**
 * FACE_MODEL_DIR and FACE_WASM_DIR for a bundle at `bundleRoot` (in Lambda, LAMBDA_TASK_ROOT).
 * FACE_WASM_DIR ends in `/`: setWasmPaths takes a prefix to which it appends the file's name.
 */
export function faceModelEnvironment(
  bundleRoot: string = LAMBDA_TASK_ROOT,
): Record<'FACE_MODEL_DIR' | 'FACE_WASM_DIR', string> {
  return { FACE_MODEL_DIR: `${bundleRoot}/${FACE_MODEL_FOLDER}`, FACE_WASM_DIR: `${bundleRoot}/${FACE_WASM_FOLDER}/` };
}

/** Whether a bundle reaches the face model adapter, however lazily. */
export function reachesFaceModel(metafile: Metafile): boolean {
  return Object.keys(metafile.inputs).includes(FACE_MODEL_ADAPTER);
}

/** Whether the bundle in `outdir` carries the face model's files. */
export function carriesFaceModel(outdir: string): boolean {
  return existsSync(join(outdir, FACE_MODEL_FOLDER));
}

/** Copies the face model's files from the project at `root` into `outdir/face-model` and `outdir/face-wasm`. */
export function shipFaceModel(outdir: string, root: string): void {
  for (const [folder, source, files] of [
    [FACE_MODEL_FOLDER, MODEL_SOURCE, FACE_MODEL_FILES],
    [FACE_WASM_FOLDER, WASM_SOURCE, FACE_WASM_FILES],
  ] as const) {
    mkdirSync(join(outdir, folder), { recursive: true });
    for (const file of files) copyFileSync(join(root, source, file), join(outdir, folder, file));
  }
}
