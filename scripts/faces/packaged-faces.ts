/**
 * Faces to measure the face model with, cut from the real photos that installed packages ship
 * (never drawn by hand): face-api's six demo photos, 22 different people, and the first row of
 * human's face-match screenshot, 16 thumbnails of one man. The boxes are fixed in
 * packaged-faces.json, which locate-packaged-faces.ts wrote by running the detector.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';

const ROOT = join(__dirname, '..', '..');
export const PACKAGED_FACES_FILE = join(__dirname, 'packaged-faces.json');

/** The one person with many photos among the packaged faces: the man of the face-match screenshot's thumbnails. */
export const THUMBNAILS_IDENTITY = 'human-facematch-man';

/** A region of a packaged photo, in its pixels, and the black border added around it. */
export interface PackagedFaceBox {
  identity: string;
  /** The photo's path inside node_modules. */
  source: string;
  box: { left: number; top: number; width: number; height: number };
  /**
   * Black pixels added on each side. The screenshot's thumbnails are cut tight around the face;
   * with the face filling the frame the detector misses most of them, with a border it finds them.
   */
  pad: number;
}

export interface LabelledFaceImage {
  identity: string;
  /** Where the image comes from: the photo, its box, and its augmentation if any. */
  source: string;
  image: Buffer;
}

/** The boxes as checked in. */
export function packagedFaceBoxes(): PackagedFaceBox[] {
  return (JSON.parse(readFileSync(PACKAGED_FACES_FILE, 'utf8')) as { faces: PackagedFaceBox[] }).faces;
}

/** A photo that an installed package ships, by its path inside node_modules. */
export function packagedPhoto(source: string): Buffer {
  return readFileSync(join(ROOT, 'node_modules', source));
}

/** The region of a photo as a JPEG of quality 95, with its border. */
export async function cropFace(photo: Buffer, { box, pad }: Pick<PackagedFaceBox, 'box' | 'pad'>): Promise<Buffer> {
  return sharp(photo)
    .extract(box)
    .extend({ top: pad, bottom: pad, left: pad, right: pad, background: '#000000' })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** Every packaged face, cropped, labelled with its identity. */
export async function packagedFaces(): Promise<LabelledFaceImage[]> {
  const photos = new Map<string, Buffer>();
  const faces: LabelledFaceImage[] = [];
  for (const face of packagedFaceBoxes()) {
    if (!photos.has(face.source)) photos.set(face.source, packagedPhoto(face.source));
    const { left, top, width, height } = face.box;
    faces.push({
      identity: face.identity,
      source: `${face.source} [${left},${top} ${width}×${height}]`,
      image: await cropFace(photos.get(face.source)!, face),
    });
  }
  return faces;
}

/** What a photographer's photos vary by: the same face seen again, changed as a second photo would change it. */
export const AUGMENTATIONS = ['mirrored', 'jpeg-q40', 'darker', 'rotated', 'downscaled'] as const;
export type Augmentation = (typeof AUGMENTATIONS)[number];

/** The image changed by one augmentation, as a JPEG. */
export async function augment(image: Buffer, kind: Augmentation): Promise<Buffer> {
  const picture = sharp(image);
  switch (kind) {
    case 'mirrored':
      return picture.flop().jpeg({ quality: 95 }).toBuffer();
    case 'jpeg-q40':
      return picture.jpeg({ quality: 40 }).toBuffer();
    case 'darker':
      return picture.modulate({ brightness: 0.6 }).jpeg({ quality: 95 }).toBuffer();
    case 'rotated':
      return picture.rotate(10, { background: '#000000' }).jpeg({ quality: 95 }).toBuffer();
    case 'downscaled': {
      const { width } = await sharp(image).metadata();
      return picture
        .resize({ width: Math.round(width * 0.6) })
        .jpeg({ quality: 95 })
        .toBuffer();
    }
  }
}

/** Each face, then each of its augmentations, all under the face's identity. */
export async function withAugmentations(faces: readonly LabelledFaceImage[]): Promise<LabelledFaceImage[]> {
  const all: LabelledFaceImage[] = [];
  for (const face of faces) {
    all.push(face);
    for (const kind of AUGMENTATIONS)
      all.push({ identity: face.identity, source: `${face.source} ${kind}`, image: await augment(face.image, kind) });
  }
  return all;
}
