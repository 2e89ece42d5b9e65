import type { default as SharpFunction } from 'sharp';
import type { FaceBox } from '#lib/faces/rules/face-descriptors';
import { squareAroundFace } from '#lib/hr-exports/rules/crop-geometry';
import { PORTRAIT_JPEG_QUALITY } from '#lib/hr-exports/rules/hr-export-model';

/** Photos larger than this many pixels are refused before decoding (a 100 MP camera fits). */
const MAX_PORTRAIT_SOURCE_PIXELS = 120_000_000;

let sharpModule: Promise<typeof SharpFunction> | undefined;

/** sharp is loaded with the first crop; libvips' operation cache is off, so no decoded photo stays in memory between crops. */
function loadSharp(): Promise<typeof SharpFunction> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => {
    sharp.cache(false);
    return sharp;
  });
  return sharpModule;
}

/**
 * A square portrait of `size` × `size` pixels from a photo: turned upright by its EXIF
 * orientation, cut around the face where its box is known (in upright pixels), else where
 * sharp's attention strategy finds the most salient part; sRGB, baseline JPEG of
 * PORTRAIT_JPEG_QUALITY, no metadata (no EXIF, no GPS, no ICC profile: sRGB is the default a
 * viewer assumes).
 */
export async function cropPortrait(photo: Uint8Array, size: number, face?: FaceBox): Promise<Buffer> {
  const sharp = await loadSharp();
  const input = Buffer.from(photo.buffer, photo.byteOffset, photo.byteLength);
  const options = { failOn: 'error', limitInputPixels: MAX_PORTRAIT_SOURCE_PIXELS } as const;
  let image = sharp(input, options).autoOrient();
  if (face) {
    const { width = 0, height = 0, orientation = 1 } = await sharp(input, options).metadata();
    // Orientations 5 to 8 swap width and height when turned upright.
    const upright = orientation >= 5 ? { width: height, height: width } : { width, height };
    const region = squareAroundFace(face, upright);
    // After autoOrient, extract cuts from the upright image (sharp keeps the order of rotate and extract).
    image = image
      .extract({ left: region.left, top: region.top, width: region.side, height: region.side })
      .resize(size, size);
  } else {
    image = image.resize(size, size, { fit: 'cover', position: 'attention' });
  }
  return image.toColourspace('srgb').jpeg({ quality: PORTRAIT_JPEG_QUALITY, chromaSubsampling: '4:2:0' }).toBuffer();
}
