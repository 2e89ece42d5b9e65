import { readFile } from 'node:fs/promises';
import type { default as SharpFunction, Metadata } from 'sharp';
import type { ReaderOptions, readBarcodes as readBarcodesOfZxing } from 'zxing-wasm/reader';
import { captureFactsOf } from '#lib/photos/common/rules/capture-facts';

/** What one shoot photo says about itself. */
export interface ShootPhotoReading {
  /** Pixels as the photo is shown, i.e. turned upright by its EXIF orientation. */
  width: number;
  height: number;
  /** EXIF DateTimeOriginal with SubSecTimeOriginal, as written (no time zone), `YYYY-MM-DDTHH:MM:SS.mmmZ`. */
  capturedAt: string | null;
  /** `<Make> <Model> #<BodySerialNumber>` from EXIF, without what is missing. */
  camera: string | null;
  /** The text of every QR code and Data Matrix found, trimmed, each once. */
  codes: string[];
}

/** The bytes are not an image sharp can decode (or are truncated, or too large). */
export class UnreadableImageError extends Error {
  override readonly name = 'UnreadableImageError';

  constructor() {
    super('The photo could not be decoded as an image.');
  }
}

/**
 * Longest side of the image the codes are searched in. libjpeg decodes a camera's JPEG straight
 * at half its size (shrink-on-load: 6000 × 4000 becomes 3000 × 2000), which is then resampled to
 * this. A card's code of 3 % of the short side keeps 2.9 pixels per module, enough at any angle;
 * 1500 (a quarter, no resampling) was about 10 % faster and missed such codes turned 45°
 * (scripts/bench/photo-ingest.ts measures the time).
 */
export const SEARCH_MAX_DIMENSION = 2000;

/** Most pixels a photo may declare: 110 MP (a 102 MP medium-format camera's 11648 × 8736 fits). */
const MAX_PHOTO_PIXELS = 110_000_000;

/** Longest one decode may take (24 MP takes about 0.2 s). */
const DECODE_TIMEOUT_SECONDS = 20;

const ZXING_OPTIONS: ReaderOptions = {
  formats: ['QRCode', 'DataMatrix'],
  // Both symbologies are found at any angle without it; tryRotate only turns the image for linear codes.
  tryRotate: false,
  // Cards are printed dark on light.
  tryInvert: false,
  tryHarder: true,
  tryDownscale: true,
  // A symbol found but not decoded is the sign of a blurred card, worth a second look.
  returnErrors: true,
};

/**
 * The second look at a photo in which a symbol was found but not decoded (a few portraits have
 * such a false one, most have none): the same pixels sharpened, which recovers codes blurred
 * by about half a module.
 */
const SHARPEN = { sigma: 1.5, m1: 2, m2: 4 };

const ZXING_READER_WASM = 'zxing-wasm/reader/zxing_reader.wasm';

let modules: Promise<{ sharp: typeof SharpFunction; readBarcodes: typeof readBarcodesOfZxing }> | undefined;

/**
 * sharp (native) and the ZXing reader (WebAssembly, about 1 MB) are loaded with the first photo,
 * not at a cold start: most of what the ingest function sees is no shoot photo. ZXing gets its
 * WebAssembly from us, never from the CDN it would fetch it from by default.
 */
function loadModules(): NonNullable<typeof modules> {
  modules ??= Promise.all([import('sharp'), import('zxing-wasm/reader'), readerWasm()]).then(
    ([{ default: sharp }, zxing, wasmBinary]) => {
      sharp.cache(false); // nothing of one photo stays in memory for the next
      zxing.prepareZXingModule({ overrides: { wasmBinary: toArrayBuffer(wasmBinary) } });
      return { sharp: sharp, readBarcodes: zxing.readBarcodes };
    },
    (error: unknown) => {
      modules = undefined; // a failed load is not kept: the next photo tries again
      throw error;
    },
  );
  return modules;
}

/**
 * ZXing's WebAssembly. A function bundle (an ES module, so without CommonJS' `__filename`)
 * carries it in a chunk of its own, embedded by esbuild's binary loader (infra/function-bundle.ts);
 * from source it is read from the installed package.
 */
async function readerWasm(): Promise<Uint8Array> {
  if (typeof __filename === 'undefined') {
    const embedded: unknown = (await import('zxing-wasm/reader/zxing_reader.wasm')).default; // typed for esbuild's file loader
    return embedded as Uint8Array;
  }
  return readFile(require.resolve(ZXING_READER_WASM));
}

const toArrayBuffer = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

/**
 * Reads a shoot photo: its upright size, capture time and camera from EXIF, and the codes it
 * shows. The codes are searched in the photo decoded at most SEARCH_MAX_DIMENSION on its
 * longest side, upright (ZXing turns it grey). Throws UnreadableImageError for bytes that are no image.
 */
export async function readShootPhoto(bytes: Uint8Array): Promise<ShootPhotoReading> {
  const { sharp, readBarcodes } = await loadModules();
  const input = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const options = { failOn: 'error', limitInputPixels: MAX_PHOTO_PIXELS } as const;
  let metadata: Metadata;
  let pixels: { data: Buffer; info: { width: number; height: number } };
  try {
    metadata = await sharp(input, options).metadata();
    pixels = await sharp(input, options)
      .autoOrient()
      .resize({ width: SEARCH_MAX_DIMENSION, height: SEARCH_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true })
      // Four channels, as ZXing takes image data; it turns them grey itself.
      .ensureAlpha()
      .raw()
      .timeout({ seconds: DECODE_TIMEOUT_SECONDS })
      .toBuffer({ resolveWithObject: true });
  } catch {
    throw new UnreadableImageError();
  }
  const { width, height } = pixels.info;
  let found = await searchCodes(readBarcodes, pixels.data, width, height);
  if (found.codes.length === 0 && found.unreadable) {
    const sharpened = await sharp(pixels.data, { raw: { width, height, channels: 4 } })
      .sharpen(SHARPEN)
      .raw()
      .toBuffer();
    found = await searchCodes(readBarcodes, sharpened, width, height);
  }
  return {
    width: metadata.autoOrient.width,
    height: metadata.autoOrient.height,
    ...captureFactsOf(metadata.exif),
    codes: found.codes,
  };
}

/** The decoded texts, trimmed, each once; `unreadable` when a symbol was found that did not decode. */
async function searchCodes(
  readBarcodes: typeof readBarcodesOfZxing,
  rgba: Buffer,
  width: number,
  height: number,
): Promise<{ codes: string[]; unreadable: boolean }> {
  // ZXing takes the DOM's ImageData, which Node has not; it reads only these fields.
  const data = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, rgba.byteLength);
  const results = await readBarcodes({ data, width, height }, ZXING_OPTIONS);
  const texts = results.filter((result) => result.isValid).map((result) => result.text.trim());
  return {
    codes: [...new Set(texts.filter((text) => text !== ''))],
    unreadable: results.some((result) => !result.isValid),
  };
}
