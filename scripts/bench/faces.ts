import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import { packagedFaces, packagedPhoto } from '../faces/packaged-faces';
import { median, rounded } from './statistics';

/**
 * What the face model costs (lib/faces/adapters/face-model.ts, face-api on TensorFlow.js's
 * WebAssembly backend): its cold load, in fresh processes (the first photo of an instance pays
 * it), then per photo the time to find the faces and describe them, on the packaged face crops
 * (one face each, as a portrait) and on face-api's demo photos (1920 px, three to five faces
 * each), and the peak memory of a process that does nothing else.
 *
 *   npx tsx scripts/bench/faces.ts [rounds]
 */

const runFile = promisify(execFile);

const DEMO_PHOTOS = [1, 2, 3, 4, 5, 6].map((number) => `@vladmandic/face-api/demo/sample${number}.jpg`);

export interface FaceModelSettings {
  /** Fresh processes that each load the model once. */
  loadProcesses: number;
  /** Times each photo is described after the first. */
  rounds: number;
  /** At most this many face crops and demo photos (all when undefined). */
  crops?: number;
  groupPhotos?: number;
}

export interface FaceModelResult {
  rounds: number;
  /** TensorFlow.js, the WebAssembly backend and the three models, from the import on; median of loadProcesses. */
  coldLoadMilliseconds: number;
  loadProcesses: number;
  crops: PhotoFigures;
  groupPhotos: PhotoFigures;
  /** VmHWM of the process that described every photo, and VmRSS once the model was loaded. */
  peakRssMb: number;
  loadedRssMb: number;
  backend: string;
}

export interface PhotoFigures {
  photos: number;
  faces: number;
  medianMilliseconds: number;
  /** Process CPU time (all threads) per photo. */
  cpuMillisecondsPerPhoto: number;
  /** The first photo after the load: the first run of each model compiles its kernels. */
  firstPhotoMilliseconds: number;
}

const megabytes = (bytes: number) => rounded(bytes / 1024 / 1024, 1);
const statusKb = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

/**
 * The median milliseconds the model alone takes per photo (decode, detection, landmarks and
 * descriptors), in this process: the model is loaded and the first photo described once before
 * timing. The figure to compare a photo ingest with face matching against.
 */
export async function modelAloneMsPerPhoto(images: readonly Buffer[]): Promise<number> {
  if (images.length === 0) throw new Error('modelAloneMsPerPhoto needs at least one photo');
  const { describeFaces, loadFaceModel } = await import('#lib/faces/adapters/face-model');
  await loadFaceModel();
  await describeFaces(images[0]!);
  const samples: number[] = [];
  for (const image of images) {
    const startedAt = performance.now();
    await describeFaces(image);
    samples.push(performance.now() - startedAt);
  }
  return rounded(median(samples));
}

/** Loads the model in fresh processes, then describes the photos in another. */
export async function measureFaceModel(settings: FaceModelSettings): Promise<FaceModelResult> {
  const loads: number[] = [];
  for (let process = 0; process < settings.loadProcesses; process += 1) loads.push(Number(await inChild(['load'])));
  const described = JSON.parse(
    await inChild([
      'describe',
      String(settings.rounds),
      String(settings.crops ?? ''),
      String(settings.groupPhotos ?? ''),
    ]),
  ) as Omit<FaceModelResult, 'coldLoadMilliseconds' | 'loadProcesses' | 'rounds'>;
  return {
    rounds: settings.rounds,
    coldLoadMilliseconds: rounded(median(loads)),
    loadProcesses: settings.loadProcesses,
    ...described,
  };
}

async function inChild(args: string[]): Promise<string> {
  const { stdout } = await runFile(process.execPath, [...process.execArgv, __filename, 'child', ...args], {
    maxBuffer: 16 * 1024 * 1024,
  });
  return stdout;
}

async function loadInThisProcess(): Promise<void> {
  const startedAt = performance.now();
  const { loadFaceModel } = await import('#lib/faces/adapters/face-model');
  await loadFaceModel();
  process.stdout.write(String(performance.now() - startedAt));
}

async function describeInThisProcess(
  rounds: number,
  cropCount: number | undefined,
  groupPhotoCount: number | undefined,
): Promise<void> {
  const crops = (await packagedFaces()).slice(0, cropCount).map((face) => face.image);
  const groupPhotos = DEMO_PHOTOS.slice(0, groupPhotoCount).map(packagedPhoto);
  const { describeFaces, faceModelBackend, loadFaceModel } = await import('#lib/faces/adapters/face-model');
  await loadFaceModel();
  const loadedRss = statusKb('VmRSS');
  const measure = async (photos: Buffer[]): Promise<PhotoFigures> => {
    const firstStartedAt = performance.now();
    await describeFaces(photos[0]!);
    const firstPhotoMilliseconds = performance.now() - firstStartedAt;
    const samples: number[] = [];
    let faces = 0;
    const cpuBefore = process.cpuUsage();
    for (let round = 0; round < rounds; round += 1) {
      faces = 0;
      for (const photo of photos) {
        const startedAt = performance.now();
        faces += (await describeFaces(photo)).length;
        samples.push(performance.now() - startedAt);
      }
    }
    const cpu = process.cpuUsage(cpuBefore);
    return {
      photos: photos.length,
      faces,
      medianMilliseconds: rounded(median(samples)),
      cpuMillisecondsPerPhoto: rounded((cpu.user + cpu.system) / 1000 / samples.length),
      firstPhotoMilliseconds: rounded(firstPhotoMilliseconds),
    };
  };
  const cropFigures = await measure(crops);
  const groupFigures = await measure(groupPhotos);
  const figures: Omit<FaceModelResult, 'coldLoadMilliseconds' | 'loadProcesses' | 'rounds'> = {
    crops: cropFigures,
    groupPhotos: groupFigures,
    peakRssMb: megabytes(statusKb('VmHWM')),
    loadedRssMb: megabytes(loadedRss),
    backend: faceModelBackend(),
  };
  process.stdout.write(JSON.stringify(figures));
}

/** The figures as a Markdown table with its heading, as the bench prints them. */
export function formatFaceModel(result: FaceModelResult): string {
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const row = (label: string, figures: PhotoFigures) =>
    line([
      label,
      figures.photos,
      figures.faces,
      figures.medianMilliseconds,
      figures.cpuMillisecondsPerPhoto,
      figures.firstPhotoMilliseconds,
    ]);
  return [
    `### Face model (face-api, TensorFlow.js on ${result.backend}): cold load ${result.coldLoadMilliseconds} ms (median of ${result.loadProcesses} fresh process(es)), peak RSS ${result.peakRssMb} MB (${result.loadedRssMb} MB once loaded), ${result.rounds} round(s), one photo at a time`,
    line(['Photos', 'Count', 'Faces found', 'Median ms per photo', 'CPU ms per photo', 'First photo ms']),
    line(Array(6).fill('---')),
    row('packaged face crops (one face)', result.crops),
    row("face-api's demo photos (1920 px, 3–5 faces)", result.groupPhotos),
  ].join('\n');
}

const [mode, kind, ...rest] = process.argv.slice(2);
if (mode === 'child') {
  const count = (text: string | undefined) => (text ? Number(text) : undefined);
  void (kind === 'load' ? loadInThisProcess() : describeInThisProcess(Number(rest[0]), count(rest[1]), count(rest[2])));
} else if (require.main === module) {
  void measureFaceModel({ loadProcesses: 3, rounds: Number(mode ?? 2) }).then((result) =>
    console.log(formatFaceModel(result)),
  );
}
