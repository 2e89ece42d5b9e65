import { getMediaObject } from '#lib/platform/media-bucket';
import { UnreadableImageError, readShootPhoto } from '#lib/photos/adapters/shoot-photo-reader';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type InboxLocation, photoIdOf } from '#lib/platform/media-keys';
import { readCard } from '#lib/photos/rules/shoot-sequence';
import { faceMatchingOf } from '#lib/galleries/rules/face-matching';
import { FaceOpinion } from '#lib/faces/second-opinion';
import { captureTimeOfMetadata } from '#lib/photos/rules/capture-facts';
import { type ShootPlacement, placeShootPhoto } from '#lib/photos/place-shoot-photo';

/**
 * Sorts a photo uploaded to a gallery's inbox: reads it (size, capture time, camera, any QR or
 * Data Matrix code), then places it in the shoot as a card or as a photo. Capture time and
 * camera come from the object's `captured-at`/`camera` metadata where the uploader set them
 * (the upload command copies them from EXIF; a photographer may correct them), else from EXIF.
 */
export async function sortShootPhoto(location: InboxLocation, objectKey: string, uploadedAt: string): Promise<ShootPlacement | 'gallery_not_found'> {
  const scope = { tenantId: location.tenantId, token: location.token };
  const configuration = await getGalleryConfiguration(scope.tenantId, scope.token);
  if (!configuration) return 'gallery_not_found';
  const { bytes, metadata } = await getMediaObject(objectKey);
  const reading = await readShootPhoto(bytes).catch((error: unknown) => {
    if (error instanceof UnreadableImageError) return undefined;
    throw error;
  });
  const facts = {
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
  const faceMatching = faceMatchingOf(configuration.gallery);
  const faces =
    faceMatching.mode === 'off'
      ? undefined
      : {
          opinion: new FaceOpinion(scope, faceMatching, { objectKey, bytes }),
          opinionOf: (photoKey: string) => new FaceOpinion(scope, faceMatching, { objectKey: photoKey }),
        };
  return placeShootPhoto(scope, facts, reading ? readCard(reading.codes) : 'unreadable', faces);
}

