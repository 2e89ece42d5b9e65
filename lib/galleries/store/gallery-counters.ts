import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { randomUUID } from 'node:crypto';
import { db, tableName } from '#lib/platform/table/client';
import { galleryKeys } from '#lib/galleries/store/keys';
import { withStoreRetries } from '#lib/platform/table/retry';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import type { GalleryCounters, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { isConditionFailure } from '#lib/platform/table/store-errors';

/**
 * Adds to the gallery's statistics counters (one UpdateItem `ADD`). Runs after the persons it
 * counts are stored, outside their transaction, so that concurrent writers of one gallery do
 * not conflict on the counters item.
 */
export async function addToGalleryCounters(scope: GalleryScope, deltas: Partial<GalleryCounters>): Promise<void> {
  const update = countersUpdate(scope, deltas)?.Update;
  if (!update) return;
  await addOnce({
    Key: update.Key as Record<string, string>,
    UpdateExpression: update.UpdateExpression!,
    ExpressionAttributeNames: update.ExpressionAttributeNames,
    ExpressionAttributeValues: update.ExpressionAttributeValues!,
  });
}

/**
 * An `ADD` that a resend does not apply twice. The update marks the item with an ID of its
 * own and is conditional on that mark being absent: when the SDK (or the retry here) resends
 * an update whose answer was lost, the resend fails its condition. Exact unless another update of the same item lands between
 * the lost answer and the resend. A refused `condition` leaves the item alone, silently.
 * Counters of the statistics and of the days' bookings (lib/galleries/store/day-bookings.ts) use it.
 */
export async function addOnce(update: {
  Key: Record<string, string>;
  UpdateExpression: string;
  ConditionExpression?: string;
  ExpressionAttributeNames?: Record<string, string>;
  ExpressionAttributeValues: Record<string, unknown>;
}): Promise<void> {
  const addId = randomUUID();
  const onceCondition = '(attribute_not_exists(lastAdd) OR lastAdd <> :addId)';
  await withStoreRetries(() =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        ...update,
        UpdateExpression: `SET lastAdd = :addId ${update.UpdateExpression}`,
        ConditionExpression: update.ConditionExpression
          ? `(${update.ConditionExpression}) AND ${onceCondition}`
          : onceCondition,
        ExpressionAttributeValues: { ...update.ExpressionAttributeValues, ':addId': addId },
      }),
    ),
  ).catch((error: Error) => {
    // Either our own resend, already applied, or the caller's condition refused it: nothing to add.
    if (!isConditionFailure(error)) throw error;
  });
}

/** The statistics item's counters moved by `deltas`, as one transaction item (a transaction names an item once). */
export function countersUpdate(scope: GalleryScope, ...deltas: Partial<GalleryCounters>[]): TransactItem | undefined {
  const sums = new Map<string, number>();
  for (const delta of deltas)
    for (const [name, value] of Object.entries(delta)) sums.set(name, (sums.get(name) ?? 0) + (value ?? 0));
  const entries = [...sums].filter(([, value]) => value !== 0);
  if (entries.length === 0) return undefined;
  return {
    Update: {
      TableName: tableName,
      Key: galleryKeys.galleryStats(scope.tenantId, scope.token),
      UpdateExpression: `ADD ${entries.map((_, index) => `#c${index} :c${index}`).join(', ')}`,
      ExpressionAttributeNames: Object.fromEntries(entries.map(([name], index) => [`#c${index}`, name])),
      ExpressionAttributeValues: Object.fromEntries(entries.map(([, value], index) => [`:c${index}`, value])),
    },
  };
}

/** Sets one counter of the statistics to a recount (a backfill's, which pages through what it counts). */
export async function setGalleryCounter(
  scope: GalleryScope,
  name: keyof GalleryCounters,
  value: number,
): Promise<void> {
  await withStoreRetries(() =>
    db.send(
      new UpdateCommand({
        TableName: tableName,
        Key: galleryKeys.galleryStats(scope.tenantId, scope.token),
        UpdateExpression: 'SET #counter = :value',
        ExpressionAttributeNames: { '#counter': name },
        ExpressionAttributeValues: { ':value': value },
      }),
    ),
  );
}
