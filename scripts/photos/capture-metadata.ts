import { open } from 'node:fs/promises';
import sharp from 'sharp';
import { type CaptureFacts, captureFactsOf } from '#lib/photos/common/rules/capture-facts';

/**
 * Capture time and camera of a shoot photo, as the upload stores them in the object metadata
 * `captured-at` and `camera` (docs/photos.md#uploading-a-shoot). The formats are the ones ingest
 * derives from EXIF itself, so a file and its metadata never disagree.
 */
export type CaptureMetadata = CaptureFacts;

/** EXIF, ICC profile and the other header segments come before the image data; this is plenty. */
const HEADER_BYTES = 256 * 1024;

/** Reads the file's header only (no decode) and derives capture time and camera from its EXIF. */
export async function readCaptureMetadata(path: string): Promise<CaptureMetadata> {
  return captureFactsOf(
    (await exifOf(await readHead(path, HEADER_BYTES))) ?? (await exifOf(await readHead(path, Infinity))),
  );
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const size = Math.min(bytes, (await file.stat()).size);
    const buffer = Buffer.alloc(size);
    await file.read(buffer, 0, size, 0);
    return buffer;
  } finally {
    await file.close();
  }
}

/** sharp reads the JPEG markers up to the image data; a header cut short of it fails, hence the retry with the whole file. */
async function exifOf(head: Buffer): Promise<Buffer | undefined> {
  try {
    return (await sharp(head).metadata()).exif;
  } catch {
    return undefined;
  }
}
