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


/** Tenant Query ‖ key GetItem, then rate-limit UpdateItem, then gallery Query: every server-side request. */
const SERVER_SIDE_PREFIX = 4;
/** The tenant and key lookups run in parallel: one wave less than calls. */
const SERVER_SIDE_DEPTH = 3;

export const PUBLIC_CHECKIN_INFO_FLOOR: RoundTripFloor = {
  calls: 3,
  depth: 3,
  reason: 'tenant Query → gallery Query (gallery, days, packages, fields and the per-client limits in one partition) → per-client rate-limit UpdateItem',
};

export const SERVER_SIDE_READ_FLOOR: RoundTripFloor = {
  calls: SERVER_SIDE_PREFIX,
  depth: SERVER_SIDE_DEPTH,
  reason: 'tenant ‖ key → rate limit → gallery Query; the answer comes from the gallery partition',
};

export const LIST_PERSONS_FLOOR: RoundTripFloor = {
  calls: SERVER_SIDE_PREFIX + 1,
  depth: SERVER_SIDE_DEPTH + 1,
  reason: 'the server-side 4, then one persons Query (one DynamoDB page)',
};

export const PERSON_PHOTOS_FLOOR: RoundTripFloor = {
  calls: SERVER_SIDE_PREFIX + 2,
  depth: SERVER_SIDE_DEPTH + 2,
  reason: 'the server-side 4, person GetItem (404 for an unknown person), photos Query',
};

export const SUBMIT_CHECKIN_FLOOR: RoundTripFloor = {
  calls: 5,
  depth: 5,
  reason: 'tenant → gallery → per-client rate limit → one transaction (person, code, day booking) → stats UpdateItem',
};

/**
 * An import of `rows` valid rows, all on one shooting day: the server-side 4, ⌈rows/33⌉
 * transactions (4 in parallel, so one wave), then the stats and day counter updates in
 * parallel (one wave of 2).
 */
export function importFloor(rows: number): RoundTripFloor {
  const transactions = Math.ceil(rows / PERSONS_PER_TRANSACTION);
  return {
    calls: SERVER_SIDE_PREFIX + transactions + 2,
    depth: SERVER_SIDE_DEPTH + 1 + 1,
    reason: `the server-side 4, ${transactions} transaction(s) of ≤ ${PERSONS_PER_TRANSACTION} persons in parallel, stats + day counters in parallel`,
  };
}
