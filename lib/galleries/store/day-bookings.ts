import type { TransactItem } from '#lib/platform/table/conditional-writes';
import { randomUUID } from 'node:crypto';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { db, tableName } from '#lib/platform/table/client';
import { isCancelledTransaction, isConditionFailure } from '#lib/platform/table/store-errors';
import { waitBeforeRetry } from '#lib/platform/backoff';
import {
  type RetryOptions,
  cancellationCodes,
  itemOfFailedCondition,
  withStoreRetries,
} from '#lib/platform/table/retry';
import { galleryKeys } from '#lib/galleries/store/keys';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryScope, ShootingDay } from '#lib/galleries/rules/gallery-model';
import {
  type CounterId,
  MAX_SPOT_SHARDS,
  type SpotCounter,
  counterToTake,
  importAllocation,
  roomOf,
} from '#lib/galleries/rules/spot-counters';
import { queryAll } from '#lib/platform/table/queries';
import * as v from 'valibot';
import { type StoredItem, parseItem } from '#lib/platform/table/item-schema';

/**
 * Capacity: every spot taken on or given back to a shooting day goes through this module. A
 * day's `booked` counts the persons holding a spot (imported, checked in, or reserved by a
 * pending payment), summed over its spot counters (rules/spot-counters.ts); a day with
 * `maxPersons` never counts more than that, under any concurrency, because taking a spot is a
 * condition on one counter's share in the same transaction that stores what holds it.
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

/** The spot of a day a write takes: its transaction items, and what a failed condition among them means. */
export interface SpotTaking {
  items: TransactItem[];
  /** How the transaction that takes the spot retries a conflict before withSpotTaken moves to another counter. */
  retry: RetryOptions;
  /** The refusal when the item at `index` of `items` failed its condition, as it returned the item. */
  refusal(index: number, item: StoredItem | undefined): DomainError;
}

/**
 * Takes one spot of the day from `counter` (spotToTake chooses it), as items of the transaction
 * that stores its holder. The counter's condition fails when it has no room (shooting_day_full:
 * withSpotTaken tries another) or the day is gone; a reservation's spot also counts in the day
 * item's pendingPayments, refused at its cap (pending_payments_limit).
 */
