import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { type CardVariant, cardJpeg, portraitJpeg } from '../samples/synthetic-shoot';
import { median, rounded } from './statistics';

/**
 * What reading a shoot photo costs the photo ingest (lib/photos/adapters/shoot-photo-reader.ts: size,
 * EXIF, and the codes searched in the photo decoded at reduced size), against decoding the same
 * JPEGs with sharp alone at full size to raw pixels, the least any look at the pixels costs. Each
 * side runs in a child process of its own, one photo at a time (libvips with one thread, as
 * sharp has on glibc Linux and Lambda): the median time per photo, the CPU time per photo (so
 * photos per second per core), the first photo (loading the modules) and the process's peak
 * resident memory.
 *
 *   npx tsx scripts/bench/photo-ingest.ts [rounds]
 */

const runFile = promisify(execFile);

/** What one side measured, in a process that did nothing else. */
export interface PhotoReadingFigures {
  medianMilliseconds: number;
  /** One at a time, by the wall clock. */
  photosPerSecond: number;
  /** Process CPU time (all threads) per photo. */
  cpuMillisecondsPerPhoto: number;
  /** 1000 / cpuMillisecondsPerPhoto: what one core gets through. */
  photosPerCoreSecond: number;
  /** The first photo, loading the modules with it (sharp; ZXing and its WebAssembly). */
  firstPhotoMilliseconds: number;
  /** VmHWM at the end, and VmRSS before the first photo. */
  peakRssMb: number;
  idleRssMb: number;
}

export interface PhotoIngestResult {
  photos: { width: number; height: number; cards: number; portraits: number; averageMegabytes: number };
  rounds: number;
  reader: PhotoReadingFigures;
  sharpDecode: PhotoReadingFigures;
  /** Reader / sharp alone, of the median time per photo and of the peak memory. */
  timeRatio: number;
  memoryRatio: number;
  /** Cards whose code the reader gave exactly, and codes it gave for portraits (goal 0). */
  cardsRead: number;
  codesInPortraits: number;
}

export interface PhotoIngestSettings {
  width: number;
  height: number;
  cards: number;
  portraits: number;
  rounds: number;
}

/** Cards as a photographer's shoot has them: small to medium, turned, some soft. */
const BENCH_CARDS: readonly CardVariant[] = [
  { size: 0.08, angle: 0, blur: 0 },
  { size: 0.05, angle: 30, blur: 0.3 },
  { size: 0.15, angle: -45, blur: 0.4 },
];

const megabytes = (bytes: number) => rounded(bytes / 1024 / 1024, 2);
const statusKb = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

