import { tableName } from '#lib/platform/table/client';
import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { addOnce } from '#lib/galleries/store/gallery-counters';
import { keys } from '#lib/platform/table/keys';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

/**
 * Capacity: every spot taken on or given back to a shooting day goes through this module. A
 * day's `booked` counts the persons holding a spot (imported, checked in, or reserved by a
 * pending payment); a day with `maxPersons` never counts more than that, under any concurrency,
 * because taking a spot is a condition of the same transaction that stores what holds it.
 */

/**
 * A spot held by a reservation waiting for payment also counts in the day's `pendingPayments`,
 * which a day with a capacity keeps under a cap, so that unpaid reservations cannot hold the
 * whole day (lib/galleries/rules/public-limits.ts).
 */
export interface PaymentHold {
  /** The spot is a reservation's: count it in pendingPayments. */
  pending?: boolean;
  /** Refuse the spot while this many reservations of the day wait for payment. */
  pendingPaymentsCap?: number;
}

/**
 * Takes one spot of the day, as an item of the transaction that stores its holder. Its
 * condition fails when the day is full, is at its cap of pending payments, or is gone.
 */
export function takeSpot(scope: GalleryScope, dayId: string, hold: PaymentHold = {}): TransactItem {
  const capped = hold.pending && hold.pendingPaymentsCap !== undefined;
  return {
    Update: {
      TableName: tableName,
      Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: hold.pending ? 'ADD booked :one, pendingPayments :one' : 'ADD booked :one',
      ConditionExpression:
        'attribute_exists(pk) AND (attribute_not_exists(maxPersons) OR booked < maxPersons)' +
        (capped ? ' AND (attribute_not_exists(pendingPayments) OR pendingPayments < :cap)' : ''),
      ExpressionAttributeValues: { ':one': 1, ...(capped ? { ':cap': hold.pendingPaymentsCap } : {}) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
}

/** Gives one spot back to the day, as an item of the transaction that ends what held it. */
export function giveBackSpot(scope: GalleryScope, dayId: string, hold: PaymentHold = {}): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: hold.pending ? 'ADD booked :minusOne, pendingPayments :minusOne' : 'ADD booked :minusOne',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  };
}

/** A reservation's spot becomes its person's (paid): it no longer counts as a pending payment. */
export function settlePendingPayment(scope: GalleryScope, dayId: string): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: keys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: 'ADD pendingPayments :minusOne',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  };
}

/**
 * Why a takeSpot was refused, from the day's item as its failed condition returned it: the
 * day is full (shooting_day_full), at its cap of pending payments (pending_payments_limit), or
 * was deleted meanwhile.
 */
export function spotRefusal(dayItem: Record<string, any> | undefined, pendingPaymentsCap?: number): DomainError {
  if (!dayItem) return new DomainError('unknown_shooting_day');
  const full = typeof dayItem.maxPersons === 'number' && (dayItem.booked ?? 0) >= dayItem.maxPersons;
  if (!full && pendingPaymentsCap !== undefined && (dayItem.pendingPayments ?? 0) >= pendingPaymentsCap) {
    return new DomainError('pending_payments_limit');
  }
  return new DomainError('shooting_day_full');
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
