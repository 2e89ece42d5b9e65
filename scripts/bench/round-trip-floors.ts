import { PERSONS_PER_TRANSACTION } from '#lib/persons/store/access-code-allocation';

/**
 * The fewest DynamoDB round trips each endpoint can make as designed today, from the table
 * "Round trips per request" in docs/data-model.md. `calls` is the total, `depth` the waves a
 * request waits for one after another (see round-trip-counter.ts).
 */
export interface RoundTripFloor {
  calls: number;
  depth: number;
  reason: string;
}

/**
 * A server-side GET on a warm instance: the tenant comes from this process's recent read
 * (TENANT_CACHE_MS), and the key's one conditional write (key, plan's verdict, rate limit) runs
 * beside the gallery's Query. On a cold instance the tenant's Query comes first: one wave more.
 */
const SERVER_SIDE_READ_PREFIX = 2;
const SERVER_SIDE_READ_DEPTH = 1;

/** Public GET check-in info on a warm instance: the gallery's Query beside the per-client counter's write. */
export const PUBLIC_CHECKIN_INFO_FLOOR: RoundTripFloor = {
  calls: 2,
  depth: 1,
  reason:
    "gallery Query ‖ per-client rate-limit UpdateItem (the tenant and the gallery's limits as this instance read them in the last minute)",
};

/**
 * Public GET check-in info on a cold instance: the tenant's Query beside the Query of the
 * gallery's pointers (its tenant and own limits, by token), then as warm. A gallery without a
 * pointer (made before pointers; `gallery pointers` writes it) waits one wave more.
 */
export const PUBLIC_CHECKIN_INFO_COLD_FLOOR: RoundTripFloor = {
  calls: 4,
  depth: 2,
  reason:
    "tenant Query ‖ gallery pointer Query, then gallery Query ‖ per-client rate-limit UpdateItem under the pointer's limits",
};

export const SERVER_SIDE_READ_FLOOR: RoundTripFloor = {
  calls: SERVER_SIDE_READ_PREFIX,
  depth: SERVER_SIDE_READ_DEPTH,
  reason: 'key UpdateItem (key, plan, rate limit) ‖ gallery Query; the answer comes from the gallery partition',
};

export const LIST_PERSONS_FLOOR: RoundTripFloor = {
  calls: SERVER_SIDE_READ_PREFIX + 1,
  depth: SERVER_SIDE_READ_DEPTH + 1,
  reason: 'key UpdateItem ‖ gallery Query, then one persons Query (one DynamoDB page)',
};

export const PERSON_PHOTOS_FLOOR: RoundTripFloor = {
  calls: SERVER_SIDE_READ_PREFIX + 2,
  depth: SERVER_SIDE_READ_DEPTH + 2,
  reason: 'key UpdateItem ‖ gallery Query, person GetItem (404 for an unknown person), photos Query',
};

/** What a cold instance adds to each GET above: the tenant's Query, before everything else. */
export const COLD_INSTANCE_EXTRA: RoundTripFloor = {
  calls: 1,
  depth: 1,
  reason: 'tenant Query (nothing read yet in this process)',
};

/** A free check-in with a day on a warm instance; a cold one reads the tenant first (COLD_INSTANCE_EXTRA). */
export const SUBMIT_CHECKIN_FLOOR: RoundTripFloor = {
  calls: 4,
  depth: 3,
  reason:
    'gallery Query ‖ per-client rate limit UpdateItem → one transaction (person, code, a spot counter) → stats UpdateItem',
};

/** A server-side POST: the tenant read fresh, then the key's one write, then the gallery Query. */
const SERVER_SIDE_WRITE_PREFIX = 3;

/**
 * An import of `rows` valid rows, all on one shooting day: tenant, key, gallery (3), ⌈rows/33⌉
 * transactions (4 in parallel, so one wave), then the stats and day counter updates in
 * parallel (one wave of 2).
 */
export function importFloor(rows: number): RoundTripFloor {
  const transactions = Math.ceil(rows / PERSONS_PER_TRANSACTION);
  return {
    calls: SERVER_SIDE_WRITE_PREFIX + transactions + 2,
    depth: SERVER_SIDE_WRITE_PREFIX + 1 + 1,
    reason: `tenant → key → gallery, ${transactions} transaction(s) of ≤ ${PERSONS_PER_TRANSACTION} persons in parallel, stats + day counters in parallel`,
  };
}