export function takeSpot(
  scope: GalleryScope,
  dayId: string,
  counter: SpotCounter,
  hold: PaymentHold = {},
  retry: RetryOptions = SPOT_WRITE_RETRIES,
): SpotTaking {
  const capped = hold.pending && hold.pendingPaymentsCap !== undefined;
  const pendingCondition = capped ? '(attribute_not_exists(pendingPayments) OR pendingPayments < :cap)' : undefined;
  const pendingValues = capped ? { ':cap': hold.pendingPaymentsCap } : {};
  const onDayItem = counter.id === 'day';
  // The day's item counts against its own share where it has one (a day with shards), else against the capacity.
  const roomCondition = onDayItem
    ? '(attribute_not_exists(maxPersons) OR (attribute_exists(spotShare) AND booked < spotShare) OR (attribute_not_exists(spotShare) AND booked < maxPersons))'
    : '(attribute_not_exists(spotShare) OR booked < spotShare)';
  const counterItem: TransactItem = {
    Update: {
      TableName: tableName,
      Key: onDayItem
        ? galleryKeys.shootingDay(scope.tenantId, scope.token, dayId)
        : galleryKeys.daySpotShard(scope.tenantId, scope.token, dayId, counter.id as number),
      UpdateExpression: hold.pending && onDayItem ? 'ADD booked :one, pendingPayments :one' : 'ADD booked :one',
      ConditionExpression: [
        'attribute_exists(pk)',
        roomCondition,
        ...(onDayItem && pendingCondition ? [pendingCondition] : []),
      ].join(' AND '),
      ExpressionAttributeValues: { ':one': 1, ...(onDayItem ? pendingValues : {}) },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  };
  const pendingItem: TransactItem[] =
    hold.pending && !onDayItem
      ? [
          {
            Update: {
              TableName: tableName,
              Key: galleryKeys.shootingDay(scope.tenantId, scope.token, dayId),
              UpdateExpression: 'ADD pendingPayments :one',
              ConditionExpression: ['attribute_exists(pk)', ...(pendingCondition ? [pendingCondition] : [])].join(
                ' AND ',
              ),
              ExpressionAttributeValues: { ':one': 1, ...pendingValues },
              ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
            },
          },
        ]
      : [];
  return {
    items: [counterItem, ...pendingItem],
    retry,
    refusal(index, item) {
      if (!item) return new DomainError('unknown_shooting_day');
      if (index === 0 && !(onDayItem && hasRoomButPendingCapped(parseShootingDayItem(item), hold.pendingPaymentsCap)))
        return new DomainError('shooting_day_full');
      return new DomainError('pending_payments_limit');
    },
  };
}

/** A day item that refused only for its cap of pending payments. */
function hasRoomButPendingCapped(dayItem: ShootingDayItem, pendingPaymentsCap: number | undefined): boolean {
  const limit = dayItem.spotShare ?? dayItem.maxPersons;
  const full = typeof limit === 'number' && (dayItem.booked ?? 0) >= limit;
  return !full && pendingPaymentsCap !== undefined && (dayItem.pendingPayments ?? 0) >= pendingPaymentsCap;
}

/** A day's counters as a gallery read shows them, or as the day's item alone counts them (a day made before the shards). */
export function countersOfDay(day: Pick<ShootingDay, 'maxPersons' | 'booked' | 'spotCounters'>): SpotCounter[] {
  return day.spotCounters ?? [{ id: 'day', share: day.maxPersons, booked: day.booked }];
}

const counterNumber = v.optional(v.number());

/**
 * A shooting day's item, as lib/galleries/store/galleries.ts writes it and this module counts on
 * it: `spotShards` tells a day with shards from one made before them, whose item alone counts.
 */
const shootingDayItemSchema = v.object({
  id: v.string(),
  date: v.string(),
  label: v.string(),
  startTime: v.string(),
  endTime: v.string(),
  maxPersons: v.nullish(v.number()),
  booked: counterNumber,
  spotShards: counterNumber,
  spotShare: counterNumber,
  pendingPayments: counterNumber,
  cardsPrinted: v.optional(v.object({ cards: v.number(), at: v.string() })),
});
export type ShootingDayItem = v.InferOutput<typeof shootingDayItemSchema>;

/** A day's item as read; a CorruptItemError when it is not one. */
export function parseShootingDayItem(item: StoredItem): ShootingDayItem {
  return parseItem('shooting day', shootingDayItemSchema, item);
}

const daySpotShardItemSchema = v.object({ shard: v.number(), booked: counterNumber, spotShare: counterNumber });
type DaySpotShardItem = v.InferOutput<typeof daySpotShardItemSchema>;

/** A spot shard of a day, with its share of the capacity (none on a day without capacity). */
export function toDaySpotShardItem(
  scope: GalleryScope,
  dayId: string,
  shard: number,
  share: number | undefined,
): StoredItem {
  return {
    ...galleryKeys.daySpotShard(scope.tenantId, scope.token, dayId, shard),
    dayId,
    shard,
    booked: 0,
    ...(share === undefined ? {} : { spotShare: share }),
  };
}

/** A shard's item as read; a CorruptItemError when it is not one. */
export function parseDaySpotShardItem(item: StoredItem): DaySpotShardItem {
  return parseItem('day spot shard', daySpotShardItemSchema, item);
}

/** The counters of a day from its item and its shard items. */
export function spotCountersOf(
  dayItem: ShootingDayItem,
  shardItems: readonly DaySpotShardItem[],
): SpotCounter[] | undefined {
  if (dayItem.spotShards === undefined) return undefined;
  return [
    { id: 'day', share: dayItem.spotShare, booked: dayItem.booked ?? 0 },
    ...shardItems.map((item) => ({ id: item.shard, share: item.spotShare, booked: item.booked ?? 0 })),
  ];
}

/** The day's counters, read strongly consistent (one Query: the day's item and its shards lie together); undefined when the day is gone. */
export async function readSpotCounters(scope: GalleryScope, dayId: string): Promise<SpotCounter[] | undefined> {
  const dayKey = galleryKeys.shootingDay(scope.tenantId, scope.token, dayId);
  const items = await queryAll({
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :day)',
    ExpressionAttributeValues: { ':pk': dayKey.pk, ':day': dayKey.sk },
    ConsistentRead: true,
  });
  const storedDay = items.find((item) => item.sk === dayKey.sk);
  if (!storedDay) return undefined;
  const dayItem = parseShootingDayItem(storedDay);
  return (
    spotCountersOf(dayItem, items.filter((item) => item !== storedDay).map(parseDaySpotShardItem)) ?? [
      { id: 'day', share: dayItem.maxPersons ?? undefined, booked: dayItem.booked ?? 0 },
    ]
  );
}

