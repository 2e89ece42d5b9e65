import { tableName } from '#lib/db/client';
import type { TransactItem } from '#lib/db/conditional-writes';
import { addOnce } from '#lib/db/gallery-counters';
import { keys } from '#lib/db/keys';
import { DomainError } from '#lib/domain/domain-error';
import type { GalleryScope } from '#lib/domain/gallery-model';

/**
 * Capacity: every spot taken on or given back to a shooting day goes through this module. A
 * day's `booked` counts the persons holding a spot (imported, checked in, or reserved by a
 * pending payment); a day with `maxPersons` never counts more than that, under any concurrency,
 * because taking a spot is a condition of the same transaction that stores what holds it.
 */

/** Takes one spot of the day, as an item of the transaction that stores its holder. Its condition fails when the day is full or gone. */
export function takeSpot(scope: GalleryScope, dayId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: 'ADD booked :one',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(maxPersons) OR booked < maxPersons)',
      ExpressionAttributeValues: { ':one': 1 },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Gives one spot back to the day, as an item of the transaction that ends what held it. */
export function giveBackSpot(scope: GalleryScope, dayId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: 'ADD booked :minusOne',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  };
}

/**
 * Why a takeSpot was refused, from the day's item as its failed condition returned it: the
 * day exists and is full (shooting_day_full), or it was deleted meanwhile.
 */
export function spotRefusal(dayItem: unknown): DomainError {
  return new DomainError(dayItem ? 'shooting_day_full' : 'unknown_shooting_day');
}

/**
 * Adds imported persons to their days' booked counts, after they are stored: imports never
 * refuse for capacity (the spec), so they count without a condition on it.
 */
export async function addImportedBookings(scope: GalleryScope, bookingsByDay: ReadonlyMap<string, number>): Promise<void> {
  await Promise.all(
    [...bookingsByDay].map(([dayId, count]) =>
      addOnce({
        Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
        UpdateExpression: 'ADD booked :count',
        // A day deleted while the import ran has nothing left to count.
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':count': count },
      }),
    ),
  );
}
