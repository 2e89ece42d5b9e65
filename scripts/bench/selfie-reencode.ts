import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { reencodeSelfie } from '#lib/checkin/adapters/selfie-image';
import { median, rounded } from './statistics';

/**
 * What the selfie re-encoding of a check-in costs (lib/checkin/adapters/selfie-image.ts): the time to load
 * sharp in a fresh process (the first selfie of an instance pays it), then per selfie the median
 * time and the peak memory of a process that does nothing else, for 12 MP phone-sized JPEGs of
 * about 1, 2 and 3 MB. libvips runs on one thread, sharp's default on glibc Linux, Lambda's too.
 *
 *   npx tsx scripts/bench/selfie-reencode.ts [rounds]
 */
const [mode, file, roundsArgument] = process.argv.slice(2);

const megabytes = (bytes: number) => rounded(bytes / 1024 / 1024, 2);

/** The process's peak resident memory in bytes: VmHWM, which (unlike getrusage's maxrss) starts anew at exec. */
const peakRss = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'))![1]) * 1024;

/** A phone-like picture: a gradient with noise, whose strength sets the file size. */
async function phonePicture(
  width: number,
  height: number,
  noise: number,
  jpeg: { quality: number; progressive?: boolean; chromaSubsampling?: string },
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  let seed = 1;
  for (let at = 0; at < pixels.length; at += 3) {
    const x = (at / 3) % width;
    const y = Math.floor(at / 3 / width);
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const grain = (seed >> 16) % noise;
    pixels[at] = (60 + (x * 120) / width + grain) | 0;
    pixels[at + 1] = (50 + (y * 140) / height + grain) | 0;
    pixels[at + 2] = (80 + ((x + y) * 100) / (width + height) + grain) | 0;
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .jpeg(jpeg)
    .toBuffer();
}

function sharpLoadMilliseconds(): number {
  const script =
    'const t = performance.now(); await import("sharp"); process.stdout.write(String(performance.now() - t));';
  const samples = Array.from({ length: 5 }, () =>
    Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })),
  );
  return rounded(median(samples));
}

/** In a child process of its own: re-encodes `file` `rounds` times and prints the median time, the stored size and the peak RSS. */
async function measureInThisProcess(jpeg: Buffer, rounds: number): Promise<void> {
  await import('sharp');
  const idleRss = peakRss();
  await reencodeSelfie(jpeg); // loads sharp here, not in the first measurement
  const samples: number[] = [];
  let stored: Buffer = Buffer.alloc(0);
  for (let round = 0; round < rounds; round += 1) {
    const startedAt = performance.now();
    stored = await reencodeSelfie(jpeg);
    samples.push(performance.now() - startedAt);
  }
  const { width, height } = await sharp(stored).metadata();
  process.stdout.write(
    `median ${rounded(median(samples))} ms (min ${rounded(Math.min(...samples))}), stored ${width} × ${height}, ${megabytes(stored.length)} MB, ` +
      `peak RSS ${megabytes(peakRss())} MB (${megabytes(idleRss)} MB before the first), ${sharp.concurrency()} libvips thread(s)`,
  );
}

async function main(rounds: number) {
  console.log(`loading sharp in a fresh process: ${sharpLoadMilliseconds()} ms (median of 5)`);
  const directory = mkdtempSync(join(tmpdir(), 'selfie-bench-'));
  try {
    const pictures = [
      { label: '12 MP', jpeg: await phonePicture(4032, 3024, 10, { quality: 85 }) },
      { label: '12 MP', jpeg: await phonePicture(4032, 3024, 16, { quality: 88 }) },
      { label: '12 MP', jpeg: await phonePicture(4032, 3024, 20, { quality: 90 }) },
      // The most memory a selfie can take: 50 MP, progressive (the decoder keeps every coefficient), 4:4:4.
      {
        label: '50 MP progressive 4:4:4',
        jpeg: await phonePicture(8160, 6120, 2, { quality: 60, progressive: true, chromaSubsampling: '4:4:4' }),
      },
    ];
    for (const [index, { label, jpeg }] of pictures.entries()) {
      const path = join(directory, `${index}.jpg`);
      writeFileSync(path, jpeg);
      const line = execFileSync(process.execPath, [...process.execArgv, __filename, 'child', path, String(rounds)], {
        encoding: 'utf8',
      });
      console.log(`${label}, ${megabytes(jpeg.length)} MB: ${line}`);
    }
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}

if (mode === 'child') void measureInThisProcess(readFileSync(file!), Number(roundsArgument));
else void main(Number(mode ?? 20));
