/**
 * Prints how many of the packaged faces the service finds when a camera frames them
 * (framed-faces.ts): each of face-api's 21 demo faces at each share of a landscape and a
 * portrait 24 MP frame, described by describeFaces as ingest calls it. docs/photos.md#detection-by-framing
 * holds the figures.
 *
 *   npx tsx scripts/faces/measure-framing.ts [COUNT] [IDENTITY,...]
 *
 * COUNT: the first faces only (default all 21); IDENTITY: only these.
 */
import { performance } from 'node:perf_hooks';
import { describeFaces, loadFaceModel } from '#lib/faces/adapters/face-model';
import { faceDistance, mainFace } from '#lib/faces/rules/face-descriptors';
import { FACE_HEIGHT_SHARES, FRAMES, type Orientation, framedPortrait, sitterAmong } from './framed-faces';
import { THUMBNAILS_IDENTITY, packagedFaces } from './packaged-faces';

async function main(): Promise<void> {
  const limit = Number(process.argv[2] ?? 21);
  await loadFaceModel();
  const only = process.argv[3]?.split(',');
  const crops = (await packagedFaces())
    .filter((face) => face.identity !== THUMBNAILS_IDENTITY && (!only || only.includes(face.identity)))
    .slice(0, limit);
  const sitters = [];
  for (const crop of crops) sitters.push({ ...crop, face: mainFace(await describeFaces(crop.image))! });
  console.log(
    '| Framing | Orientation | Found, one pass | Found, with the second pass | Distance to own crop, median (max): one pass / second pass | Time per photo, median: one pass / second pass |',
  );
  console.log('|---|---|---|---|---|---|');
  for (const share of FACE_HEIGHT_SHARES)
    for (const orientation of Object.keys(FRAMES) as Orientation[]) {
      const sides = [{ secondPass: false }, { secondPass: true }].map((options) => ({
        options,
        found: 0,
        distances: [] as number[],
        times: [] as number[],
        missed: [] as string[],
      }));
      for (const sitter of sitters) {
        const framed = await framedPortrait(sitter, orientation, share);
        for (const side of sides) {
          const started = performance.now();
          const faces = await describeFaces(framed.image, side.options);
          side.times.push(performance.now() - started);
          const face = sitterAmong(faces, framed.faceBox);
          if (face) {
            side.found += 1;
            side.distances.push(faceDistance(face.descriptor, sitter.face.descriptor));
          } else side.missed.push(sitter.identity);
        }
      }
      const [one, two] = sides as [(typeof sides)[0], (typeof sides)[0]];
      const distance = (side: typeof one) =>
        `${median(side.distances).toFixed(2)} (${Math.max(...side.distances).toFixed(2)})`;
      console.log(
        `| ${share * 100} % | ${orientation} | ${one.found}/${sitters.length} | ${two.found}/${sitters.length} | ${distance(one)} / ${distance(two)} | ${median(one.times).toFixed(0)} / ${median(two.times).toFixed(0)} ms |` +
          ` missed: ${one.missed.join(', ')} / ${two.missed.join(', ')}`,
      );
    }
}

function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

void main();
