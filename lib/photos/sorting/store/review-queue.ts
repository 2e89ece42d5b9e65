import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { getItems } from '#lib/platform/table/batches';
import { queryGsi1Page } from '#lib/platform/table/queries';
import { GSI1 } from '#lib/platform/table/table-definition';
import { isConditionFailure } from '#lib/platform/table/store-errors';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import {
  hasSequence,
  positionOfShootItem,
  reviewQueueEntry,
  sequenceOfShootItem,
  shootKeys,
} from '#lib/photos/sorting/store/keys';
import { type Key, type ShootCard, type ShootPhoto, fromShootItem } from '#lib/photos/sorting/store/shoot-photos';

/**
 * The studio's review queue (docs/data-model.md#review-queue): a sparse GSI1 partition of the
 * shoot photos that wait for review, in the order the console shows them. shoot-photos.ts writes
 * the entry with the photo's state (keys.ts reviewQueueEntry); this module reads it a page at a time,
 * and backfills shoots sorted before it.
 */

/** A page of the review queue, and the key to continue after it (none on its last page). */
export interface ReviewQueuePage {
  photos: (ShootPhoto & Key)[];
  nextKey?: Record<string, unknown>;
}

/** Up to `limit` photos of the review queue in its order, after `startKey` (GSI1: eventually consistent). */
export async function reviewQueuePage(
  scope: GalleryScope,
  limit: number,
  startKey?: Record<string, unknown>,
): Promise<ReviewQueuePage> {
  const page = await queryGsi1Page(shootKeys.reviewQueue(scope.tenantId, scope.token), startKey, limit);
  const photos = page.items.map(fromShootItem).filter((item): item is ShootPhoto & Key => item.kind === 'photo');
  return { photos, ...(page.nextKey ? { nextKey: page.nextKey } : {}) };
}

/** The key a review-queue page continues after: the shoot sort key and queue place of the page's last photo. */
export function reviewQueueStartKey(scope: GalleryScope, sk: string, place: string): Record<string, unknown> {
  return {
    pk: shootKeys.shootOfGallery(scope.tenantId, scope.token),
    sk,
    [GSI1.partitionKey]: shootKeys.reviewQueue(scope.tenantId, scope.token),
    [GSI1.sortKey]: place,
  };
}

/** The cards that govern `photos` (by their governor's position, in the photo's own sequence), read in one BatchGet. */
export async function governingCards(
  scope: GalleryScope,
  photos: readonly (ShootPhoto & Key)[],
  isCard: (governor: string) => boolean,
): Promise<Map<string, ShootCard & Key>> {
  const keys = new Map<string, Key>();
  for (const photo of photos) {
    if (!photo.governor || !isCard(photo.governor) || !hasSequence(photo.sk)) continue;
    keys.set(
      photo.governor,
      shootKeys.shootCard(scope.tenantId, scope.token, sequenceOfShootItem(photo.sk), photo.governor),
    );
  }
  const cards = new Map<string, ShootCard & Key>();
  for (const item of await getItems([...keys.values()])) {
    const card = fromShootItem(item);
    if (card.kind === 'card') cards.set(positionOfShootItem(card.sk), card);
  }
  return cards;
}

/**
 * Brings a photo of a shoot sorted before the review queue's index into it (the backfill): a photo
 * that waits for review and has no entry gets one, on condition that its state is still as read.
 * True when it wrote the entry.
 */
export async function indexPhotoForReview(scope: GalleryScope, photo: ShootPhoto & Key): Promise<boolean> {
  const entry = reviewQueueEntry(scope, photo, photo);
  if (!entry || photo[GSI1.partitionKey as keyof typeof photo] !== undefined) return false;
  return db
    .send(
      new UpdateCommand({
        TableName: tableName,
        Key: { pk: photo.pk, sk: photo.sk },
        UpdateExpression: 'SET #queue = :queue, #place = :place',
        ConditionExpression:
          photo.governor === undefined
            ? 'attribute_exists(pk) AND attribute_not_exists(governor)'
            : 'governor = :governor',
        ExpressionAttributeNames: { '#queue': GSI1.partitionKey, '#place': GSI1.sortKey },
        ExpressionAttributeValues: {
          ':queue': entry[GSI1.partitionKey],
          ':place': entry[GSI1.sortKey],
          ...(photo.governor === undefined ? {} : { ':governor': photo.governor }),
        },
      }),
    )
    .then(
      () => true,
      // Moved meanwhile: its move wrote the index as its state says.
      (error: unknown) => {
        if (isConditionFailure(error)) return false;
        throw error;
      },
    );
}
