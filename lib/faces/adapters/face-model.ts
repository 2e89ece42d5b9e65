import { dirname, join } from 'node:path';
import type { default as SharpFunction } from 'sharp';
import type { DetectedFace } from '#lib/faces/rules/face-descriptors';
import { type SearchView, isCutByTile, searchTiles, viewPixels, withoutRepeats } from '#lib/faces/rules/search-tiles';
import type * as FaceApiModule from '@vladmandic/face-api/dist/face-api.node-wasm.js';
import type * as TensorFlowModule from '@tensorflow/tfjs';
import type * as TensorFlowWasmBackend from '@tensorflow/tfjs-backend-wasm';

type FaceApi = typeof FaceApiModule;
/** face-api's `tf` is the TensorFlow.js it requires, with the WebAssembly backend's exports merged in; its own typing covers only what face-api uses. */
type TensorFlow = typeof TensorFlowModule & Pick<typeof TensorFlowWasmBackend, 'setWasmPaths'>;

/**
 * The files of the three models describeFaces runs, in the model directory: SSD MobileNet v1
 * (detection), the 68-point landmarks (alignment) and the recognition network (descriptors).
 * A bundle copies exactly these (about 12.5 MB) and sets FACE_MODEL_DIR.
 */
export const FACE_MODEL_FILES = [
  'ssd_mobilenetv1_model-weights_manifest.json',
  'ssd_mobilenetv1_model.bin',
  'face_landmark_68_model-weights_manifest.json',
  'face_landmark_68_model.bin',
  'face_recognition_model-weights_manifest.json',
  'face_recognition_model.bin',
] as const;

/**
 * The WebAssembly binaries of TensorFlow.js's backend that Node can load: the SIMD build
 * (every Node since 16) and the plain one, its fallback. The threaded build is never chosen
 * in Node (tfjs-backend-wasm turns threads off there). A bundle copies these and sets FACE_WASM_DIR.
 */
export const FACE_WASM_FILES = ['tfjs-backend-wasm-simd.wasm', 'tfjs-backend-wasm.wasm'] as const;

/**
 * Longest side of the image the faces are searched in. The detector sees 512 × 512 whatever it
 * is given, and the descriptor a 150 × 150 crop of the face, so a larger image mostly costs
 * time and memory: a 24 MP photo takes 7.9 s and 2.1 GB at full size, 1.2 s and 423 MB at
 * 1024, which finds the same faces in the demo photos (docs/photos.md#thresholds).
 */
export const FACE_SEARCH_MAX_DIMENSION = 1024;

/**
 * The detector's score a face needs. On the packaged faces (docs/photos.md#thresholds), 0.4
 * finds 210 of 228 (face-api's default of 0.5: 199) with descriptors as close as those above
 * 0.5, while below 0.3 the descriptors of the faces found drift apart; nothing in the photos
 * without a face tried scored above 0.2.
 */
export const FACE_MIN_CONFIDENCE = 0.4;

/** Most pixels a photo may declare: 110 MP, as the shoot photo reader allows. */
const MAX_IMAGE_PIXELS = 110_000_000;
const DECODE_TIMEOUT_SECONDS = 20;

/** The bytes are not an image sharp can decode (or are truncated, or too large). */
export class UnreadableFaceImageError extends Error {
  override readonly name = 'UnreadableFaceImageError';

  constructor() {
    super('The image could not be decoded to look for faces.');
  }
}

/** The WebAssembly backend did not come up (missing or unreadable .wasm files). */
export class FaceModelBackendError extends Error {
  override readonly name = 'FaceModelBackendError';
}

interface FaceModel {
  faceapi: FaceApi;
  tf: TensorFlow;
  sharp: typeof SharpFunction;
}

let faceModel: Promise<FaceModel> | undefined;
/** The model once its load has finished, for the figures below. */
let loadedModel: FaceModel | undefined;

/**
 * Loads the face model once per process: TensorFlow.js on its WebAssembly backend, then the
 * three models from disk (FACE_MODEL_FILES). The first call pays it (seconds); later calls
 * share the same promise. A failed load is not kept: the next call tries again, except that
 * TensorFlow.js cannot start its WebAssembly backend a second time in a process.
 */
export async function loadFaceModel(): Promise<void> {
  await faceModelLoaded();
}

function faceModelLoaded(): Promise<FaceModel> {
  faceModel ??= loadModel().catch((error: unknown) => {
    faceModel = undefined;
    throw error;
  });
  return faceModel;
}

let backendStarted = false;