/** A transaction still cancelled by conflicts after its own retries. */
function isConflict(error: unknown): boolean {
  return isCancelledTransaction(error) && cancellationCodes(error).includes('TransactionConflict');
}

/** More tries than a day has counters: each failed try found one more counter full. */
const MAX_SPOT_TRIES = MAX_SPOT_SHARDS + 2;

/**
 * How a write that takes a spot retries a transaction conflict on its own where it has no
 * other counter to go to (a day made before the counters; a reservation, whose transaction also
 * counts on the day's item): briefly, before withSpotTaken reads the counters again.
 */
export const SPOT_WRITE_RETRIES: RetryOptions = { attempts: 3, baseDelayMs: 20, maxDelayMs: 200 };
/** Where another counter has room: a conflict is not retried on the counter that met it, the next try goes to another at once. */
const MOVE_ON_CONFLICT: RetryOptions = { ...SPOT_WRITE_RETRIES, passOn: isConflict };
const SPOT_CONFLICT_SWITCHES = 8;
/**
 * Moves at once at most this often: a conflict may also be on another item of the holder's
 * transaction (its order, its person), which another counter does not avoid; past these, the
 * conflict is waited out as before.
 */
const IMMEDIATE_MOVES = 3;
const SWITCH_WAIT = { baseDelayMs: 25, maxDelayMs: 400 };

/**
 * Runs `write` with a spot of the day taken from a counter with room, as `counters` show them
 * (the gallery read the request made; read here when not given). When the counter turned out
 * full (`write` throws shooting_day_full) the day's counters are read again, strongly
 * consistent, and `write` runs again with another: shooting_day_full only when none has room.
 * When its transaction conflicted with another on the counter, it runs again at once with
 * another counter that has room and has not conflicted, another item that the other
 * transaction does not hold; where there is none, after SPOT_WRITE_RETRIES on the same counter,
 * the counters are read again and it runs again after a short wait (shooting_day_full if the
 * day filled meanwhile).
 */
export async function withSpotTaken<T>(
  scope: GalleryScope,
  dayId: string,
  counters: readonly SpotCounter[] | undefined,
  hold: PaymentHold,
  write: (spot: SpotTaking, attempt: number) => Promise<T>,
): Promise<T> {
  let known = counters ?? (await readSpotCounters(scope, dayId));
  let switches = 0;
  const conflicted = new Set<CounterId>();
  for (let tries = 1; ; tries += 1) {
    if (!known) throw new DomainError('unknown_shooting_day');
    const others = known.filter((candidate) => !conflicted.has(candidate.id));
    const counter = counterToTake(others) ?? counterToTake(known);
    if (!counter) throw new DomainError('shooting_day_full');
    // A reservation's transaction counts on the day's item too, where another counter would meet the same conflict.
    const elsewhere =
      !hold.pending &&
      switches < IMMEDIATE_MOVES &&
      others.some((candidate) => candidate.id !== counter.id && roomOf(candidate) > 0);
    try {
      return await write(
        takeSpot(scope, dayId, counter, hold, elsewhere ? MOVE_ON_CONFLICT : SPOT_WRITE_RETRIES),
        tries,
      );
    } catch (error) {
      if (isConflict(error) && switches < SPOT_CONFLICT_SWITCHES) {
        switches += 1;
        conflicted.add(counter.id);
        if (elsewhere) continue;
        // Read again: a day filled meanwhile is refused without another write that would meet others.
        [known] = await Promise.all([readSpotCounters(scope, dayId), waitBeforeRetry(switches - 1, SWITCH_WAIT)]);
        continue;
      }
      if (!(error instanceof DomainError && error.reason === 'shooting_day_full') || tries >= MAX_SPOT_TRIES)
        throw error;
      known = await readSpotCounters(scope, dayId);
    }
  }
}

