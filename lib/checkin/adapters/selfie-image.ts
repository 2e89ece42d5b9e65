import type { default as SharpFunction, Sharp, SharpOptions } from 'sharp';
import { DomainError } from '#lib/platform/domain-error';
import { MAX_SELFIE_PIXELS } from '#lib/checkin/rules/checkin-limits';
import { readJpegFrameSize } from '#lib/checkin/rules/selfie';

/** The stored selfie's longest side at most, in pixels; a smaller selfie keeps its size. */
export const SELFIE_MAX_DIMENSION = 2048;

/**
 * JPEG quality of the stored selfie (libjpeg's scale, 1 to 100; sharp's default is 80): 85
 * keeps the detail face matching needs, without the size of the near-lossless 90s.
 */
export const SELFIE_JPEG_QUALITY = 85;

/** Longest a re-encode may take; a typical phone picture takes well under a second. */
const REENCODE_TIMEOUT_SECONDS = 10;

const DECODE_OPTIONS: SharpOptions = {
  // Refused from the header, before any pixel is decoded.
  limitInputPixels: MAX_SELFIE_PIXELS,
  // A truncated file or image data libjpeg cannot get through is refused; data it recovers from
  // with a warning (a corrupt block shown grey, extraneous bytes) is accepted, as browsers show it.
  failOn: 'error',
};

let sharpModule: Promise<typeof SharpFunction> | undefined;

/**
 * sharp (libvips, a native module) is loaded with the first selfie: most check-ins send none,
 * and loading it costs cold-start time. libvips' operation cache is off, so no decoded selfie
 * stays in memory between requests.
 */
function loadSharp(): Promise<typeof SharpFunction> {
  sharpModule ??= import('sharp').then(
    ({ default: sharp }) => {
      sharp.cache(false);
      return sharp;
    },
    (error: unknown) => {
      sharpModule = undefined; // a failed load is not kept: the next selfie tries again
      throw error;
    },
  );
  return sharpModule;
}

/**
 * The selfie as it is stored: decoded, turned upright by its EXIF orientation, fitted within
 * SELFIE_MAX_DIMENSION × SELFIE_MAX_DIMENSION (never enlarged), and encoded anew as a baseline
 * JPEG of SELFIE_JPEG_QUALITY in sRGB. Nothing of the sent file but its first image's pixels
 * survives: no EXIF (GPS position, camera, time), ICC profile, XMP, IPTC, comment or other
 * APPn segment, no embedded thumbnail, no further image of a multi-picture file (MPF) and no
 * bytes after its end. Anything but a JPEG, more than MAX_SELFIE_PIXELS, or image data the
 * decoder refuses is invalid_selfie.
 */
export async function reencodeSelfie(jpeg: Buffer): Promise<Buffer> {
  readJpegFrameSize(jpeg); // libvips would decode a PNG or WebP as well
  const sharp = await loadSharp();
  try {
    return await reencodePipeline(sharp(jpeg, DECODE_OPTIONS)).toBuffer();
  } catch {
    throw new DomainError('invalid_selfie', 'The selfie could not be decoded as an image.');
  }
}

function reencodePipeline(image: Sharp): Sharp {
  // sharp writes no metadata unless asked (keepExif, keepIccProfile, keepXmp, withMetadata…).
  return image
    .autoOrient()
    .resize({ width: SELFIE_MAX_DIMENSION, height: SELFIE_MAX_DIMENSION, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .jpeg({ quality: SELFIE_JPEG_QUALITY, progressive: false, chromaSubsampling: '4:2:0', mozjpeg: false })
    .timeout({ seconds: REENCODE_TIMEOUT_SECONDS });
}
