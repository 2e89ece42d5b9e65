/**
 * Writes packaged-faces.json: where the faces are in the photos that installed packages ship,
 * found by the face model itself, so that the boxes can be made again the same way.
 *
 *   npx tsx scripts/faces/locate-packaged-faces.ts
 *
 * face-api's demo photos: every face the detector finds at full size, left to right, each a
 * person of their own, with the least margin (half the face's size or more) that the detector
 * finds it in again. human's face-match screenshot: the
 * first row of its extracted faces, 18 thumbnails of one man, of which the model finds a face
 * in 16 (the other two are left out).
 */
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { describeFaces, loadFaceModel } from '#lib/faces/adapters/face-model';
import { mainFace } from '#lib/faces/rules/face-descriptors';
import {
  PACKAGED_FACES_FILE,
  type PackagedFaceBox,
  THUMBNAILS_IDENTITY,
  cropFace,
  packagedPhoto,
} from './packaged-faces';

const FACE_API_PHOTOS = [1, 2, 3, 4, 5, 6].map((number) => `@vladmandic/face-api/demo/sample${number}.jpg`);
/** Margins tried around a face, as a share of its size, the smallest first: a turned face needs more of the head around it. */
const MARGINS = [0.5, 0.75, 1, 1.5];

const FACE_MATCH_SCREENSHOT = '@vladmandic/human/assets/screenshot-facematch.jpg';
/** The screenshot's first row of thumbnails, as its dark separators show: 18 cells of 1920 / 18 px from y = 283, 107 px high. */
const THUMBNAIL_ROW = { top: 283, height: 107, cells: 18, rowWidth: 1920 };
const THUMBNAIL_PAD = 50;

/** Each face of each demo photo with every margin, as a list of candidates per face. */
async function faceApiSampleFaces(): Promise<PackagedFaceBox[][]> {
  const candidates: PackagedFaceBox[][] = [];
  for (const [photoIndex, source] of FACE_API_PHOTOS.entries()) {
    const photo = packagedPhoto(source);
    const { width: photoWidth, height: photoHeight } = await sharp(photo).metadata();
    const faces = (await describeFaces(photo, { maxDimension: Math.max(photoWidth, photoHeight) })).sort(
      (a, b) => a.box.x - b.box.x,
    );
    for (const [faceIndex, { box }] of faces.entries()) {
      candidates.push(
        MARGINS.map((share) => {
          const margin = share * Math.max(box.width, box.height);
          const left = Math.max(0, Math.floor(box.x - margin));
          const top = Math.max(0, Math.floor(box.y - margin));
          const right = Math.min(photoWidth, Math.ceil(box.x + box.width + margin));
          const bottom = Math.min(photoHeight, Math.ceil(box.y + box.height + margin));
          return {
            identity: `face-api-sample${photoIndex + 1}-person${faceIndex + 1}`,
            source,
            box: { left, top, width: right - left, height: bottom - top },
            pad: 0,
          };
        }),
      );
    }
  }
  return candidates;
}

function thumbnailCells(): PackagedFaceBox[][] {
  const { top, height, cells, rowWidth } = THUMBNAIL_ROW;
  return Array.from({ length: cells }, (_, cell) => {
    const left = Math.round((cell * rowWidth) / cells);
    const right = Math.round(((cell + 1) * rowWidth) / cells);
    return [
      {
        identity: THUMBNAILS_IDENTITY,
        source: FACE_MATCH_SCREENSHOT,
        box: { left, top, width: right - left, height },
        pad: THUMBNAIL_PAD,
      },
    ];
  });
}

/** Whether the crop, as packagedFaces() makes it, shows a face whose centre is in its middle half. */
async function cropShowsItsFace(face: PackagedFaceBox): Promise<boolean> {
  const crop = await cropFace(packagedPhoto(face.source), face);
  const found = mainFace(await describeFaces(crop));
  if (!found) return false;
  const centreX = (found.box.x + found.box.width / 2) / (face.box.width + 2 * face.pad);
  const centreY = (found.box.y + found.box.height / 2) / (face.box.height + 2 * face.pad);
  return Math.abs(centreX - 0.5) < 0.25 && Math.abs(centreY - 0.5) < 0.25;
}

/** The first candidate whose crop shows its face, if any. */
async function firstShowingItsFace(candidates: readonly PackagedFaceBox[]): Promise<PackagedFaceBox | undefined> {
  for (const candidate of candidates) if (await cropShowsItsFace(candidate)) return candidate;
  return undefined;
}

async function main(): Promise<void> {
  await loadFaceModel();
  const candidates = [...(await faceApiSampleFaces()), ...thumbnailCells()];
  const faces: PackagedFaceBox[] = [];
  for (const candidatesOfOneFace of candidates) {
    const face = await firstShowingItsFace(candidatesOfOneFace);
    if (face) faces.push(face);
    else {
      const { identity, source, box } = candidatesOfOneFace[0]!;
      console.error(`left out: ${identity} ${source} ${JSON.stringify(box)} (no face in the middle of the crop)`);
    }
  }
  const identities = new Set(faces.map((face) => face.identity)).size;
  writeFileSync(
    PACKAGED_FACES_FILE,
    `${JSON.stringify({ generatedBy: 'npx tsx scripts/faces/locate-packaged-faces.ts', faces }, null, 2)}\n`,
  );
  console.log(`${faces.length} faces of ${identities} people written to ${PACKAGED_FACES_FILE}`);
}

void main();
