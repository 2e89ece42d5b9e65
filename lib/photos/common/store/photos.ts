import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { countersUpdate } from '#lib/galleries/store/gallery-counters';
import { photosAssignedUpdate } from '#lib/events/store/outbox';
import { photoKeys } from '#lib/photos/common/store/keys';
import { getPerson } from '#lib/persons/store/persons';
import { photoCountDown, photoCountUp } from '#lib/persons/store/person-marks';
import type { GalleryCounters, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { queryPartition } from '#lib/platform/table/queries';
import { cancellationCodes, withStoreRetries } from '#lib/platform/table/retry';
import { type Photo, sortPhotosByCapture } from '#lib/photos/common/rules/photo-model';
import { now } from '#lib/platform/clock';
import { isCancelledTransaction } from '#lib/platform/table/store-errors';
import * as v from 'valibot';
import { type StoredItem, keyOfItem, parseItem, storedObject } from '#lib/platform/table/item-schema';
import { deleteItems } from '#lib/platform/table/batches';
import type { FaceBox } from '#lib/faces/rules/face-descriptors';

export type PhotoRecording = 'recorded' | 'recorded_already' | 'person_not_found';

type CounterDeltas = Partial<GalleryCounters>;

/**
 * A photo becoming one of the person's: its item, the person's photo count (conditional on the
 * caller's guess whether it is their first, which also counts the person among those with
 * photos) and the person's photos.assigned event of the moment. Counter deltas for statistics.
 */
export function photoGained(
  scope: GalleryScope,
  photo: Photo,
  firstPhoto: boolean,
): { items: TransactItem[]; counters: CounterDeltas } {
  return {
    items: [
      {
        Put: {
          TableName: tableName,
          Item: toPhotoItem(scope, photo),
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      },
      photoCountUp(scope, photo.personId, firstPhoto),
      photosAssignedUpdate(scope, photo.personId, now()),
    ],
    counters: { photos: 1, personsWithPhotos: firstPhoto ? 1 : 0 },
  };
}

/** A photo leaving the person's photos (a late camera card gave it to another): the reverse of photoGained. */
export function photoLost(
  scope: GalleryScope,
  personId: string,
  photoId: string,
  lastPhoto: boolean,
): { items: TransactItem[]; counters: CounterDeltas } {
  return {
    items: [
      {
        Delete: {
          TableName: tableName,
          Key: photoKeys.photo(scope.tenantId, scope.token, personId, photoId),
          ConditionExpression: 'attribute_exists(pk)',
        },
      },
      photoCountDown(scope, personId, lastPhoto),
    ],
    counters: { photos: -1, personsWithPhotos: lastPhoto ? -1 : 0 },
  };
}

/**
 * Records a photo of a person: the photo item, the person's photo count, the gallery's counters
 * and the person's photos.assigned event of the moment in one transaction. Recording the same
 * photo again changes nothing.
 */
export async function recordPhoto(scope: GalleryScope, photo: Photo): Promise<PhotoRecording> {
  // The person's first photo also counts the person among those with photos.
  let firstPhoto = true;
  for (let attempt = 0; attempt < 4; attempt += 1) {
    const gained = photoGained(scope, photo, firstPhoto);
    try {
      await withStoreRetries(() =>
        db.send(
          new TransactWriteCommand({ TransactItems: [...gained.items, countersUpdate(scope, gained.counters)!] }),
        ),
      );
      return 'recorded';
    } catch (error) {
      if (!isCancelledTransaction(error)) throw error;
      const [photoCode, personCode] = cancellationCodes(error);
      if (photoCode === 'ConditionalCheckFailed') return 'recorded_already';
      if (personCode !== 'ConditionalCheckFailed') throw error;
      // Strongly consistent: ingest deletes the object of a photo whose person is not found.
      const person = await getPerson(scope, photo.personId, { consistent: true });
      if (!person) return 'person_not_found';
      firstPhoto = person.photoCount === 0;
    }
  }
  throw new Error('Photo count kept changing while recording a photo');
}

/** A person's photos in the order they were taken (sortPhotosByCapture). */
export async function listPhotos(scope: GalleryScope, personId: string): Promise<Photo[]> {
  const items = await queryPartition(photoKeys.photosOfPerson(scope.tenantId, scope.token, personId));
  return sortPhotosByCapture(items.map(fromPhotoItem));
}

/** The keys of a person's photo records, as erasure plans them (deletePhotoRecords). */
export async function photoRecordKeys(scope: GalleryScope, personId: string): Promise<{ pk: string; sk: string }[]> {
  const items = await queryPartition(photoKeys.photosOfPerson(scope.tenantId, scope.token, personId));
  return items.map(keyOfItem);
}

/** Deletes the photo records photoRecordKeys found; what is gone already is skipped. */
export function deletePhotoRecords(recordKeys: readonly { pk: string; sk: string }[]): Promise<void> {
  return deleteItems(recordKeys);
}

/** A person's photo as its item: under the person, with what the photo is. */
function toPhotoItem(scope: GalleryScope, photo: Photo): StoredItem {
  return { ...photoKeys.photo(scope.tenantId, scope.token, photo.personId, photo.photoId), ...photo };
}

const photoItemSchema = v.object({
  photoId: v.string(),
  personId: v.string(),
  fileName: v.string(),
  objectKey: v.string(),
  width: v.nullish(v.number()),
  height: v.nullish(v.number()),
  // Photos recorded before capture times were kept have none.
  capturedAt: v.nullish(v.string()),
  createdAt: v.string(),
  faceBox: v.nullish(storedObject<FaceBox>()),
});

/** The photo an item holds; a CorruptItemError when it does not hold one. */
export function fromPhotoItem(stored: StoredItem): Photo {
  const item = parseItem('photo', photoItemSchema, stored);
  return {
    photoId: item.photoId,
    personId: item.personId,
    fileName: item.fileName,
    objectKey: item.objectKey,
    width: item.width ?? null,
    height: item.height ?? null,
    capturedAt: item.capturedAt ?? null,
    createdAt: item.createdAt,
    ...(item.faceBox ? { faceBox: item.faceBox } : {}),
  };
}