/** Gives one spot back to the day, as an item of the transaction that ends what held it. */
export function giveBackSpot(scope: GalleryScope, dayId: string, hold: PaymentHold = {}): TransactItem {
  return {
    Update: {
      TableName: tableName,
      Key: galleryKeys.shootingDay(scope.tenantId, scope.token, dayId),
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
      Key: galleryKeys.shootingDay(scope.tenantId, scope.token, dayId),
      UpdateExpression: 'ADD pendingPayments :minusOne',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':minusOne': -1 },
    },
  };
}

/**
 * Adds imported persons to their days' booked counts, after they are stored: imports never
 * refuse for capacity (the spec). On a day with shards they fill the counters' room first, each
 * add on the condition that the room is still there (read again when a check-in took it
 * meanwhile), and count only the rest beyond every counter's room on the day's item, so that
 * what the day can still admit shrinks exactly as on one counter.
 */
export async function addImportedBookings(
  scope: GalleryScope,
  bookingsByDay: ReadonlyMap<string, number>,
  days: readonly ShootingDay[],
): Promise<void> {
  await Promise.all(
    [...bookingsByDay].map(([dayId, count]) => {
      const day = days.find((candidate) => candidate.id === dayId);
      return addImportedBookingsToDay(scope, dayId, count, day && countersOfDay(day));
    }),
  );
}

/** `known`: the day's counters as the import's gallery read showed them; read again only when one's room went meanwhile. */
async function addImportedBookingsToDay(
  scope: GalleryScope,
  dayId: string,
  count: number,
  known: SpotCounter[] | undefined,
): Promise<void> {
  let left = count;
  for (let tries = 1; left > 0; tries += 1) {
    const counters = tries === 1 && known ? known : await readSpotCounters(scope, dayId);
    // A day deleted while the import ran has nothing left to count.
    if (!counters) return;
    const allocation =
      tries > MAX_SPOT_TRIES
        ? [{ id: 'day' as const, count: left, withinRoom: false }]
        : importAllocation(counters.length > 1 ? counters : [], left);
    for (const share of allocation) {
      const counter = counters.find((candidate) => candidate.id === share.id);
      const added = await addToCounter(
        scope,
        dayId,
        share.id,
        share.count,
        share.withinRoom ? counter?.share : undefined,
      );
      if (added) left -= share.count;
    }
  }
}

/**
 * ADDs `count` to one counter, resend-safe (the mark of addOnce): within `share` when given
 * (false when the room is no longer there), else unconditionally.
 */
async function addToCounter(
  scope: GalleryScope,
  dayId: string,
  id: CounterId,
  count: number,
  share: number | undefined,
): Promise<boolean> {
  const addId = randomUUID();
  const onceCondition = '(attribute_not_exists(lastAdd) OR lastAdd <> :addId)';
  const withinShare = share === undefined ? '' : ' AND booked <= :most';
  try {
    await withStoreRetries(() =>
      db.send(
        new UpdateCommand({
          TableName: tableName,
          Key:
            id === 'day'
              ? galleryKeys.shootingDay(scope.tenantId, scope.token, dayId)
              : galleryKeys.daySpotShard(scope.tenantId, scope.token, dayId, id),
          UpdateExpression: 'SET lastAdd = :addId ADD booked :count',
          ConditionExpression: `attribute_exists(pk) AND ${onceCondition}${withinShare}`,
          ExpressionAttributeValues: {
            ':addId': addId,
            ':count': count,
            ...(share === undefined ? {} : { ':most': share - count }),
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      ),
    );
    return true;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
    // Our own resend, applied already; or the room went (or the day did: nothing to count).
    const item = itemOfFailedCondition(error);
    return !item || item.lastAdd === addId;
  }
}
