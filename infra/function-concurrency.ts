import type { RouteClass } from './stage-routes';

/**
 * Reserved concurrency of the API's functions. Lambda's reserved concurrency is two things at
 * once: it is kept for the function whatever else runs in the account, and the function never
 * runs more instances than that. So the public functions are capped (a flood of check-ins cannot
 * take the account's concurrency) and the server-side functions and the webhook keep theirs.
 */
export interface ReservedConcurrency {
  /** Instances reserved for, and the most allowed to, each function of a class. */
  perFunction: Record<RouteClass, number>;
  /**
   * The account's concurrent-executions quota in the stack's region, which the reservations are
   * checked against at synth: Lambda refuses reservations that leave fewer than 100 unreserved.
   */
  accountQuota: number;
}

/** What Lambda keeps unreserved for the functions without a reservation. */
export const MINIMUM_UNRESERVED_CONCURRENCY = 100;

/**
 * Defaults for an account with the usual quota of 1,000 (docs/deployment.md#fair-share-between-tenants):
 * public 100 per function (what the public route throttle is sized from: PUBLIC_CAPACITY in
 * route-throttles.ts), server 20 per function, webhook 20, the unsubscribe link's function 10, the
 * 404/405 function 10. With today's API functions and the retention run's 1 that reserves 561 and
 * leaves 439 unreserved (the photo ingest, the reservation sweep and anything else in the account).
 */
export const DEFAULT_RESERVED_CONCURRENCY: ReservedConcurrency = {
  perFunction: { public: 100, server: 20, webhook: 20, link: 10, unmatched: 10 },
  accountQuota: 1000,
};

/** The stack's option: changes to the defaults, or false to reserve nothing. */
export type ReservedConcurrencyOption =
  { perFunction?: Partial<Record<RouteClass, number>>; accountQuota?: number } | false;

/**
 * The reserved concurrency of each function (handler → instances): the API's functions by class,
 * plus `fixed` reservations of functions behind no route; none with `false`. Throws when a number
 * is not a whole number of at least 1, or when the reservations together would leave the account
 * fewer than 100 unreserved, which Lambda refuses at deployment.
 */
export function reservedConcurrencyOf(
  functionClasses: ReadonlyMap<string, RouteClass>,
  option: ReservedConcurrencyOption | undefined,
  fixed: ReadonlyMap<string, number> = new Map(),
): Map<string, number> {
  if (option === false) return new Map();
  const reservation: ReservedConcurrency = {
    perFunction: { ...DEFAULT_RESERVED_CONCURRENCY.perFunction, ...option?.perFunction },
    accountQuota: option?.accountQuota ?? DEFAULT_RESERVED_CONCURRENCY.accountQuota,
  };
  for (const [routeClass, instances] of Object.entries(reservation.perFunction)) {
    if (!Number.isInteger(instances) || instances < 1) {
      throw new Error(
        `Reserved concurrency of ${routeClass} functions must be a whole number of at least 1 (or reservedConcurrency: false).`,
      );
    }
  }
  const reserved = new Map([
    ...[...functionClasses].map(([handler, routeClass]) => [handler, reservation.perFunction[routeClass]] as const),
    ...fixed,
  ]);
  const total = [...reserved.values()].reduce((sum, instances) => sum + instances, 0);
  const available = reservation.accountQuota - MINIMUM_UNRESERVED_CONCURRENCY;
  if (total > available) {
    throw new Error(
      `Reserving ${total} concurrent executions needs an account quota of at least ${total + MINIMUM_UNRESERVED_CONCURRENCY} ` +
        `(assumed: ${reservation.accountQuota}). Lower the reservations, raise the quota, or turn reservation off ` +
        '(reservedConcurrency: false, or -c reserveConcurrency=false); see docs/deployment.md.',
    );
  }
  return reserved;
}
