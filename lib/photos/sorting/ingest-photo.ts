import { imageSize } from 'image-size';
import { MAX_PHOTO_OBJECT_BYTES } from '#lib/photos/common/rules/photo-limits';
import { deleteMediaObject, mediaObjectHead, mediaObjectMetadata } from '#lib/platform/media-bucket';
import { type PhotoRecording, recordPhoto } from '#lib/photos/common/store/photos';
import { parseInboxObjectKey, parsePhotoObjectKey, photoIdOf } from '#lib/platform/media-keys';
import { sortShootPhoto } from '#lib/photos/sorting/sort-shoot-photo';
import { captureFactsOf, exifBlockOfJpeg } from '#lib/photos/common/rules/capture-facts';
import { captureTimeOfMetadata } from '#lib/photos/common/rules/capture-time';

/**
 * What became of an uploaded object: a person's photo, a shoot photo sorted (card, assigned,
 * withheld, unassigned, too large to be read and so unassigned, erased), or nothing. person_not_found: the object was deleted (see ingestPhotoObject).
 */
export type IngestOutcome =
  | PhotoRecording
  | 'not_a_photo_key'
  | 'gallery_not_found'
  | 'card'
  | 'assigned'
  | 'withheld'
  | 'unassigned'
  | 'too_large'
  | 'erased';

/** An object created in the media bucket, as its S3 event names it. */
export interface UploadedObject {
  objectKey: string;
  /** The version created; absent on a bucket without versioning. */
  versionId?: string;
  uploadedAt: string;
  /** The object's size as the event announced it. */
  size?: number;
}

/** The image header, and the EXIF block the Exif standard puts right after the start of the image. */
const HEAD_BYTES = 128 * 1024;

/**
 * Assigns an uploaded object to its person. Under a person's folder the key says which person
 * (see media-keys.ts); user metadata `width`/`height` and `captured-at`, or else the image
 * header and its EXIF, give the dimensions and the capture time. In a gallery's inbox, the
 * shoot's camera cards say which (lib/photos/). Both are idempotent, so a redelivered event or a
 * second upload of the same key changes nothing.
 *
 * Person IDs are made by the server, so a person's folder without its person belongs to an
 * erased person (or to none ever): the version that arrived there is deleted, as erasure would
 * have deleted it. Every upload has an event of its own, so every version is.
 *
 * Only an inbox photo is downloaded whole, and never more than `maxBytes` of it; of a person's
 * photo only its metadata and first HEAD_BYTES are read, whatever its size.
 */
export async function ingestPhotoObject(
  { objectKey, versionId, uploadedAt, size }: UploadedObject,
  maxBytes = MAX_PHOTO_OBJECT_BYTES,
): Promise<IngestOutcome> {
  const inbox = parseInboxObjectKey(objectKey);
  if (inbox) {
    const placement = await sortShootPhoto(inbox, { objectKey, uploadedAt, size, maxBytes });
    if (placement === 'gallery_not_found') return placement;
    if (placement.kind !== 'photo') return placement.kind;
    if (placement.reason === 'too_large') return 'too_large';
    return placement.personId ? 'assigned' : placement.heldFor ? 'withheld' : 'unassigned';
  }
  const location = parsePhotoObjectKey(objectKey);
  if (!location) return 'not_a_photo_key';
  const recording = await recordPhoto(
    { tenantId: location.tenantId, token: location.token },
    {
      photoId: photoIdOf(objectKey),
      personId: location.personId,
      fileName: location.fileName,
      objectKey,
      ...(await readPersonPhoto(objectKey)),
      createdAt: uploadedAt,
    },
  );
  if (recording === 'person_not_found') await deleteMediaObject(objectKey, versionId);
  return recording;
}

/** Dimensions and capture time of a photo under a person's folder: from its metadata, else from its first bytes. */
async function readPersonPhoto(
  objectKey: string,
): Promise<{ width: number | null; height: number | null; capturedAt: string | null }> {
  const metadata = await mediaObjectMetadata(objectKey);
  const width = Number(metadata.width);
  const height = Number(metadata.height);
  const sizeFromMetadata =
    Number.isInteger(width) && Number.isInteger(height) && width > 0 && height > 0 ? { width, height } : undefined;
  const capturedAt = captureTimeOfMetadata(metadata);
  if (sizeFromMetadata && capturedAt) return { ...sizeFromMetadata, capturedAt };
  // An empty object has no range to read; like bytes that are no image, it has no size or capture time.
  const head = await mediaObjectHead(objectKey, HEAD_BYTES).catch(() => undefined);
  return {
    ...(sizeFromMetadata ?? sizeOfImage(head)),
    capturedAt: capturedAt ?? (head ? captureFactsOf(exifBlockOfJpeg(head)).capturedAt : null),
  };
}

function sizeOfImage(head: Uint8Array | undefined): { width: number | null; height: number | null } {
  try {
    const size = imageSize(head ?? new Uint8Array());
    return { width: size.width ?? null, height: size.height ?? null };
  } catch {
    return { width: null, height: null }; // not an image format image-size knows, or header beyond the range
  }
}