/** Generates the photos, measures both sides, each in its own child process. */
export async function measurePhotoIngest(settings: PhotoIngestSettings): Promise<PhotoIngestResult> {
  const directory = mkdtempSync(join(tmpdir(), 'photo-ingest-bench-'));
  try {
    const { width, height } = settings;
    const sizes: number[] = [];
    for (let index = 0; index < settings.cards + settings.portraits; index += 1) {
      const card = index < settings.cards ? BENCH_CARDS[index % BENCH_CARDS.length] : undefined;
      const seed = index + 1;
      const jpeg = card
        ? await cardJpeg({ width, height, seed, text: cardText(index), ...card })
        : await portraitJpeg({ width, height, seed });
      sizes.push(jpeg.length);
      writeFileSync(join(directory, `${card ? 'card' : 'portrait'}-${String(index).padStart(3, '0')}.jpg`), jpeg);
    }
    const reader = await measureInChild('reader', directory, settings.rounds);
    const sharpDecode = await measureInChild('sharp', directory, settings.rounds);
    return {
      photos: {
        width,
        height,
        cards: settings.cards,
        portraits: settings.portraits,
        averageMegabytes: megabytes(sizes.reduce((sum, size) => sum + size, 0) / sizes.length),
      },
      rounds: settings.rounds,
      reader: reader.figures,
      sharpDecode: sharpDecode.figures,
      timeRatio: rounded(reader.figures.medianMilliseconds / sharpDecode.figures.medianMilliseconds),
      memoryRatio: rounded(reader.figures.peakRssMb / sharpDecode.figures.peakRssMb),
      cardsRead: reader.codes.filter(
        (codes, index) => index < settings.cards && codes.length === 1 && codes[0] === cardText(index),
      ).length,
      codesInPortraits: reader.codes.slice(settings.cards).flat().length,
    };
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

/** Access codes of the alphabet (lib/persons/rules/access-codes.ts). */
const CARD_TEXTS = ['K7QM', 'W2HB', 'PP4D', 'HJ5N'];
const cardText = (index: number) => CARD_TEXTS[index % CARD_TEXTS.length]!;

interface ChildReport {
  figures: PhotoReadingFigures;
  /** Per photo, in file order: the codes read (reader only). */
  codes: string[][];
}

async function measureInChild(side: 'reader' | 'sharp', directory: string, rounds: number): Promise<ChildReport> {
  const { stdout } = await runFile(
    process.execPath,
    [...process.execArgv, __filename, 'child', side, directory, String(rounds)],
    {
      env: { ...process.env, POWERTOOLS_LOG_LEVEL: 'SILENT' },
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout) as ChildReport;
}

/** In the child: reads every photo `rounds` times, one at a time, after a first photo that loads the modules. */
async function measureInThisProcess(side: 'reader' | 'sharp', directory: string, rounds: number): Promise<void> {
  const files = readdirSync(directory).sort();
  const photos = files.map((file) => readFileSync(join(directory, file)));
  const idleRss = statusKb('VmRSS');
  let read: (photo: Buffer) => Promise<string[]>;
  if (side === 'reader') {
    const { readShootPhoto } = await import('#lib/photos/adapters/shoot-photo-reader');
    read = async (photo) => (await readShootPhoto(photo)).codes;
  } else {
    const { default: sharp } = await import('sharp');
    sharp.cache(false);
    read = async (photo) => {
      await sharp(photo, { failOn: 'error', limitInputPixels: 110_000_000 }).raw().toBuffer();
      return [];
    };
  }
  const firstStartedAt = performance.now();
  await read(photos[0]!);
  const firstPhotoMilliseconds = performance.now() - firstStartedAt;
  const samples: number[] = [];
  let codes: string[][] = [];
  const cpuBefore = process.cpuUsage();
  for (let round = 0; round < rounds; round += 1) {
    codes = [];
    for (const photo of photos) {
      const startedAt = performance.now();
      codes.push(await read(photo));
      samples.push(performance.now() - startedAt);
    }
  }
  const cpu = process.cpuUsage(cpuBefore);
  const cpuMillisecondsPerPhoto = (cpu.user + cpu.system) / 1000 / samples.length;
  const meanMilliseconds = samples.reduce((sum, sample) => sum + sample, 0) / samples.length;
  const figures: PhotoReadingFigures = {
    medianMilliseconds: rounded(median(samples)),
    photosPerSecond: rounded(1000 / meanMilliseconds),
    cpuMillisecondsPerPhoto: rounded(cpuMillisecondsPerPhoto),
    photosPerCoreSecond: rounded(1000 / cpuMillisecondsPerPhoto),
    firstPhotoMilliseconds: rounded(firstPhotoMilliseconds),
    peakRssMb: megabytes(statusKb('VmHWM')),
    idleRssMb: megabytes(idleRss),
  };
  process.stdout.write(JSON.stringify({ figures, codes } satisfies ChildReport));
}

/** The figures as a Markdown table with its heading, as the bench prints them. */
export function formatPhotoIngest(result: PhotoIngestResult): string {
  const { photos } = result;
  const line = (cells: (string | number)[]) => `| ${cells.join(' | ')} |`;
  const row = (label: string, figures: PhotoReadingFigures) =>
    line([
      label,
      figures.medianMilliseconds,
      figures.photosPerSecond,
      figures.cpuMillisecondsPerPhoto,
      figures.photosPerCoreSecond,
      figures.firstPhotoMilliseconds,
      figures.peakRssMb,
      figures.idleRssMb,
    ]);
  return [
    `### Photo ingest: ${photos.cards + photos.portraits} JPEGs of ${photos.width} × ${photos.height} (${photos.cards} cards, ${photos.portraits} portraits, ${photos.averageMegabytes} MB on average), ${result.rounds} round(s), one at a time`,
    line([
      'Side',
      'Median ms per photo',
      'Photos/s',
      'CPU ms per photo',
      'Photos/s per core',
      'First photo ms (loads modules)',
      'Peak RSS MB',
      'RSS before MB',
    ]),
    line(Array(8).fill('---')),
    row('readShootPhoto (EXIF, decode at ≤ 2000 px, QR and Data Matrix search)', result.reader),
    row('sharp alone (full decode to raw)', result.sharpDecode),
    line(['reader / sharp alone', `${result.timeRatio}x`, '', '', '', '', `${result.memoryRatio}x`, '']),
    '',
    `Cards read: ${result.cardsRead} of ${photos.cards}; codes found in portraits: ${result.codesInPortraits}.`,
  ].join('\n');
}

const [mode, side, directory, roundsArgument] = process.argv.slice(2);
if (mode === 'child') {
  void measureInThisProcess(side as 'reader' | 'sharp', directory!, Number(roundsArgument));
} else if (require.main === module) {
  void measurePhotoIngest({ width: 6000, height: 4000, cards: 3, portraits: 9, rounds: Number(mode ?? 3) }).then(
    (result) => console.log(formatPhotoIngest(result)),
  );
}
