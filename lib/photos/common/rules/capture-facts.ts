import exifReader from 'exif-reader';

/**
 * What a photo's EXIF says about where it belongs in a shoot and among a person's photos: when
 * it was taken and by which camera. Ingest (lib/photos/sorting/adapters/shoot-photo-reader.ts,
 * lib/photos/sorting/ingest-photo.ts) and the upload command (scripts/photos/) all read it so, so a file
 * and the metadata uploaded with it never disagree.
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
  const name = [make, model]
    .map(textOf)
    .filter((part) => part !== '')
    .join(' ');
  const serialText = textOf(serial);
  const identity = serialText === '' ? name : `${name} #${serialText}`.trim();
  return identity === '' ? null : identity;
}

/** An EXIF text without its padding (NULs, spaces); exif-reader gives a Buffer for non-ASCII bytes, which is no text here. */
const textOf = (value: unknown): string => (typeof value === 'string' ? value.replace(/\0/g, '').trim() : '');

const EXIF_HEADER = Buffer.from('Exif\0\0', 'latin1');

/**
 * The raw EXIF block of a JPEG (its APP1 segment after the marker and length, as sharp's
 * metadata gives it), read from the header segments of the file's first bytes without
 * decoding anything; undefined for no JPEG, no EXIF, or EXIF beyond `head`. The Exif standard
 * puts the block right after the start of the image, so the first 64 KB hold it.
 */
export function exifBlockOfJpeg(head: Uint8Array): Buffer | undefined {
  const bytes = Buffer.from(head.buffer, head.byteOffset, head.byteLength);
  if (bytes.length < 4 || bytes[0] !== 0xff || bytes[1] !== 0xd8) return undefined;
  let offset = 2;
  while (offset + 4 <= bytes.length && bytes[offset] === 0xff) {
    const marker = bytes[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // image data, or the end: no EXIF before them
    const length = bytes.readUInt16BE(offset + 2);
    const end = offset + 2 + length;
    if (length < 2 || end > bytes.length) return undefined;
    const payload = bytes.subarray(offset + 4, end);
    if (marker === 0xe1 && payload.subarray(0, EXIF_HEADER.length).equals(EXIF_HEADER)) return payload;
    offset = end;
  }
  return undefined;
}
