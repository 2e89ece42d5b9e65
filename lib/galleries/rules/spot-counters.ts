/**
 * A shooting day's spots are counted on several items, so that a burst of check-ins to one day
 * does not meet on one item (docs/data-model.md#a-days-spots-on-several-counters). Each counter
 * holds a share of the day's capacity and the spots taken from it; a spot is taken from one
 * counter with room, on the condition that it still has room, so the day never holds more than
 * the sum of the shares, its capacity, under any concurrency.
 *
 * The day's own item is one of the counters. On a day made before the counters were spread
 * (no `spotShards`), it is the only one, with the whole capacity as its share. On a day with
 * shards its share is 0: it receives the spots given back (its count goes below zero, which is
 * room to take again) and the imports beyond every counter's room (which never refuse).
 */

/** Which counter: the day's item, or shard n. */
export type CounterId = 'day' | number;

export interface SpotCounter {
  id: CounterId;
  /** Spots it may hold; undefined on a day without capacity. */
  share: number | undefined;
  /** Spots taken from it, less those given back to it (below zero on the day's item). */
  booked: number;
}

/** Shards of a day with capacity: enough that each holds about SPOTS_PER_SHARD, at most MAX_SPOT_SHARDS. */
export const SPOTS_PER_SHARD = 8;
export const MAX_SPOT_SHARDS = 16;
/** Shards of a day without capacity: they only spread the counting. */
export const UNLIMITED_DAY_SHARDS = 8;

/** How many shards a new day gets. */
export function spotShardCount(maxPersons: number | undefined): number {
  if (maxPersons === undefined) return UNLIMITED_DAY_SHARDS;
  return Math.min(MAX_SPOT_SHARDS, Math.max(1, Math.ceil(maxPersons / SPOTS_PER_SHARD)));
}

/** The shards' shares of a capacity: as even as whole spots allow, the larger ones first. */
export function shardShares(maxPersons: number | undefined, count: number): (number | undefined)[] {
  if (maxPersons === undefined) return Array.from({ length: count }, () => undefined);
  const base = Math.floor(maxPersons / count);
  return Array.from({ length: count }, (_, index) => base + (index < maxPersons % count ? 1 : 0));
}

export function roomOf(counter: SpotCounter): number {
  return counter.share === undefined ? Number.POSITIVE_INFINITY : counter.share - counter.booked;
}

/** Spots the day holds: the sum over its counters. */
export function bookedOnCounters(counters: readonly SpotCounter[]): number {
  return counters.reduce((sum, counter) => sum + counter.booked, 0);
}

/**
 * The counter a spot is taken from, as `counters` show them: at random, weighted by room, so
 * that the counters run dry together and concurrent check-ins spread over all of them (on a day
 * without capacity, evenly over the shards). Undefined when none has room: the day is full.
 */
export function counterToTake(
  counters: readonly SpotCounter[],
  random: () => number = Math.random,
): SpotCounter | undefined {
  const withRoom = counters.filter((counter) => roomOf(counter) > 0);
  if (withRoom.length === 0) return undefined;
  const unlimited = withRoom.filter((counter) => counter.share === undefined && counter.id !== 'day');
  if (unlimited.length > 0) return unlimited[Math.floor(random() * unlimited.length)]!;
  if (withRoom.some((counter) => counter.share === undefined))
    return withRoom.find((counter) => counter.share === undefined);
  const total = withRoom.reduce((sum, counter) => sum + roomOf(counter), 0);
  let point = random() * total;
  for (const counter of withRoom) {
    point -= roomOf(counter);
    if (point < 0) return counter;
  }
  return withRoom.at(-1);
}

/**
 * How an import of `count` persons is counted: into the counters' room first (as much as each
 * has), so that what the day can still admit shrinks exactly as with one counter; the rest,
 * beyond every counter's room, on the day's item (imports never refuse for capacity).
 */
export function importAllocation(
  counters: readonly SpotCounter[],
  count: number,
): { id: CounterId; count: number; withinRoom: boolean }[] {
  const allocation: { id: CounterId; count: number; withinRoom: boolean }[] = [];
  let left = count;
  for (const counter of counters) {
    if (left === 0) break;
    const room = roomOf(counter);
    if (room <= 0) continue;
    const taken = Math.min(left, room);
    allocation.push({ id: counter.id, count: taken, withinRoom: true });
    left -= taken;
  }
  if (left > 0) allocation.push({ id: 'day', count: left, withinRoom: false });
  return allocation;
}
