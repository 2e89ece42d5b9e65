import { DomainError } from '#lib/platform/domain-error';
import { MAX_SELFIE_BYTES, MAX_SELFIE_PIXELS } from '#lib/checkin/rules/checkin-limits';

/**
 * Selfies: a JPEG of at most MAX_SELFIE_BYTES once decoded and MAX_SELFIE_PIXELS, sent as a
 * data URI (`data:image/jpeg;base64,…`) or as raw base64. The bytes as sent are never stored:
 * submitCheckin stores what reencodeSelfie (lib/checkin/adapters/selfie-image.ts) makes of them.
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
  if (payload.length === 0 || !BASE64.test(payload))
    throw new DomainError('invalid_selfie', 'The selfie is not valid base64.');
  const bytes = Buffer.from(payload, 'base64');
  if (bytes.length > MAX_SELFIE_BYTES) throw new DomainError('selfie_too_large');
  return bytes;
}

/** The size a JPEG's frame header declares. */
export interface JpegFrameSize {
  width: number;
  height: number;
}

/** SOF0 to SOF15 start a frame; C4 (DHT), C8 (JPG) and CC (DAC) share the range but do not. */
const isStartOfFrame = (marker: number) =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

/**
 * The frame size of a JPEG, read from its header segments without decoding any image data: a
 * cheap check, before anything is stored, that the selfie is a JPEG at all and declares at most
 * MAX_SELFIE_PIXELS (a decompression bomb declares far more). What follows the frame header
 * (image data, trailing bytes, further images) is not looked at here: lib/checkin/adapters/selfie-image.ts
 * decodes it and stores a new JPEG, without any of the sent file's segments.
 */
export function readJpegFrameSize(jpeg: Buffer): JpegFrameSize {
  const invalid = () => new DomainError('invalid_selfie', 'The selfie is not a JPEG image.');
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw invalid();
  let offset = 2;
  for (;;) {
    if (offset + 4 > jpeg.length || jpeg[offset] !== 0xff) throw invalid();
    const marker = jpeg[offset + 1]!;
    if (marker === 0xff) {
      offset += 1; // fill byte
      continue;
    }
    if (marker === 0xda || marker === 0xd9) throw invalid(); // image data or the end before any frame
    const length = jpeg.readUInt16BE(offset + 2);
    if (length < 2 || offset + 2 + length > jpeg.length) throw invalid();
    if (isStartOfFrame(marker)) {
      if (length < 8) throw invalid();
      const height = jpeg.readUInt16BE(offset + 5);
      const width = jpeg.readUInt16BE(offset + 7);
      if (width === 0 || height === 0) throw invalid();
      if (width * height > MAX_SELFIE_PIXELS) {
        throw new DomainError(
          'invalid_selfie',
          `The selfie has more than ${MAX_SELFIE_PIXELS / 1_000_000} megapixels.`,
        );
      }
      return { width, height };
    }
    offset += 2 + length;
  }
}
