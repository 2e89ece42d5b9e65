import type { FaceBox } from '#lib/faces/rules/face-descriptors';

export interface Photo {
  photoId: string;
  personId: string;
  fileName: string;
  objectKey: string;
  /** Pixels, when the uploader knew them. */
  width: number | null;
  height: number | null;
  /** When it was taken, as the camera wrote it (lib/photos/common/rules/capture-facts.ts); null when unknown. */
  capturedAt: string | null;
  /** When it became the person's photo: its upload, or its shoot photo's. */
  createdAt: string;
  /** Where the person's face is (upright pixels), when the second opinion found it there; never in an API answer. */
  faceBox?: FaceBox;
}

/**
 * A person's photos in the order they were taken: by capture time, then file name (a burst
 * within one millisecond), then photo ID, so that every listing gives the same order. Photos
 * without a capture time come last, in the order they were recorded: capture times are camera
 * clocks without a time zone, which a recording time in UTC cannot be placed among.
 */
export function sortPhotosByCapture(photos: readonly Photo[]): Photo[] {
  return [...photos].sort(
    (a, b) =>
      compareCaptureTimes(a.capturedAt, b.capturedAt) ||
      (a.capturedAt === null ? a.createdAt.localeCompare(b.createdAt) : 0) ||
      compareText(a.fileName, b.fileName) ||
      compareText(a.photoId, b.photoId),
  );
}

/** Earlier first, unknown last. Capture times share one format, so their text sorts as their time. */
function compareCaptureTimes(a: string | null, b: string | null): number {
  if (a === null || b === null) return a === b ? 0 : a === null ? 1 : -1;
  return compareText(a, b);
}

/** By code unit, not by locale: the same order on every machine. */
const compareText = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
