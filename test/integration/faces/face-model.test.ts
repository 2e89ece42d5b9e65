import { existsSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import {
  FACE_MODEL_FILES,
  FACE_WASM_FILES,
  UnreadableFaceImageError,
  describeFaces,
  faceModelBackend,
  faceModelDirectory,
  faceModelTensorCount,
  faceWasmDirectory,
  loadFaceModel,
} from '#lib/faces/adapters/face-model';
import { calibrate } from '#lib/faces/rules/calibration';
import { type FaceBox, faceDistance, mainFace } from '#lib/faces/rules/face-descriptors';
import { DEFAULT_FACE_THRESHOLDS } from '#lib/galleries/rules/face-matching';
import {
  AUGMENTATIONS,
  type LabelledFaceImage,
  THUMBNAILS_IDENTITY,
  augment,
  packagedFaceBoxes,
  packagedFaces,
  packagedPhoto,
} from '../../support/packaged-faces';

/** The model's first load and 38 faces take a while on two shared cores. */
const DESCRIBING_ALL = 180_000;

interface DescribedFace extends LabelledFaceImage {
  descriptor: number[] | undefined;
}

async function describedMainFaces(faces: readonly LabelledFaceImage[]): Promise<DescribedFace[]> {
  const described: DescribedFace[] = [];
  for (const face of faces)
    described.push({ ...face, descriptor: mainFace(await describeFaces(face.image))?.descriptor });
  return described;
}

/** The error `describeFaces` rejects with; fails the test when it resolves. */
async function refusalOfDescribing(image: Buffer): Promise<unknown> {
  return describeFaces(image).then(
    () => new Error('Expected a refusal, but the image was described'),
    (error: unknown) => error,
  );
}

const centreOf = (box: FaceBox) => ({ x: box.x + box.width / 2, y: box.y + box.height / 2 });

describe('the face model (face-api on TensorFlow.js, WebAssembly backend)', () => {
  let originals: DescribedFace[];

  beforeAll(async () => {
    await loadFaceModel();
    originals = await describedMainFaces(await packagedFaces());
  }, DESCRIBING_ALL);

  it('runs on the WebAssembly backend, from the files a bundle copies', () => {
    expect(faceModelBackend()).toBe('wasm');
    for (const file of FACE_MODEL_FILES) expect(existsSync(join(faceModelDirectory(), file))).toBe(true);
    for (const file of FACE_WASM_FILES) expect(existsSync(join(faceWasmDirectory(), file))).toBe(true);
  });

  it('finds a face in every packaged crop: 38 of 22 people', () => {
    expect(originals).toHaveLength(38);
    expect(new Set(originals.map((face) => face.identity)).size).toBe(22);
    expect(originals.filter((face) => face.descriptor === undefined).map((face) => face.source)).toEqual([]);
    for (const { descriptor } of originals) expect(descriptor).toHaveLength(128);
  });

  it("puts each of the man's 17 thumbnails nearest to another of his, and his faces closer to each other (median) than any two people", () => {
    // Prepare
    const labelled = new Map<string, number[][]>();
    for (const { identity, descriptor } of originals)
      labelled.set(identity, [...(labelled.get(identity) ?? []), descriptor!]);

    // Act
    const report = calibrate(labelled, DEFAULT_FACE_THRESHOLDS);

    // Assess
    const thumbnails = originals.filter((face) => face.identity === THUMBNAILS_IDENTITY);
    expect(thumbnails).toHaveLength(17);
    for (const thumbnail of thumbnails) {
      const nearest = originals
        .filter((other) => other !== thumbnail)
        .map((other) => ({
          identity: other.identity,
          distance: faceDistance(thumbnail.descriptor!, other.descriptor!),
        }))
        .sort((a, b) => a.distance - b.distance)[0]!;
      expect({ source: thumbnail.source, nearest: nearest.identity }).toEqual({
        source: thumbnail.source,
        nearest: THUMBNAILS_IDENTITY,
      });
    }
    expect(report.distances.genuine.median).toBeLessThan(report.distances.impostor.min);
    // The two overlap all the same: some of his thumbnails are further apart than the two closest people.
    expect(report.distances.genuine.max).toBeGreaterThan(report.distances.impostor.min);
  });

  it(
    'keeps a face altered as a second photo would alter it nearer to its original than to anyone else',
    async () => {
      // Prepare: four people, each face altered five ways.
      const chosen = [0, 17, 22, 30].map((index) => originals[index]!);
      const altered: LabelledFaceImage[] = [];
      for (const face of chosen)
        for (const kind of AUGMENTATIONS)
          altered.push({
            identity: face.identity,
            source: `${face.source} ${kind}`,
            image: await augment(face.image, kind),
          });

      // Act
      const described = await describedMainFaces(altered);

      // Assess: the detector loses a few altered faces (18 of 190 over all packaged faces), never most.
      const found = described.filter((face) => face.descriptor !== undefined);
      expect(found.length).toBeGreaterThanOrEqual(16);
      for (const face of found) {
        const original = chosen.find((candidate) => face.source.startsWith(candidate.source))!;
        const ownDistance = faceDistance(face.descriptor!, original.descriptor!);
        const nearestOther = Math.min(
          ...originals
            .filter((other) => other.identity !== face.identity)
            .map((other) => faceDistance(face.descriptor!, other.descriptor!)),
        );
        expect({ source: face.source, nearerToOwn: ownDistance < nearestOther }).toEqual({
          source: face.source,
          nearerToOwn: true,
        });
      }
    },
    DESCRIBING_ALL,
  );

  it('gives boxes in the pixels of the photo as sent, though it searches a copy of at most 1024 px', async () => {
    // Prepare: face-api's first demo photo, 1920 × 1280, and where its three faces were cut from.
    const photo = packagedPhoto('@vladmandic/face-api/demo/sample1.jpg');
    const crops = packagedFaceBoxes().filter((face) => face.source.endsWith('sample1.jpg'));

    // Act
    const faces = await describeFaces(photo);

    // Assess
    expect(faces).toHaveLength(3);
    for (const crop of crops) {
      const { left, top, width, height } = crop.box;
      const inside = faces.filter(({ box }) => {
        const centre = centreOf(box);
        return centre.x > left && centre.x < left + width && centre.y > top && centre.y < top + height;
      });
      expect(inside).toHaveLength(1);
      expect(inside[0]!.box.width).toBeGreaterThan(width / 4);
    }
  });

  it('turns a photo upright by its EXIF orientation, and gives its box upright', async () => {
    // Prepare: a face stored turned a quarter to the left, tagged to be shown turned back (orientation 6).
    const upright = originals[17]!.image;
    const { width, height } = await sharp(upright).metadata();
    const sideways = await sharp(upright).rotate(-90).withMetadata({ orientation: 6 }).jpeg().toBuffer();

    // Act
    const [uprightFace] = await describeFaces(upright);
    const faces = await describeFaces(sideways);

    // Assess
    expect(faces).toHaveLength(1);
    expect(faceDistance(faces[0]!.descriptor, uprightFace!.descriptor)).toBeLessThan(0.1);
    const centre = centreOf(faces[0]!.box);
    expect(centre.x / width).toBeCloseTo(centreOf(uprightFace!.box).x / width, 1);
    expect(centre.y / height).toBeCloseTo(centreOf(uprightFace!.box).y / height, 1);
  });

  it('reads a PNG as well as a JPEG', async () => {
    const png = await sharp(originals[0]!.image).png().toBuffer();

    const faces = await describeFaces(png);

    expect(faces).toHaveLength(1);
    expect(faceDistance(faces[0]!.descriptor, originals[0]!.descriptor!)).toBeLessThan(0.1);
  });

  it('finds no face in a blank image', async () => {
    const blank = await sharp({
      create: { width: 640, height: 480, channels: 3, background: { r: 128, g: 128, b: 128 } },
    })
      .jpeg()
      .toBuffer();

    expect(await describeFaces(blank)).toEqual([]);
  });

  it.each([
    ['bytes that are no image', () => Promise.resolve(Buffer.from('not an image at all'))],
    ['a JPEG cut off halfway', async () => originals[0]!.image.subarray(0, originals[0]!.image.length / 2)],
  ])('refuses %s with UnreadableFaceImageError', async (_case, image) => {
    expect(await refusalOfDescribing(await image())).toBeInstanceOf(UnreadableFaceImageError);
  });

  it('disposes every tensor it makes: only the weights stay', async () => {
    const before = faceModelTensorCount();

    await describeFaces(originals[3]!.image);
    await describeFaces(
      await sharp({ create: { width: 320, height: 240, channels: 3, background: '#ffffff' } })
        .png()
        .toBuffer(),
    );

    expect(before).toBeGreaterThan(0);
    expect(faceModelTensorCount()).toBe(before);
  });
});
