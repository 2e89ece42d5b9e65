import { open } from 'node:fs/promises';
import exifReader from 'exif-reader';
import sharp from 'sharp';

/**
 * Capture time and camera of a shoot photo, as the upload stores them in the object metadata
 * `captured-at` and `camera` (docs/photos.md#uploading-a-shoot). The formats are the ones ingest
 * derives from EXIF itself, so a file and its metadata never disagree.
 */
export interface CaptureMetadata {
  /** DateTimeOriginal (+ SubSecTimeOriginal) as written, no time zone applied: `2026-11-20T10:00:01.120Z`. */
  capturedAt: string | null;
  /** `<Make> <Model> #<BodySerialNumber>`, or without the serial; null when none of these is there. */
  camera: string | null;
}

/** EXIF, ICC profile and the other header segments come before the image data; this is plenty. */
const HEADER_BYTES = 256 * 1024;

/** Reads the file's header only (no decode) and derives capture time and camera from its EXIF. */
export async function readCaptureMetadata(path: string): Promise<CaptureMetadata> {
  const exif = (await exifOf(await readHead(path, HEADER_BYTES))) ?? (await exifOf(await readHead(path, Infinity)));
  if (!exif) return { capturedAt: null, camera: null };
  try {
    return captureMetadataFromExif(exifReader(exif));
  } catch {
    return { capturedAt: null, camera: null }; // EXIF that does not parse is as good as none
  }
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

type Exif = ReturnType<typeof exifReader>;

/** The capture metadata an EXIF block (as exif-reader parses it) gives. */
function captureMetadataFromExif(exif: Exif): CaptureMetadata {
  return {
    capturedAt: captureTime(exif.Photo?.DateTimeOriginal, exif.Photo?.SubSecTimeOriginal),
    camera: cameraIdentity(exif.Image?.Make, exif.Image?.Model, exif.Photo?.BodySerialNumber),
  };
}

/**
 * exif-reader reads "YYYY:MM:DD HH:MM:SS" as that wall-clock time in UTC, so the digits stay as
 * written. A date before 1970 is a camera whose clock was never set (`0000:00:00 00:00:00`).
 * The same rule as ingest's reader (lib/adapters/shoot-photo-reader.ts).
 */
function captureTime(original: unknown, subSeconds: unknown): string | null {
  if (!(original instanceof Date) || Number.isNaN(original.getTime()) || original.getTime() < 0) return null;
  const digits = cleanText(subSeconds);
  const milliseconds = /^\d+$/.test(digits) ? Number(digits.slice(0, 3).padEnd(3, '0')) : 0;
  return new Date(original.getTime() + milliseconds).toISOString();
}

function cameraIdentity(make: unknown, model: unknown, serial: unknown): string | null {
  const name = [make, model].map(cleanText).filter((part) => part !== '').join(' ');
  const serialText = cleanText(serial);
  const identity = serialText === '' ? name : `${name} #${serialText}`.trim();
  return identity === '' ? null : identity;
}

/** EXIF strings are padded with NULs or spaces. */
function cleanText(value: unknown): string {
  return typeof value === 'string' ? value.replace(/\0/g, '').trim() : '';
}