async function loadModel(): Promise<FaceModel> {
  const [imported, { default: sharp }] = await Promise.all([
    import('@vladmandic/face-api/dist/face-api.node-wasm.js'),
    import('sharp'),
  ]);
  // A CommonJS build: from source its exports come named; from an ES module bundle, as `default` only.
  const faceapi = (imported as FaceApi & { default?: FaceApi }).default ?? imported;
  sharp.cache(false);
  const tf = faceapi.tf as unknown as TensorFlow;
  if (tf.getBackend() !== 'wasm') await startWasmBackend(tf);
  const modelDirectory = faceModelDirectory();
  const nets = [faceapi.nets.ssdMobilenetv1, faceapi.nets.faceLandmark68Net, faceapi.nets.faceRecognitionNet];
  await Promise.all(nets.filter((net) => !net.isLoaded).map((net) => net.loadFromDisk(modelDirectory)));
  loadedModel = { faceapi, tf, sharp };
  return loadedModel;
}

async function startWasmBackend(tf: TensorFlow): Promise<void> {
  if (backendStarted)
    throw new FaceModelBackendError(
      'The WebAssembly backend failed to start earlier in this process, and TensorFlow.js cannot start it again',
    );
  backendStarted = true;
  // Without the paths, a bundle cannot find the .wasm files, and TensorFlow.js quietly falls
  // back to its plain JavaScript backend, about 20 times slower.
  tf.setWasmPaths(withTrailingSlash(faceWasmDirectory()));
  await tf.setBackend('wasm');
  await tf.ready();
  if (tf.getBackend() !== 'wasm')
    throw new FaceModelBackendError(
      `TensorFlow.js runs on "${tf.getBackend()}", not on its WebAssembly backend: are ${FACE_WASM_FILES.join(' and ')} in ${faceWasmDirectory()}?`,
    );
}

/** FACE_MODEL_DIR, else the models face-api ships. */
export function faceModelDirectory(): string {
  return (
    process.env.FACE_MODEL_DIR ?? join(installedPackageDirectory('@vladmandic/face-api', 'FACE_MODEL_DIR'), 'model')
  );
}

/** FACE_WASM_DIR, else the binaries the installed backend ships. */
export function faceWasmDirectory(): string {
  return (
    process.env.FACE_WASM_DIR ??
    join(installedPackageDirectory('@tensorflow/tfjs-backend-wasm', 'FACE_WASM_DIR'), 'dist')
  );
}

/**
 * An installed package's folder, from source (tsx, jest: CommonJS). A function bundle (an ES
 * module, without `require` or with one that finds no package) carries the files itself and
 * names them in the environment.
 */
function installedPackageDirectory(name: string, variable: string): string {
  try {
    return dirname(require.resolve(`${name}/package.json`));
  } catch {
    throw new FaceModelBackendError(`${variable} is not set, and ${name} is not installed where this code runs`);
  }
}

const withTrailingSlash = (directory: string) => (directory.endsWith('/') ? directory : `${directory}/`);

/** The backend TensorFlow.js runs on ('wasm' once loaded), for tests and the bench. */
export function faceModelBackend(): string {
  return loadedModel?.tf.getBackend() ?? 'not loaded';
}

/** Tensors TensorFlow.js holds (the models' weights once loaded): a describeFaces that leaks shows here. */
export function faceModelTensorCount(): number {
  return loadedModel?.tf.memory().numTensors ?? 0;
}

/** How describeFaces searches; the defaults are what the second opinion uses, the rest is for measuring them. */
export interface FaceSearchOptions {
  minConfidence?: number;
  maxDimension?: number;
  /** Whether a photo whose first search finds no face, or only small ones, is searched again in tiles (default true). */
  secondPass?: boolean;
}

/**
 * Longest side of the image the second pass cuts into tiles. The detector sees a tile at
 * 512 × 512 whatever its pixels; the landmarks and the descriptor use them: a face at 10 % of a
 * 24 MP landscape photo's height is 137 px high there, against 68 px in the first search
 * (docs/photos.md#detection-by-framing).
 */
export const SECOND_PASS_MAX_DIMENSION = 2048;

/**
 * The height, in the first search's pixels, below which the largest face found sends a photo
 * to the second pass: 100 px is about 10 % of a portrait photo's height, where descriptors
 * start to drift from the same face seen larger.
 */
export const SECOND_PASS_BELOW_FACE_HEIGHT = 100;

