import exifReader from 'exif-reader';

/**
 * What a shoot photo's EXIF says about where it belongs in a shoot: when it was taken and by
 * which camera. Ingest (lib/photos/adapters/shoot-photo-reader.ts) and the upload command
 * (scripts/photos/) both read it so, so a file and the metadata uploaded with it never disagree.
 */
export interface CaptureFacts {
  /** DateTimeOriginal (+ SubSecTimeOriginal) as written, no time zone applied: `2026-11-20T10:00:01.120Z`. */
  capturedAt: string | null;
  /** `<Make> <Model> #<BodySerialNumber>`, leaving out what the camera did not write; null when it wrote none of them. */
  camera: string | null;
}

const NO_FACTS: CaptureFacts = { capturedAt: null, camera: null };

/** The facts of a raw EXIF block (as sharp's metadata gives it); a block that does not parse counts as none. */
export function captureFactsOf(block: Buffer | undefined): CaptureFacts {
  if (!block) return NO_FACTS;
  let exif: ReturnType<typeof exifReader>;
  try {
    exif = exifReader(block);
  } catch {
    return NO_FACTS; // the photo itself may be fine
  }
  return {
    capturedAt: captureTime(exif.Photo?.DateTimeOriginal, exif.Photo?.SubSecTimeOriginal),
    camera: cameraIdentity(exif.Image?.Make, exif.Image?.Model, exif.Photo?.BodySerialNumber),
  };
}

/**
 * exif-reader reads "YYYY:MM:DD HH:MM:SS" as that wall-clock time in UTC, so rendering it in UTC
 * gives the digits back as written. SubSecTimeOriginal holds digits of a fraction of a second
 * (`12` is 120 ms). A date before 1970 is a camera whose clock was never set (`0000:00:00 00:00:00`).
 */
function captureTime(original: unknown, subSeconds: unknown): string | null {
  if (!(original instanceof Date) || Number.isNaN(original.getTime()) || original.getTime() < 0) return null;
  const digits = textOf(subSeconds);
  const milliseconds = /^\d+$/.test(digits) ? Number(digits.slice(0, 3).padEnd(3, '0')) : 0;
  return new Date(original.getTime() + milliseconds).toISOString();
}

function cameraIdentity(make: unknown, model: unknown, serial: unknown): string | null {
  const name = [make, model].map(textOf).filter((part) => part !== '').join(' ');
  const serialText = textOf(serial);
  const identity = serialText === '' ? name : `${name} #${serialText}`.trim();
  return identity === '' ? null : identity;
}

/** An EXIF text without its padding (NULs, spaces); exif-reader gives a Buffer for non-ASCII bytes, which is no text here. */
const textOf = (value: unknown): string => (typeof value === 'string' ? value.replace(/\0/g, '').trim() : '');
