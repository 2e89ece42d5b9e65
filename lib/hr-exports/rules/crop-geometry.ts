import type { FaceBox } from '#lib/faces/rules/face-descriptors';

/**
 * The square a portrait is cut from when a face box is known: centred on the face, a little
 * above its middle (head and shoulders), its side FACE_TO_SIDE times the face's larger side,
 * never larger than the image's shorter side and always inside the image.
 */
export const FACE_TO_SIDE = 2.5;

export interface SquareRegion {
  left: number;
  top: number;
  side: number;
}

export function squareAroundFace(face: FaceBox, image: { width: number; height: number }): SquareRegion {
  const side = Math.max(
    1,
    Math.floor(Math.min(Math.max(face.width, face.height) * FACE_TO_SIDE, image.width, image.height)),
  );
  const centreX = face.x + face.width / 2;
  // The face sits in the upper half of a portrait: the square's centre is a little below the face's.
  const centreY = face.y + face.height / 2 + face.height * 0.25;
  const clamp = (value: number, max: number) => Math.min(Math.max(0, Math.round(value)), max);
  return {
    left: clamp(centreX - side / 2, image.width - side),
    top: clamp(centreY - side / 2, image.height - side),
    side,
  };
}