/**
 * Every face in an image (JPEG, PNG or whatever sharp decodes), turned upright by its EXIF
 * orientation: its box in the upright image's pixels, the detector's score and its 128-number
 * descriptor. Loads the model on first use. An image without faces gives []; bytes that are no
 * image throw UnreadableFaceImageError.
 *
 * The image is searched whole at most FACE_SEARCH_MAX_DIMENSION px, as the detector sees any
 * input at 512 × 512. When that finds no face, or none SECOND_PASS_BELOW_FACE_HEIGHT high, it
 * is searched again at SECOND_PASS_MAX_DIMENSION in overlapping squares (lib/faces/rules/search-tiles.ts),
 * where a small face is larger to the detector and described from more pixels, and, when it
 * found none, zoomed out as well, where a face filling the frame is smaller to it. A face found
 * only by the first search is kept as it found it.
 */
export async function describeFaces(image: Buffer, options: FaceSearchOptions = {}): Promise<DetectedFace[]> {
  const model = await faceModelLoaded();
  const minConfidence = options.minConfidence ?? FACE_MIN_CONFIDENCE;
  const whole = await decodeForSearch(model.sharp, image, options.maxDimension ?? FACE_SEARCH_MAX_DIMENSION);
  const firstFaces = await describeViews(model, whole, [{ kind: 'whole' }], minConfidence);
  const largest = Math.max(0, ...firstFaces.map(({ box }) => box.height / whole.scale));
  if (options.secondPass === false || largest >= SECOND_PASS_BELOW_FACE_HEIGHT) return firstFaces;
  const closer = await decodeForSearch(model.sharp, image, SECOND_PASS_MAX_DIMENSION);
  const tileViews = searchTiles(closer.width, closer.height).map((tile) => ({ kind: 'tile', tile }) as const);
  const secondFaces = [
    ...(await describeViews(model, closer, tileViews, minConfidence)),
    ...(firstFaces.length === 0 ? await describeViews(model, whole, [{ kind: 'zoomed-out' }], minConfidence) : []),
  ];
  return withoutRepeats([...secondFaces.sort((a, b) => b.score - a.score), ...firstFaces]);
}

/**
 * The faces the model finds in each view of a decoded image, in the upright photo's pixels,
 * leaving out those a tile cuts at an edge inside the image (a neighbouring tile holds them whole).
 */
async function describeViews(
  { faceapi, tf }: FaceModel,
  decoded: DecodedImage,
  views: readonly SearchView[],
  minConfidence: number,
): Promise<DetectedFace[]> {
  const faces: DetectedFace[] = [];
  for (const view of views) {
    const shown = viewPixels(decoded, view);
    const offset = view.kind === 'tile' ? view.tile : { left: 0, top: 0 };
    const tensor = tf.tensor3d(shown.pixels, [shown.height, shown.width, 3], 'int32');
    try {
      const found = await faceapi
        .detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence }))
        .withFaceLandmarks()
        .withFaceDescriptors();
      for (const { detection, descriptor } of found) {
        const box = {
          x: detection.box.x + offset.left,
          y: detection.box.y + offset.top,
          width: detection.box.width,
          height: detection.box.height,
        };
        if (view.kind === 'tile' && isCutByTile(box, view.tile, decoded)) continue;
        faces.push({
          box: {
            x: box.x * decoded.scale,
            y: box.y * decoded.scale,
            width: box.width * decoded.scale,
            height: box.height * decoded.scale,
          },
          score: detection.score,
          descriptor: Array.from(descriptor),
        });
      }
    } finally {
      tensor.dispose();
    }
  }
  return faces;
}

interface DecodedImage {
  pixels: Buffer;
  width: number;
  height: number;
  /** Upright image pixels per decoded pixel (1 when the image was not reduced). */
  scale: number;
}

/** RGB pixels, upright, at most `maxDimension` on the longest side. */
async function decodeForSearch(
  sharp: typeof SharpFunction,
  image: Buffer,
  maxDimension: number,
): Promise<DecodedImage> {
  const options = { failOn: 'error', limitInputPixels: MAX_IMAGE_PIXELS } as const;
  try {
    const { autoOrient } = await sharp(image, options).metadata();
    const { data, info } = await sharp(image, options)
      .autoOrient()
      .resize({ width: maxDimension, height: maxDimension, fit: 'inside', withoutEnlargement: true })
      .toColourspace('srgb')
      .removeAlpha()
      .raw()
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`${info.channels} channels`);
    return { pixels: data, width: info.width, height: info.height, scale: autoOrient.width / info.width };
  } catch {
    throw new UnreadableFaceImageError();
  }
}
