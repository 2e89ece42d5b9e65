/**
 * Calibrating a gallery's face thresholds from photos of consenting people, labelled by person:
 * each photo's main face is described by the face model, then measured by the calibration
 * rules. `npm run faces -- calibrate` runs it (docs/photos.md#thresholds).
 */
import { describeFaces, UnreadableFaceImageError } from '#lib/faces/adapters/face-model';
import { type CalibrationReport, calibrate } from '#lib/faces/rules/calibration';
import { mainFace } from '#lib/faces/rules/face-descriptors';
import type { FaceThresholds } from '#lib/galleries/rules/face-matching';

export interface LabelledPhoto {
  identity: string;
  /** Where the photo comes from (a file), to name it in the report. */
  source: string;
  image: Buffer;
}

export interface PhotoLeftOut {
  identity: string;
  source: string;
  reason: 'no_face' | 'unreadable';
}

export interface PhotoCalibration {
  photos: number;
  leftOut: PhotoLeftOut[];
  report: CalibrationReport;
}

export interface PhotoCalibrationOptions {
  /** The thresholds the suggestions are compared with. */
  current: FaceThresholds;
  /** How many of the photos are altered copies of each original (1 for photos as taken). */
  copiesPerPhoto?: number;
  /** Called after each photo, with the number described so far. */
  onPhotoDescribed?: (described: number, total: number) => void;
}

/**
 * Describes every photo, one at a time (the model runs on one thread), keeps each one's main
 * face under its identity, in the order given (a person's first photo is their reference in
 * the fill-in measure), and calibrates. A photo without a face, or that is no image, is left out and named.
 */
export async function calibrateFromPhotos(
  photos: readonly LabelledPhoto[],
  options: PhotoCalibrationOptions,
): Promise<PhotoCalibration> {
  const labelled = new Map<string, number[][]>();
  const leftOut: PhotoLeftOut[] = [];
  for (const [index, { identity, source, image }] of photos.entries()) {
    const face = await mainFaceOf(image);
    if (typeof face === 'string') leftOut.push({ identity, source, reason: face });
    else labelled.set(identity, [...(labelled.get(identity) ?? []), face]);
    options.onPhotoDescribed?.(index + 1, photos.length);
  }
  return { photos: photos.length, leftOut, report: calibrate(labelled, options.current, options.copiesPerPhoto) };
}

async function mainFaceOf(image: Buffer): Promise<number[] | PhotoLeftOut['reason']> {
  try {
    return mainFace(await describeFaces(image))?.descriptor ?? 'no_face';
  } catch (error) {
    if (error instanceof UnreadableFaceImageError) return 'unreadable';
    throw error;
  }
}
