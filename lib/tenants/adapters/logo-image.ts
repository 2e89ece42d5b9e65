import sharp from 'sharp';
import { LOGO_MAX_SIZE, MAX_LOGO_BYTES } from '#lib/tenants/rules/branding';

/** A logo file bigger than this is refused before decoding: a logo is no photo. */
export const MAX_LOGO_FILE_BYTES = 5 * 1024 * 1024;
const LOGO_FORMATS = new Set(['png', 'jpeg', 'webp']);

/** Why a file is no logo the page can show; the admin CLI prints it. */
export class LogoImageError extends Error {}

/**
 * A studio's logo as the page gets it: a PNG, JPEG or WebP decoded, turned upright, fitted
 * within LOGO_MAX_SIZE (never enlarged), and encoded anew as a WebP with its transparency and
 * no metadata at all (sharp writes none unless asked), as a `data:` URL of at most
 * MAX_LOGO_BYTES. A data URL needs no origin of its own in the page's CSP (img-src admits data:)
 * and no bucket or CDN: the logo travels in the check-in info.
 */
export async function logoDataUrl(file: Buffer): Promise<string> {
  if (file.length > MAX_LOGO_FILE_BYTES)
    throw new LogoImageError(`the file is larger than ${MAX_LOGO_FILE_BYTES / 1024 / 1024} MiB`);
  const image = sharp(file, { limitInputPixels: 40_000_000, failOn: 'error' });
  const format = await image.metadata().then(
    (metadata) => metadata.format,
    () => undefined,
  );
  if (!format || !LOGO_FORMATS.has(format)) throw new LogoImageError('the file is not a PNG, JPEG or WebP image');
  const webp = await image
    .autoOrient()
    .resize({ ...LOGO_MAX_SIZE, fit: 'inside', withoutEnlargement: true })
    .toColourspace('srgb')
    .webp({ quality: 85, alphaQuality: 90, effort: 6 })
    .toBuffer();
  if (webp.length > MAX_LOGO_BYTES) {
    throw new LogoImageError(
      `the logo takes ${Math.ceil(webp.length / 1024)} KiB even at ${LOGO_MAX_SIZE.width}×${LOGO_MAX_SIZE.height} px; the page takes at most ${MAX_LOGO_BYTES / 1024} KiB: use a simpler logo (flat colours, no photo)`,
    );
  }
  return `data:image/webp;base64,${webp.toString('base64')}`;
}
