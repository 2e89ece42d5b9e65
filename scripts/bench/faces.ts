import { packagedFaces, packagedPhoto } from '../faces/packaged-faces';
import { cpuMillisecondsSince, inChildProcess, residentMb, whenChildOf } from './child-process';
import { median, rounded } from './statistics';

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

export interface PhotoFigures {
  photos: number;
  faces: number;
  medianMilliseconds: number;
  /** Process CPU time (all threads) per photo. */
  cpuMillisecondsPerPhoto: number;
  /** The first photo after the load: the first run of each model compiles its kernels. */
  firstPhotoMilliseconds: number;
}

/** What the process that described every photo measured. */
interface Described {
  crops: PhotoFigures;
  groupPhotos: PhotoFigures;
  /** VmHWM of the process, and VmRSS once the model was loaded. */
  peakRssMb: number;
  loadedRssMb: number;
  backend: string;
}

export interface FaceModelResult extends Described {
  rounds: number;
  loadProcesses: number;
  /** TensorFlow.js, the WebAssembly backend and the three models, from the import on; median of loadProcesses. */
  coldLoadMilliseconds: number;
}

/**
 * What the face model costs (lib/faces/adapters/face-model.ts, face-api on TensorFlow.js's
 * WebAssembly backend): its cold load, in fresh processes (the first photo of an instance pays
 * it), then in another process per photo the time to find and describe the faces, on the
 * packaged face crops (one face each, as a portrait) and on face-api's demo photos (1920 px,
 * three to five faces each), and that process's peak memory.
 */
export async function measureFaceModel(settings: FaceModelSettings): Promise<FaceModelResult> {
  const loads: number[] = [];
  for (let count = 0; count < settings.loadProcesses; count += 1)
    loads.push(await inChildProcess<number>(__filename, ['load']));
  const { rounds, crops, groupPhotos } = settings;
  const described = await inChildProcess<Described>(__filename, [
    'describe',
    String(rounds),
    String(crops ?? ''),
    String(groupPhotos ?? ''),
  ]);
  return { rounds, loadProcesses: settings.loadProcesses, coldLoadMilliseconds: rounded(median(loads)), ...described };
}

whenChildOf(__filename, async ([kind, rounds, cropCount, groupPhotoCount]) => {
  const startedAt = performance.now();
  const { describeFaces, faceModelBackend, loadFaceModel } = await import('#lib/faces/adapters/face-model');
  await loadFaceModel();
  if (kind === 'load') return performance.now() - startedAt;
  const loadedRssMb = residentMb('VmRSS');
  const count = (text: string | undefined) => (text ? Number(text) : undefined);
  const measure = async (photos: Buffer[]): Promise<PhotoFigures> => {
    const firstStartedAt = performance.now();
    await describeFaces(photos[0]!);
    const firstPhotoMilliseconds = performance.now() - firstStartedAt;
    const samples: number[] = [];
    let faces = 0;
    const cpuBefore = process.cpuUsage();
    for (let round = 0; round < Number(rounds); round += 1) {
      faces = 0;
      for (const photo of photos) {
        const photoStartedAt = performance.now();
        faces += (await describeFaces(photo)).length;
        samples.push(performance.now() - photoStartedAt);
      }
    }
    return {
      photos: photos.length,
      faces,
      medianMilliseconds: rounded(median(samples)),
      cpuMillisecondsPerPhoto: rounded(cpuMillisecondsSince(cpuBefore) / samples.length),
      firstPhotoMilliseconds: rounded(firstPhotoMilliseconds),
    };
  };
  const crops = await measure((await packagedFaces()).slice(0, count(cropCount)).map((face) => face.image));
  const groupPhotos = await measure(DEMO_PHOTOS.slice(0, count(groupPhotoCount)).map(packagedPhoto));
  const described: Described = {
    crops,
    groupPhotos,
    peakRssMb: residentMb('VmHWM'),
    loadedRssMb,
    backend: faceModelBackend(),
  };
  return described;
});
