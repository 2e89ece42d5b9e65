import { findMediaObject, getMediaObject, listKeysInRange, putMediaObject } from '#lib/platform/media-bucket';
import { galleryExportPrefixes, portraitCropKey } from '#lib/platform/media-keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Photo } from '#lib/photos/common/rules/photo-model';
import { cropPortrait } from '#lib/hr-exports/adapters/portrait-crop';

/**
 * Portraits kept in the bucket (portraitCropKey): an export takes a photo's crop at a size from
 * there when an earlier export made it, so a re-export crops only what changed (a new pick, a
 * new photo, another size). A photo's ID comes from its object key, and the key names the
 * recipe's version, so a kept crop is always of the same photo made the same way. The crops
 * lie under the person's folder: erasing the person removes them (docs/hr-export.md#erasure).
 */
export async function portraitOfPhoto(
  scope: GalleryScope,
  personId: string,
  photo: Photo,
  size: number,
  kept: ReadonlySet<string>,
): Promise<{ bytes: Buffer; reused: boolean }> {
  const key = portraitCropKey({
    tenantId: scope.tenantId,
    token: scope.token,
    personId,
    photoId: photo.photoId,
    size,
    aroundFace: photo.faceBox !== undefined,
  });
  // Listed, but gone since: cropped again.
  const found = kept.has(key) ? await findMediaObject(key) : undefined;
  if (found) return { bytes: Buffer.from(found.bytes), reused: true };
  const { bytes: original } = await getMediaObject(photo.objectKey);
  const bytes = await cropPortrait(original, size, photo.faceBox);
  await putMediaObject(key, bytes, 'image/jpeg', { 'photo-id': photo.photoId });
  return { bytes, reused: false };
}

/**
 * The crops kept for these persons (IDs in ascending order, as a page of persons comes): one
 * list call for a page rather than a lookup per portrait, as crops lie in person order.
 */
export async function keptCropsOf(
  scope: GalleryScope,
  ascendingPersonIds: readonly string[],
): Promise<ReadonlySet<string>> {
  if (ascendingPersonIds.length === 0) return new Set();
  const prefix = galleryExportPrefixes(scope.tenantId, scope.token).portraitCrops;
  const lastFolder = `${prefix}${ascendingPersonIds.at(-1)}/`;
  // Every key of the first person's folder sorts after the bare folder name.
  const keys = await listKeysInRange(
    prefix,
    `${prefix}${ascendingPersonIds[0]}`,
    (key) => key < lastFolder || key.startsWith(lastFolder),
  );
  return new Set(keys);
}
