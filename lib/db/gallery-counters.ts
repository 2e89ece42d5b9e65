import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/db/client';
import { keys } from '#lib/db/keys';
import type { GalleryScope } from '#lib/db/persons';
import { withStoreRetries } from '#lib/db/retry';
import type { GalleryCounters } from '#lib/domain/gallery-model';

/**
 * Adds to the gallery's statistics counters (one UpdateItem `ADD`). Runs after the persons it
 * counts are stored, outside their transaction, so that concurrent writers of one gallery do
 * not conflict on the counters item.
 */
export async function addToGalleryCounters(scope: GalleryScope, deltas: Partial<GalleryCounters>): Promise<void> {
  const entries = Object.entries(deltas).filter(([, value]) => value);
  if (entries.length === 0) return;
  await withStoreRetries(() =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: keys.galleryStats(scope.tenantId, scope.token),
        UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
        ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
        ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:c${index}`, value])),
      }),
    ),
  );
}

/** Adds imported persons to their days' booked counts; imports never refuse for capacity (the spec). */
export async function addDayBookings(scope: GalleryScope, bookingsByDay: ReadonlyMap<string, number>): Promise<void> {
  await Promise.all(
    [...bookingsByDay].map(([dayId, count]) =>
      withStoreRetries(() =>
        db.send(
          new UpdateCommand({
            TableName: tableName,
            Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
            UpdateExpression: 'ADD booked :count',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':count': count },
          }),
        ),
      ).catch((error: Error) => {
        // A day deleted while the import ran has nothing left to count.
        if (error.name !== 'ConditionalCheckFailedException') throw error;
      }),
    ),
  );
}
