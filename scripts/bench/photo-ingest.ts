import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type CardVariant, cardJpeg, portraitJpeg } from '../samples/synthetic-shoot';
import { inChildProcess, inTemporaryDirectory, residentMb, whenChildOf } from './child-process';
import { median, rounded, timeEach, timed } from './statistics';

export type PhotoIngestResult = Awaited<ReturnType<typeof measurePhotoIngest>>;
type Figures = Awaited<ReturnType<typeof readPhotos>>;

/** Cards as a photographer's shoot has them: small to medium, turned, some soft. */
const BENCH_CARDS: readonly CardVariant[] = [
  { size: 0.08, angle: 0, blur: 0 },
  { size: 0.05, angle: 30, blur: 0.3 },
  { size: 0.15, angle: -45, blur: 0.4 },
];
/** Access codes of the alphabet (lib/persons/rules/access-codes.ts). */
const cardText = (index: number) => ['K7QM', 'W2HB', 'PP4D', 'HJ5N'][index % 4]!;

/**
 * Reading shoot photos as the ingest does (size, EXIF, codes) against decoding the same JPEGs with
 * sharp alone to raw pixels, the least any look at the pixels costs; each side in a child process
 * of its own, one photo at a time (docs/benchmarks/photo-ingest.md).
 */
export async function measurePhotoIngest(
  settings: Record<'width' | 'height' | 'cards' | 'portraits' | 'rounds', number>,
) {
  return inTemporaryDirectory(async (directory) => {
    const { width, height } = settings;
    let bytes = 0;
    for (let index = 0; index < settings.cards + settings.portraits; index += 1) {
      const card = index < settings.cards ? BENCH_CARDS[index % BENCH_CARDS.length] : undefined;
      const jpeg = card
        ? await cardJpeg({ width, height, seed: index + 1, text: cardText(index), ...card })
        : await portraitJpeg({ width, height, seed: index + 1 });
      bytes += jpeg.length;
      writeFileSync(join(directory, `${String(index).padStart(3, '0')}.jpg`), jpeg);
    }
    const measure = (side: string) => inChildProcess<Figures>(__filename, [side, directory, String(settings.rounds)]);
    const reader = await measure('reader');
    const sharpDecode = await measure('sharp');
    return {
      ...settings,
      averageMegabytes: rounded(bytes / (settings.cards + settings.portraits) / 1024 / 1024),
      /** Each side in a process that did nothing else. */
      reader: reader.figures,
      sharpDecode: sharpDecode.figures,
      /** Reader / sharp alone, of the median time per photo and of the peak memory. */
      timeRatio: rounded(reader.figures.medianMilliseconds / sharpDecode.figures.medianMilliseconds),
      memoryRatio: rounded(reader.figures.peakRssMb / sharpDecode.figures.peakRssMb),
      /** Cards whose code the reader gave exactly, and codes it gave for portraits (goal 0). */
      cardsRead: reader.codes.filter((codes, index) => index < settings.cards && codes.join() === cardText(index))
        .length,
      codesInPortraits: reader.codes.slice(settings.cards).flat().length,
    };
  });
}

whenChildOf(__filename, ([side, directory, rounds]) => readPhotos(side!, directory!, Number(rounds)));

/** In the child: reads every photo `rounds` times, one at a time, after a first photo that loads the modules. */
async function readPhotos(side: string, directory: string, rounds: number) {
  const photos = readdirSync(directory)
    .sort()
    .map((file) => readFileSync(join(directory, file)));
  const idleRssMb = residentMb('VmRSS');
  let read: (photo: Buffer) => Promise<string[]>;
  if (side === 'reader') {
    const { readShootPhoto } = await import('#lib/photos/sorting/adapters/shoot-photo-reader');
    read = async (photo) => (await readShootPhoto(photo)).codes;
  } else {
    const { default: sharp } = await import('sharp');
    sharp.cache(false);
    read = async (photo) => {
      await sharp(photo, { failOn: 'error', limitInputPixels: 110_000_000 }).raw().toBuffer();
      return [];
    };
  }
  const first = await timed(() => read(photos[0]!));
  const { milliseconds: samples, results: codes, cpuMillisecondsPerCall } = await timeEach(photos, rounds, read);
  const figures = {
    medianMilliseconds: rounded(median(samples)),
    photosPerSecond: rounded((1000 * samples.length) / samples.reduce((sum, sample) => sum + sample, 0)),
    /** Process CPU time (all threads) per photo, and what one core gets through (1000 / it). */
    cpuMillisecondsPerPhoto: rounded(cpuMillisecondsPerCall),
    photosPerCoreSecond: rounded(1000 / cpuMillisecondsPerCall),
    /** The first photo, loading the modules with it (sharp; ZXing and its WebAssembly). */
    firstPhotoMilliseconds: rounded(first.milliseconds),
    /** VmHWM at the end, and VmRSS before the first photo. */
    peakRssMb: residentMb('VmHWM'),
    idleRssMb,
  };
  return { figures, codes };
}
