import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { faceDistance } from '#lib/faces/rules/face-descriptors';
import { THUMBNAILS_IDENTITY, packagedFaces, withAugmentations } from '../faces/packaged-faces';
import { median, rounded } from './statistics';

/**
 * The probe behind the choice of face-api over human (docs/photos.md#thresholds): both on
 * TensorFlow.js's WebAssembly backend, each in a fresh process, on the same packaged faces and
 * their augmentations: cold load, time per photo, peak memory, faces found, and how far apart
 * the same person's faces and different people's faces lie in each one's descriptors.
 *
 *   npx tsx scripts/bench/face-models-compared.ts
 */

const runFile = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
type ModelName = 'face-api' | 'human';

interface ChildFigures {
  loadMilliseconds: number;
  medianMilliseconds: number;
  cpuMillisecondsPerPhoto: number;
  peakRssMb: number;
  /** Per photo, in the order of the packaged faces with augmentations: the main face's descriptor, or null. */
  descriptors: (number[] | null)[];
}

export interface ModelComparison {
  model: ModelName;
  loadMilliseconds: number;
  medianMilliseconds: number;
  cpuMillisecondsPerPhoto: number;
  peakRssMb: number;
  photos: number;
  facesFound: number;
  /** Photos where both models found a face: the distances below are measured on these. */
  foundByBoth: number;
  pairs: string;
  descriptorLength: number;
  /** Thumbnails of the man whose nearest other original is another of his. */
  nearestIsSamePerson: string;
  /** Where false accepts and false rejects are equal, over all pairs, in the model's own distances. */
  equalErrorRate: number;
  /** False rejects at the largest distance with at most 1 % false accepts. */
  falseRejectRateAtOnePercentFalseAccepts: number;
}

const statusKb = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

type Describe = (image: Buffer) => Promise<number[] | null>;

async function loadFaceApi(): Promise<Describe> {
  const { describeFaces, loadFaceModel } = await import('#lib/faces/adapters/face-model');
  const { mainFace } = await import('#lib/faces/rules/face-descriptors');
  await loadFaceModel();
  return async (image) => mainFace(await describeFaces(image))?.descriptor ?? null;
}

/** human 3.3.6 on the WebAssembly backend, with the face parts its descriptor needs (detector, mesh, faceres). */
async function loadHuman(): Promise<Describe> {
  // human fetches its models, and Node's fetch reads no file: URL.
  const networkFetch = globalThis.fetch;
  globalThis.fetch = (async (input: Parameters<typeof fetch>[0], init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    return url.startsWith('file://') ? new Response(readFileSync(new URL(url))) : networkFetch(input, init);
  }) as typeof fetch;
  // Its package.json names its builds without "./", which Node refuses as exports: required by path.
  const { Human } = require(join(ROOT, 'node_modules/@vladmandic/human/dist/human.node-wasm.js'));
  const { default: sharp } = await import('sharp');
  const human = new Human({
    backend: 'wasm',
    wasmPath: `${join(ROOT, 'node_modules/@tensorflow/tfjs-backend-wasm/dist')}/`,
    modelBasePath: `file://${join(ROOT, 'node_modules/@vladmandic/human/models')}/`,
    debug: false,
    face: {
      enabled: true,
      detector: { rotation: true },
      mesh: { enabled: true },
      iris: { enabled: false },
      description: { enabled: true },
      emotion: { enabled: false },
      antispoof: { enabled: false },
      liveness: { enabled: false },
    },
    body: { enabled: false },
    hand: { enabled: false },
    object: { enabled: false },
    gesture: { enabled: false },
    segmentation: { enabled: false },
  });
  await human.load();
  if (human.tf.getBackend() !== 'wasm') throw new Error(`human runs on ${human.tf.getBackend()}`);
  return async (image) => {
    const { data, info } = await sharp(image).autoOrient().removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const tensor = human.tf.tensor3d(data, [info.height, info.width, 3], 'int32');
    try {
      const { face } = await human.detect(tensor);
      const largest = [...face].sort(
        (a: { box: number[] }, b: { box: number[] }) => b.box[2]! * b.box[3]! - a.box[2]! * a.box[3]!,
      )[0];
      return largest?.embedding ? Array.from(largest.embedding as number[]) : null;
    } finally {
      tensor.dispose();
    }
  };
}

