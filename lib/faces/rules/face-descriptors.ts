/**
 * Faces as the second opinion compares them: a detected face's box and its 128-d descriptor
 * (lib/faces/adapters/face-model.ts computes them). A descriptor is biometric data: only a
 * consenting person's reference is ever stored (docs/personal-data.md).
 */

export interface FaceBox {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface DetectedFace {
  box: FaceBox;
  /** The detector's confidence, 0 to 1. */
  score: number;
  /** 128 numbers. */
  descriptor: number[];
}

/** Euclidean distance between two descriptors. */
export function faceDistance(a: readonly number[], b: readonly number[]): number {
  if (a.length !== b.length) throw new Error(`Descriptors of different lengths (${a.length}, ${b.length})`);
  let sum = 0;
  for (let index = 0; index < a.length; index += 1) {
    const difference = a[index]! - b[index]!;
    sum += difference * difference;
  }
  return Math.sqrt(sum);
}

/** The photo's main face: the largest one (a portrait's subject is nearest the camera). */
export function mainFace<T extends { box: FaceBox }>(faces: readonly T[]): T | undefined {
  let largest: T | undefined;
  for (const face of faces)
    if (!largest || face.box.width * face.box.height > largest.box.width * largest.box.height) largest = face;
  return largest;
}
