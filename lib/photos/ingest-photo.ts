import { imageSize } from 'image-size';
import { mediaObjectHead, mediaObjectMetadata } from '#lib/platform/media-bucket';
import { type PhotoRecording, recordPhoto } from '#lib/photos/store/photos';
import { parseInboxObjectKey, parsePhotoObjectKey, photoIdOf } from '#lib/platform/media-keys';
import { sortShootPhoto } from '#lib/photos/sort-shoot-photo';

/** What became of an uploaded object: a person's photo, a shoot photo sorted (card, assigned, unassigned), or nothing. */
export type IngestOutcome = PhotoRecording | 'not_a_photo_key' | 'gallery_not_found' | 'card' | 'assigned' | 'withheld' | 'unassigned' | 'erased';

/**
 * Assigns an uploaded object to its person. Under a person's folder the key says which person
 * (see media-keys.ts), user metadata `width`/`height` or else the image header give the
 * dimensions. In a gallery's inbox, the shoot's camera cards say which (lib/photos/). Both are
 * idempotent, so a redelivered event or a second upload of the same key changes nothing.
 */
export async function ingestPhotoObject(objectKey: string, uploadedAt: string): Promise<IngestOutcome> {
  const inbox = parseInboxObjectKey(objectKey);
  if (inbox) {
    const placement = await sortShootPhoto(inbox, objectKey, uploadedAt);
    if (placement === 'gallery_not_found') return placement;
    if (placement.kind !== 'photo') return placement.kind;
    return placement.personId ? 'assigned' : placement.heldFor ? 'withheld' : 'unassigned';
  }
  const location = parsePhotoObjectKey(objectKey);
  if (!location) return 'not_a_photo_key';
  const { width, height } = await dimensionsOf(objectKey);
  return recordPhoto(
    { tenantId: location.tenantId, token: location.token },
    {
      photoId: photoIdOf(objectKey),
      personId: location.personId,
      fileName: location.fileName,
      objectKey,
      width,
      height,
      createdAt: uploadedAt,
    },
  );
}

async function dimensionsOf(objectKey: string): Promise<{ width: number | null; height: number | null }> {
  const metadata = await mediaObjectMetadata(objectKey);
  const width = Number(metadata.width);
  const height = Number(metadata.height);
  if (Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0) return { width, height };
  try {
    const size = imageSize(await mediaObjectHead(objectKey, 128 * 1024));
    return { width: size.width ?? null, height: size.height ?? null };
  } catch {
    return { width: null, height: null }; // not an image format image-size knows, or header beyond the range
  }
}
