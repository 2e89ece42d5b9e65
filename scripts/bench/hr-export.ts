import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { portraitJpeg } from '../samples/synthetic-shoot';
import { inChildProcess, inTemporaryDirectory, residentMb, whenChildOf } from './child-process';
import { cpuMillisecondsSince, rounded, timed } from './statistics';

/** One side's run; the CPU time is its own process's (all threads), not the local services'. */
type SideFigures = Awaited<ReturnType<typeof inChild>>;
export type HrExportBenchResult = Awaited<ReturnType<typeof measureHrExport>>;

/** Portraits prepared at once, as the build prepares them (PORTRAITS_AHEAD in lib/hr-exports/build-hr-export.ts). */
const AT_ONCE = 8;

/**
 * The whole build of an HR export at each gallery size against sharp's crop and encode alone, each
 * side in a child process of its own on CPU 0 where it can be (docs/benchmarks/hr-export.md); the
 * largest in `rounds` alternated rounds. Persons share `distinctPhotos` photos, each its own object.
 */
export async function measureHrExport(
  settings: { persons: number[]; width: number; height: number; distinctPhotos: number; size: number; rounds: number },
  servicePids: number[],
) {
  const cpus = splitCpus([process.pid, ...servicePids]);
  try {
    return await inTemporaryDirectory(async (directory) => {
      const photos: Buffer[] = [];
      for (let seed = 1; seed <= settings.distinctPhotos; seed += 1)
        photos.push(await portraitJpeg({ width: settings.width, height: settings.height, seed }));
      photos.forEach((photo, index) => writeFileSync(join(directory, `photo-${index}.jpg`), photo));
      const bytes = photos.reduce((sum, photo) => sum + photo.length, 0);
      const largest = Math.max(...settings.persons);
      const sharpArgs = ['sharp', directory, String(largest), String(settings.size), String(photos.length)];
      const [builds, largestBuilds, sharpRuns]: [SideFigures[], SideFigures[], SideFigures[]] = [[], [], []];
      for (const persons of settings.persons) {
        const gallery = await seedGallery(persons, photos);
        // The largest gallery's build alternates with sharp alone, each build a first export (no crop kept).
        const rounds = persons === largest ? settings.rounds : 1;
        for (let round = 0; round < rounds; round += 1) {
          const exportMessage = await gallery.freshExport(settings.size);
          const build = await inChild(cpus.sidePrefix, ['build', JSON.stringify(exportMessage)], persons);
          if (persons !== largest) builds.push(build);
          else {
            largestBuilds.push(build);
            sharpRuns.push(await inChild(cpus.sidePrefix, sharpArgs, largest));
          }
        }
      }
      const largestBuild = medianRun(largestBuilds);
      const sharpAlone = medianRun(sharpRuns);
      builds.push(largestBuild);
      const smallestBuild = builds.find((build) => build.persons === Math.min(...settings.persons))!;
      return {
        photos: { width: settings.width, height: settings.height, averageKb: rounded(bytes / photos.length / 1024, 0) },
        size: settings.size,
        builds,
        sharpAlone,
        /** Build / sharp alone, by the medians of their times, for the largest gallery (goal ≤ 1.3), and of each round. */
        timeRatio: rounded(largestBuild.seconds / sharpAlone.seconds),
        roundRatios: largestBuilds.map((build, round) => rounded(build.seconds / sharpRuns[round]!.seconds)),
        /** Peak memory of the largest gallery's build / the smallest's (goal: flat, about 1). */
        memoryRatio: rounded(largestBuild.peakRssMb / smallestBuild.peakRssMb),
        /** Whether each side had CPU 0 to itself, the local services the other CPUs. */
        pinned: cpus.sidePrefix.length > 0,
      };
    });
  } finally {
    cpus.restore();
  }
}

