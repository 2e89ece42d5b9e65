/**
 * Portraits framed as a camera frames them, built from the packaged faces (packaged-faces.ts):
 * a face at a given share of a 24 MP frame's height, on a blurred background, as a JPEG.
 * A face's height is the height of the box the detector gives on the face's crop alone (about
 * brow to chin), so "a face at 10 %" is a box 400 px high in a 6000 × 4000 frame.
 */
import sharp, { type Sharp } from 'sharp';
import type { DetectedFace, FaceBox } from '#lib/faces/rules/face-descriptors';
import type { LabelledFaceImage } from './packaged-faces';

/** Shares of the frame's height a face fills: a group or full-length shot, half-length, head and shoulders, a close-up. */
export const FACE_HEIGHT_SHARES = [0.1, 0.25, 0.4, 0.6] as const;

/** A 24 MP camera's frame held either way. */
export const FRAMES = {
  landscape: { width: 6000, height: 4000 },
  portrait: { width: 4000, height: 6000 },
} as const;
export type Orientation = keyof typeof FRAMES;

/** A packaged face with the box and descriptor the model gives on its crop alone. */
export interface SittingFace extends LabelledFaceImage {
  face: DetectedFace;
}

export interface FramedPortrait {
  /** The frame as a JPEG of quality 90, as a camera writes it. */
  image: Buffer;
  /** Where the face's box lands in the frame. */
  faceBox: FaceBox;
}

/**
 * The sitter's crop enlarged or shrunk so that their face's box is `share` of the frame's
 * height, its centre on the frame's vertical centre line and at 40 % of its height (eyes near
 * the upper third), on the sitter's own photo blurred to a backdrop. What falls outside the
 * frame is cut off.
 */
export async function framedPortrait(
  sitter: SittingFace,
  orientation: Orientation,
  share: number,
): Promise<FramedPortrait> {
  const frame = FRAMES[orientation];
  const crop = await sharp(sitter.image).metadata();
  const scale = (share * frame.height) / sitter.face.box.height;
  const width = Math.round(crop.width * scale);
  const height = Math.round(crop.height * scale);
  const faceCentre = {
    x: (sitter.face.box.x + sitter.face.box.width / 2) * scale,
    y: (sitter.face.box.y + sitter.face.box.height / 2) * scale,
  };
  const left = Math.round(frame.width / 2 - faceCentre.x);
  const top = Math.round(frame.height * 0.4 - faceCentre.y);
  const visible = {
    left: Math.max(0, -left),
    top: Math.max(0, -top),
    right: Math.min(width, frame.width - left),
    bottom: Math.min(height, frame.height - top),
  };
  const subject = await sharp(sitter.image)
    .resize({ width, height, fit: 'fill' })
    .extract({
      left: visible.left,
      top: visible.top,
      width: visible.right - visible.left,
      height: visible.bottom - visible.top,
    })
    .toBuffer();
  const image = await (
    await backdrop(sitter, orientation)
  )
    .composite([{ input: subject, left: left + visible.left, top: top + visible.top }])
    .jpeg({ quality: 90 })
    .toBuffer();
  return {
    image,
    faceBox: {
      x: left + sitter.face.box.x * scale,
      y: top + sitter.face.box.y * scale,
      width: sitter.face.box.width * scale,
      height: sitter.face.box.height * scale,
    },
  };
}

/** The sitter's crop blurred to fill the frame: a portrait's background, out of focus. */
export async function backdrop(sitter: LabelledFaceImage, orientation: Orientation): Promise<Sharp> {
  const frame = FRAMES[orientation];
  // Blurred small and then enlarged: as out of focus, without blurring 24 MP.
  const small = await sharp(sitter.image)
    .resize({ width: frame.width / 20, height: frame.height / 20, fit: 'cover' })
    .blur(4)
    .toBuffer();
  return sharp(small).resize({ width: frame.width, height: frame.height, kernel: 'cubic' });
}

/** The face among `faces` whose centre lies inside the box where the sitter's face was put, if any. */
export function sitterAmong<T extends { box: FaceBox }>(faces: readonly T[], faceBox: FaceBox): T | undefined {
  return faces.find(({ box }) => {
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    return x > faceBox.x && x < faceBox.x + faceBox.width && y > faceBox.y && y < faceBox.y + faceBox.height;
  });
}
