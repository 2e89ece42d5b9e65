import { tableName } from '#lib/platform/table/client';
import { photoKeys } from '#lib/photos/common/store/keys';
import { type TransactItem, conditionFailedAt, transact } from '#lib/platform/table/conditional-writes';
import { eventPut } from '#lib/events/store/outbox';
import { portraitPickUpdate } from '#lib/persons/store/person-marks';
import { photoPicked } from '#lib/events/rules/event-catalogue';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { PickedBy } from '#lib/photos/access/rules/portrait-photo';

export interface PhotoPick {
  personId: string;
  photoId: string;
  pickedBy: PickedBy;
}

export type PickRecording = 'recorded' | 'unknown_photo' | 'unknown_person';

/**
 * Records the person's pick in one transaction: a check that the photo item exists under the
 * person (so only one of their photos of this gallery can be picked), the person's
 * `pickedPhotoId`, `pickedBy` and `pickedAt`, replacing any earlier pick, and the photo.picked
 * event. A photo that is not the person's is unknown_photo; an erased person unknown_person.
 */
export async function recordPick(scope: GalleryScope, pick: PhotoPick, at: number): Promise<PickRecording> {
  const items: TransactItem[] = [
    {
      ConditionCheck: {
        TableName: tableName,
        Key: photoKeys.photo(scope.tenantId, scope.token, pick.personId, pick.photoId),
        ConditionExpression: 'attribute_exists(pk)',
      },
    },
    portraitPickUpdate(scope, pick, at),
    eventPut(photoPicked({ tenantId: scope.tenantId, galleryToken: scope.token }, pick)),
  ];
  try {
    await transact(items);
    return 'recorded';
  } catch (error) {
    if (conditionFailedAt(error, 0)) return 'unknown_photo';
    if (conditionFailedAt(error, 1)) return 'unknown_person';
    throw error;
  }
}
