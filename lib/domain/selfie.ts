import { DomainError } from '#lib/domain/domain-error';
import { MAX_SELFIE_BYTES } from '#lib/domain/field-limits';

/**
 * Selfies: a JPEG of at most MAX_SELFIE_BYTES once decoded, sent as a data URI
 * (`data:image/jpeg;base64,…`) or as raw base64.
 */
const DATA_URI = /^data:([^;,]*)(;[^,]*)?,/;
const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;

/** The JPEG bytes of a submitted selfie, or invalid_selfie / selfie_too_large. */
export function decodeSelfie(submitted: string): Buffer {
  let payload = submitted;
  const dataUri = DATA_URI.exec(submitted);
  if (dataUri) {
    const [prefix, mediaType, parameters] = dataUri;
    if (!/^image\/(jpeg|jpg)$/i.test(mediaType ?? '') || !/;base64$/i.test(parameters ?? '')) {
      throw new DomainError('invalid_selfie', 'The selfie data URI must be data:image/jpeg;base64,…');
    }
    payload = submitted.slice(prefix.length);
  }
  payload = payload.replace(/\s+/g, '');
  if (Math.floor((payload.length * 3) / 4) > MAX_SELFIE_BYTES + 2) throw new DomainError('selfie_too_large');
  if (payload.length === 0 || !BASE64.test(payload)) throw new DomainError('invalid_selfie', 'The selfie is not valid base64.');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > MAX_SELFIE_BYTES) throw new DomainError('selfie_too_large');
  return bytes;
}

/** APP0 "JFIF" and APP14 "Adobe" shape how a JPEG decodes; every other APPn and comment is metadata. */
function keepsApplicationSegment(marker: number, segment: Buffer): boolean {
  const identifier = segment.subarray(4, 9).toString('latin1');
  return (marker === 0xe0 && identifier === 'JFIF\0') || (marker === 0xee && identifier === 'Adobe');
}

/**
 * The JPEG without its metadata: EXIF (GPS position, camera, time), XMP, IPTC, ICC and
 * comments are removed; the image data is copied unchanged. Anything that is not a
 * well-formed JPEG is invalid_selfie.
 */
export function stripJpegMetadata(jpeg: Buffer): Buffer {
  const invalid = () => new DomainError('invalid_selfie', 'The selfie is not a JPEG image.');
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw invalid();
  if (jpeg[jpeg.length - 2] !== 0xff || jpeg[jpeg.length - 1] !== 0xd9) throw invalid();
  const kept: Buffer[] = [jpeg.subarray(0, 2)];
  let offset = 2;
  let sawFrame = false;
  for (;;) {
    if (offset + 4 > jpeg.length || jpeg[offset] !== 0xff) throw invalid();
    const marker = jpeg[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    const length = jpeg.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > jpeg.length) throw invalid();
    const segment = jpeg.subarray(offset, offset + 2 + length);
    if (marker === 0xda) {
      if (!sawFrame) throw invalid();
      kept.push(jpeg.subarray(offset)); // start of scan: the image data, up to and with EOI
      return Buffer.concat(kept);
    }
    const isMetadata = (marker >= 0xe0 && marker <= 0xef && !keepsApplicationSegment(marker, segment)) || marker === 0xfe;
    if (!isMetadata) kept.push(segment);
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) sawFrame = true;
    offset += 2 + length;
  }
}
