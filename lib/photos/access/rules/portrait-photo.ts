import { type Photo, sortPhotosByCapture } from '#lib/photos/common/rules/photo-model';

/** Who chose a person's portrait. */
export type PickedBy = 'participant' | 'photographer';

/**
 * The photo the person's pick names, where it is still among `photos`; undefined without a pick,
 * and for a pick whose photo has since left the person (a late camera card gave it to another),
 * which counts as none.
 */
export function pickedPhotoOf<T extends Pick<Photo, 'photoId'>>(
  photos: readonly T[],
  pickedPhotoId: string | undefined,
): T | undefined {
  return pickedPhotoId === undefined ? undefined : photos.find((photo) => photo.photoId === pickedPhotoId);
}

/**
 * The person's portrait: the picked photo where it is among `photos`, else the first by capture
 * order (sortPhotosByCapture); undefined for a person without photos. What an HR export takes.
 */
export function portraitPhotoOf(photos: readonly Photo[], pickedPhotoId: string | undefined): Photo | undefined {
  return pickedPhotoOf(photos, pickedPhotoId) ?? sortPhotosByCapture(photos)[0];
}
