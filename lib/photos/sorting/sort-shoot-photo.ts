import { MediaObjectTooLargeError, getMediaObject, mediaObjectMetadata } from '#lib/platform/media-bucket';
import { MAX_PHOTO_OBJECT_BYTES } from '#lib/photos/common/rules/photo-limits';
import {
  type ShootPhotoReading,
  UnreadableImageError,
  readShootPhoto,
} from '#lib/photos/sorting/adapters/shoot-photo-reader';
import type { ShootPhotoFacts } from '#lib/photos/sorting/store/shoot-photos';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type InboxLocation, photoIdOf } from '#lib/platform/media-keys';
import { readCard } from '#lib/photos/sorting/rules/shoot-sequence';
import { faceMatchingOf } from '#lib/galleries/rules/face-matching';
import { placementOpinions } from '#lib/faces/second-opinion';
import { captureTimeOfMetadata } from '#lib/photos/common/rules/capture-time';
import { type ShootPlacement, placeShootPhoto } from '#lib/photos/sorting/place-shoot-photo';
import { storeShootThumbnail } from '#lib/photos/sorting/adapters/shoot-thumbnails';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';

/** The object as its S3 event announced it, and the most the sorting downloads (MAX_PHOTO_OBJECT_BYTES). */
export interface InboxObject {
  objectKey: string;
  uploadedAt: string;
  /** The size in the event; absent when unknown. */
  size?: number;
  maxBytes?: number;
}

/**
 * Sorts a photo uploaded to a gallery's inbox: reads it (size, capture time, camera, any QR or
 * Data Matrix code), then places it in the shoot as a card or as a photo. Capture time and
 * camera come from the object's `captured-at`/`camera` metadata where the uploader set them
 * (the upload command copies them from EXIF; a photographer may correct them), else from EXIF.
 * An object over `maxBytes`, by its event or by the download's length, is never read: it is
 * placed as nobody's, `too_large`, with what its metadata says.
 */
export async function sortShootPhoto(
  location: InboxLocation,
  { objectKey, uploadedAt, size, maxBytes = MAX_PHOTO_OBJECT_BYTES }: InboxObject,
): Promise<ShootPlacement | 'gallery_not_found'> {
  const scope = { tenantId: location.tenantId, token: location.token };
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) return 'gallery_not_found';
  const downloaded =
    size !== undefined && size > maxBytes
      ? undefined
      : await getMediaObject(objectKey, maxBytes).catch(refusedAsTooLarge);
  if (!downloaded) {
    return placeShootPhoto(
      scope,
      factsOf(location, objectKey, uploadedAt, await mediaObjectMetadata(objectKey), undefined),
      'too_large',
    );
  }
  const { bytes, metadata } = downloaded;
  const reading = await readShootPhoto(bytes).catch((error: unknown) => {
    if (error instanceof UnreadableImageError) return undefined;
    throw error;
  });
  const facts = factsOf(location, objectKey, uploadedAt, metadata, reading);
  // Before the placement, whose deletion of an erased person's photo takes the thumbnail with it.
  if (reading) await storeThumbnailOrWarn(location, objectKey, bytes);
  const faceMatching = faceMatchingOf(configuration.gallery);
  return placeShootPhoto(
    scope,
    facts,
    reading ? readCard(reading.codes) : 'unreadable',
    placementOpinions(scope, faceMatching, { objectKey, bytes }, configuration.counters.referenceFacesGeneration),
  );
}

/** The studio console makes a thumbnail it does not find: one that could not be stored does not hold the sorting up. */
async function storeThumbnailOrWarn(location: InboxLocation, objectKey: string, bytes: Uint8Array): Promise<void> {
  await storeShootThumbnail(objectKey, bytes).catch((error: unknown) =>
    logger.warn('shoot photo thumbnail not stored', {
      tenantId: location.tenantId,
      gallery: galleryRef(location.token),
      error: loggableError(error),
    }),
  );
}

function refusedAsTooLarge(error: unknown): undefined {
  if (error instanceof MediaObjectTooLargeError) return undefined;
  throw error;
}

/** What the metadata and, where the photo was read, the reading say about it. */
function factsOf(
  location: InboxLocation,
  objectKey: string,
  uploadedAt: string,
  metadata: Record<string, string>,
  reading: ShootPhotoReading | undefined,
): ShootPhotoFacts {
  return {
    photoId: photoIdOf(objectKey),
    objectKey,
    path: location.path,
    fileName: location.path.split('/').at(-1)!,
    camera: metadata.camera || (reading?.camera ?? null),
    capturedAt: captureTimeOfMetadata(metadata) ?? reading?.capturedAt ?? null,
    width: reading?.width ?? null,
    height: reading?.height ?? null,
    uploadedAt,
  };
}
