import { describeFaces, loadFaceModel } from '#lib/faces/adapters/face-model';
import { faceDistance, mainFace } from '#lib/faces/rules/face-descriptors';
import { DEFAULT_FACE_THRESHOLDS } from '#lib/galleries/rules/face-matching';
import {
  FACE_HEIGHT_SHARES,
  FRAMES,
  type Orientation,
  type SittingFace,
  framedPortrait,
  sitterAmong,
} from '../../support/framed-faces';
import { THUMBNAILS_IDENTITY, packagedFaces } from '../../support/packaged-faces';

/** Each framing builds and searches six 24 MP photos, the second pass included, on two shared cores. */
const FRAMING_TIME = 90_000;
const MIN_FOUND_SHARE = 0.99;

/**
 * Every fourth of face-api's 21 demo faces: 6 sitters, so that the 48 photos take about two
 * minutes. scripts/faces/measure-framing.ts frames all 21 (docs/photos.md#detection-by-framing);
 * the search in one pass missed one of these 6, at 60 % of a portrait frame.
 */
async function sitters(): Promise<SittingFace[]> {
  const crops = (await packagedFaces()).filter((face) => face.identity !== THUMBNAILS_IDENTITY);
  const chosen: SittingFace[] = [];
  for (const crop of crops.filter((_crop, index) => index % 4 === 0))
    chosen.push({ ...crop, face: mainFace(await describeFaces(crop.image))! });
  return chosen;
}

const framings = FACE_HEIGHT_SHARES.flatMap((share) =>
  (Object.keys(FRAMES) as Orientation[]).map((orientation) => ({ share, percent: share * 100, orientation })),
);

describe('the faces of photos framed as a camera frames them (24 MP, the face 10 % to 60 % of the frame height)', () => {
  let sitting: SittingFace[];

  beforeAll(async () => {
    await loadFaceModel();
    sitting = await sitters();
  }, FRAMING_TIME);

  it.each(framings)(
    'finds at least 99 % of the faces at $percent % of a $orientation frame, none described as someone else',
    async ({ share, orientation }) => {
      // Prepare
      const found: string[] = [];
      const distances: number[] = [];

      // Act
      for (const sitter of sitting) {
        const framed = await framedPortrait(sitter, orientation, share);
        const face = sitterAmong(await describeFaces(framed.image), framed.faceBox);
        if (!face) continue;
        found.push(sitter.identity);
        distances.push(faceDistance(face.descriptor, sitter.face.descriptor));
      }

      // Assess
      expect(sitting).toHaveLength(6);
      expect(found.length / sitting.length).toBeGreaterThanOrEqual(MIN_FOUND_SHARE);
      // Not within `match` for every face: a small face the tiles miss keeps the first search's
      // looser descriptor (one of 21 at 10 % of a landscape frame: 0.54), which is withheld as uncertain.
      expect(Math.max(...distances)).toBeLessThan(DEFAULT_FACE_THRESHOLDS.mismatch);
    },
    FRAMING_TIME,
  );
});