/** A gallery of `persons` persons who gave the HR consent, a photo each; `freshExport` queues an export with no crop kept. */
async function seedGallery(persons: number, photos: readonly Buffer[]) {
  const { consentingPortrait, createBenchStudio, importInto } = await import('./bench-api');
  const { deleteObjectVersions, listObjectVersions } = await import('#lib/platform/media-bucket');
  const { galleryExportPrefixes } = await import('#lib/platform/media-keys');
  const { mapWithConcurrency } = await import('#lib/platform/concurrency');
  const { createHrExport } = await import('#lib/hr-exports/create-hr-export');
  const { useHrExportQueue } = await import('#lib/hr-exports/adapters/hr-export-queue');

  const studio = await createBenchStudio(`hr-${persons}`, {
    consentRequired: true,
    showShootingDaySelector: false,
    granularConsents: { face: false, notification: false, hrExport: true },
  });
  const { tenant, tenantId, token } = studio;
  const scope = { tenantId, token };
  await mapWithConcurrency(await importInto(tenant, studio, persons), 8, ({ personId }, index) =>
    consentingPortrait(scope, personId, photos[index % photos.length]!, ['hrExportConsent']),
  );
  return {
    async freshExport(size: number) {
      await deleteObjectVersions(
        await listObjectVersions(galleryExportPrefixes(scope.tenantId, scope.token).portraitCrops),
      );
      useHrExportQueue({ send: async () => undefined });
      const created = await createHrExport(tenant, token, { size });
      useHrExportQueue(undefined);
      return { ...scope, exportId: created.exportId };
    },
  };
}

/** The run of median time (the upper one of an even count). */
function medianRun(runs: readonly SideFigures[]): SideFigures {
  return [...runs].sort((a, b) => a.seconds - b.seconds)[Math.floor(runs.length / 2)]!;
}

/** CPU 0 for the measured side, the others for `servicePids` until restored; nothing on one CPU or without taskset. */
function splitCpus(servicePids: number[]): { sidePrefix: string[]; restore(): void } {
  const count = availableParallelism();
  const taskset = (args: string[]) => execFileSync('taskset', args, { stdio: 'ignore' });
  try {
    if (count < 2) throw new Error('one CPU');
    for (const pid of servicePids) taskset(['-a', '-p', '-c', `1-${count - 1}`, String(pid)]);
  } catch {
    return { sidePrefix: [], restore: () => undefined };
  }
  return {
    sidePrefix: ['taskset', '-c', '0'],
    restore: () => {
      for (const pid of servicePids) taskset(['-a', '-p', '-c', `0-${count - 1}`, String(pid)]);
    },
  };
}

async function inChild(prefix: string[], args: string[], persons: number) {
  type Measured = { seconds: number; cpuSeconds: number; peakRssMb: number; idleRssMb: number };
  const measured = await inChildProcess<Measured>(__filename, args, prefix);
  return { persons, ...measured, portraitsPerSecond: rounded(persons / measured.seconds, 1) };
}

/** In the child: one build, or sharp alone over the same number of photos, timed, with the process's memory. */
whenChildOf(__filename, async ([side, ...args]) => {
  let run: () => Promise<unknown>;
  if (side === 'build') {
    const { buildHrExport } = await import('#lib/hr-exports/build-hr-export');
    const message = JSON.parse(args[0]!) as { tenantId: string; token: string; exportId: string };
    run = async () => {
      const outcome = await buildHrExport(message, { isLast: true });
      if (outcome !== 'ready') throw new Error(`The export was not built: ${outcome}`);
    };
  } else {
    const { default: sharp } = await import('sharp');
    const { mapWithConcurrency } = await import('#lib/platform/concurrency');
    sharp.cache(false);
    const [directory, count, size, distinct] = [args[0]!, Number(args[1]), Number(args[2]), Number(args[3])];
    run = () =>
      mapWithConcurrency([...Array(count).keys()], AT_ONCE, async (index) => {
        const photo = readFileSync(join(directory, `photo-${index % distinct}.jpg`));
        await sharp(photo, { failOn: 'error' })
          .autoOrient()
          .resize(size, size, { fit: 'cover', position: 'attention' })
          .toColourspace('srgb')
          .jpeg({ quality: 85 })
          .toBuffer();
      });
  }
  const idleRssMb = residentMb('VmRSS');
  const cpuBefore = process.cpuUsage();
  const { milliseconds } = await timed(run);
  return {
    seconds: rounded(milliseconds / 1000),
    cpuSeconds: rounded(cpuMillisecondsSince(cpuBefore) / 1000),
    peakRssMb: residentMb('VmHWM'),
    idleRssMb,
  };
});
