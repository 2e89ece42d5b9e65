import { PERSONS_PER_TRANSACTION } from '#lib/persons/store/access-code-allocation';

/**
 * The fewest DynamoDB round trips an endpoint can make as designed today (docs/data-model.md,
 * "Round trips per request"): `calls` in all, `depth` the waves a request waits for one after
 * another. A warm instance has the tenant and the gallery's limits from its recent reads.
 */
export type RoundTripFloor = ReturnType<typeof floor>;

const floor = (calls: number, depth: number, reason: string) => ({ calls, depth, reason });

export const PUBLIC_CHECKIN_INFO_FLOOR = floor(2, 1, 'gallery Query ‖ per-client rate-limit UpdateItem');

/**
 * The tenant's Query beside the Query of the gallery's pointer (its tenant and own limits, by
 * token), then as warm. A gallery without a pointer (made before pointers) waits one wave more.
 */
export const PUBLIC_CHECKIN_INFO_COLD_FLOOR = floor(
  4,
  2,
  "tenant Query ‖ gallery pointer Query, then gallery Query ‖ per-client rate-limit UpdateItem under the pointer's limits",
);

/** The key's one conditional write (key, plan's verdict, rate limit) beside the gallery's Query. */
export const SERVER_SIDE_READ_FLOOR = floor(
  2,
  1,
  'key UpdateItem ‖ gallery Query; the answer from the gallery partition',
);
export const LIST_PERSONS_FLOOR = floor(3, 2, 'key UpdateItem ‖ gallery Query, then one persons Query (one page)');
export const PERSON_PHOTOS_FLOOR = floor(4, 3, 'key UpdateItem ‖ gallery Query, person GetItem, photos Query');
export const COLD_INSTANCE_EXTRA = floor(1, 1, 'tenant Query (nothing read yet in this process)');
export const SUBMIT_CHECKIN_FLOOR = floor(
  5,
  3,
  "gallery Query ‖ per-client rate limit UpdateItem ‖ tenant's share UpdateItem → one transaction (person, code, a spot counter) → stats UpdateItem",
);

/**
 * An import of `rows` valid rows on one shooting day: the tenant read fresh, the key's write, the
 * gallery's Query, ⌈rows/33⌉ transactions (in parallel: one wave), then the stats and day
 * counter updates (in parallel: one wave of 2).
 */
export function importFloor(rows: number): RoundTripFloor {
  const transactions = Math.ceil(rows / PERSONS_PER_TRANSACTION);
  return floor(
    3 + transactions + 2,
    5,
    `tenant → key → gallery, ${transactions} transaction(s) of ≤ ${PERSONS_PER_TRANSACTION} persons in parallel, stats + day counters in parallel`,
  );
}
