import type { default as SharpFunction } from 'sharp';
import { thumbnailKey, thumbnailPrefix } from '#lib/platform/media-keys';

/**
 * Thumbnails of shoot photos and cards for the studio console's review queue
 * (docs/studio-console.md#thumbnails): made as ingest sorts a photo, from the bytes it has read
 * already, and stored at the key the console looks for first (thumbnailKey), so that a queue's
 * first view draws stored thumbnails instead of downloading every photo. Upright, at most
 * THUMBNAIL_SIZE px a side, JPEG, no metadata. The console makes the ones it misses (photos
 * sorted before, or expired by the bucket's 30-day rule) with the same recipe.
 */

export const THUMBNAIL_SIZE = 320;

/** The bucket is reached only to store or delete: the console's module loads this one without MEDIA_BUCKET. */
const mediaBucket = () => import('#lib/platform/media-bucket');

let sharpModule: Promise<typeof SharpFunction> | undefined;

/** A thumbnail of an image (libjpeg decodes a camera's JPEG straight at an eighth of its size for it). */
export async function makeThumbnail(bytes: Uint8Array): Promise<Buffer> {
  sharpModule ??= import('sharp').then(({ default: sharp }) => sharp);
  const sharp = await sharpModule;
  return sharp(bytes)
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .jpeg({ quality: 72 })
    .toBuffer();
}

/** Stores the thumbnail of the object at `objectKey`, made from its bytes; false when they are not an image. */
export async function storeShootThumbnail(objectKey: string, bytes: Uint8Array): Promise<boolean> {
  let thumbnail: Buffer;
  try {
    thumbnail = await makeThumbnail(bytes);
  } catch {
    return false;
  }
  await (await mediaBucket()).putMediaObject(thumbnailKey(objectKey, THUMBNAIL_SIZE), thumbnail, 'image/jpeg');
  return true;
}

/** Deletes a shoot object for good, every version, with its thumbnails (an erased person's photo or card). */
export async function deleteShootObjectForGood(objectKey: string): Promise<void> {
  const { deleteObjectForGood, deleteObjectVersions, listObjectVersions } = await mediaBucket();
  await deleteObjectForGood(objectKey);
  await deleteObjectVersions(await listObjectVersions(thumbnailPrefix(`${objectKey}@`)));
}