async function measureInThisProcess(model: ModelName): Promise<void> {
  const photos = await withAugmentations(await packagedFaces());
  const startedAt = performance.now();
  const describe = await (model === 'face-api' ? loadFaceApi() : loadHuman());
  const loadMilliseconds = performance.now() - startedAt;
  await describe(photos[0]!.image);
  const samples: number[] = [];
  const descriptors: (number[] | null)[] = [];
  const cpuBefore = process.cpuUsage();
  for (const { image } of photos) {
    const photoStartedAt = performance.now();
    descriptors.push(await describe(image));
    samples.push(performance.now() - photoStartedAt);
  }
  const cpu = process.cpuUsage(cpuBefore);
  const figures: ChildFigures = {
    loadMilliseconds: rounded(loadMilliseconds),
    medianMilliseconds: rounded(median(samples)),
    cpuMillisecondsPerPhoto: rounded((cpu.user + cpu.system) / 1000 / samples.length),
    peakRssMb: rounded(statusKb('VmHWM') / 1024 / 1024, 1),
    descriptors,
  };
  process.stdout.write(JSON.stringify(figures));
}

/**
 * Runs both models, each in a process of its own, and compares them; the distances on the
 * photos where both found a face, so that neither is judged on pictures the other skipped.
 */
export async function compareFaceModels(): Promise<ModelComparison[]> {
  const photos = await withAugmentations(await packagedFaces());
  const runs: Array<{ model: ModelName; figures: ChildFigures }> = [];
  for (const model of ['face-api', 'human'] as const) {
    const { stdout } = await runFile(process.execPath, [...process.execArgv, __filename, 'child', model], {
      maxBuffer: 256 * 1024 * 1024,
    });
    runs.push({ model, figures: JSON.parse(stdout) as ChildFigures });
  }
  const foundByBoth = photos
    .map((_, index) => runs.every(({ figures }) => figures.descriptors[index]))
    .flatMap((both, index) => (both ? [index] : []));
  return runs.map(({ model, figures }) => {
    const described = foundByBoth.map((index) => ({ ...photos[index]!, descriptor: figures.descriptors[index]! }));
    const genuine: number[] = [];
    const impostor: number[] = [];
    for (let first = 0; first < described.length; first += 1) {
      for (let second = first + 1; second < described.length; second += 1) {
        const distance = faceDistance(described[first]!.descriptor, described[second]!.descriptor);
        (described[first]!.identity === described[second]!.identity ? genuine : impostor).push(distance);
      }
    }
    const originals = described.filter((photo) => !/\] \S+$/.test(photo.source));
    const thumbnails = originals.filter((photo) => photo.identity === THUMBNAILS_IDENTITY);
    const nearestIsSame = thumbnails.filter((thumbnail) => {
      const others = originals
        .filter((other) => other !== thumbnail)
        .sort(
          (a, b) => faceDistance(thumbnail.descriptor, a.descriptor) - faceDistance(thumbnail.descriptor, b.descriptor),
        );
      return others[0]?.identity === thumbnail.identity;
    }).length;
    return {
      model,
      loadMilliseconds: figures.loadMilliseconds,
      medianMilliseconds: figures.medianMilliseconds,
      cpuMillisecondsPerPhoto: figures.cpuMillisecondsPerPhoto,
      peakRssMb: figures.peakRssMb,
      photos: photos.length,
      facesFound: figures.descriptors.filter(Boolean).length,
      foundByBoth: foundByBoth.length,
      pairs: `${genuine.length} genuine, ${impostor.length} impostor`,
      descriptorLength: described[0]?.descriptor.length ?? 0,
      nearestIsSamePerson: `${nearestIsSame} of ${thumbnails.length}`,
      ...separation(genuine, impostor),
    };
  });
}

/** Threshold-free figures, so that descriptors of different scales compare. */
function separation(
  genuine: number[],
  impostor: number[],
): Pick<ModelComparison, 'equalErrorRate' | 'falseRejectRateAtOnePercentFalseAccepts'> {
  const sortedImpostor = [...impostor].sort((a, b) => a - b);
  const falseRejectRate = (threshold: number) =>
    genuine.filter((distance) => distance > threshold).length / genuine.length;
  const falseAcceptRate = (threshold: number) =>
    impostor.filter((distance) => distance <= threshold).length / impostor.length;
  const atOnePercent = sortedImpostor[Math.floor(sortedImpostor.length * 0.01)]!;
  let equalErrorRate = 1;
  for (const threshold of [...genuine, ...impostor].sort((a, b) => a - b)) {
    const rejects = falseRejectRate(threshold);
    const accepts = falseAcceptRate(threshold);
    if (accepts >= rejects) {
      equalErrorRate = (accepts + rejects) / 2;
      break;
    }
  }
  return {
    equalErrorRate: rounded(equalErrorRate, 4),
    falseRejectRateAtOnePercentFalseAccepts: rounded(falseRejectRate(atOnePercent), 4),
  };
}

const [mode, model] = process.argv.slice(2);
if (mode === 'child') void measureInThisProcess(model as ModelName);
else if (require.main === module) void compareFaceModels().then((rows) => console.log(JSON.stringify(rows, null, 2)));
