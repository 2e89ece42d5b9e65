import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';

/**
 * A tenant's share of the check-in route, all its galleries and clients together
 * (docs/deployment.md#fair-share-between-tenants): check-in attempts a second (submitCheckin,
 * retryCheckout and the photo lookups, the actions that write), with a burst of BURST_SECONDS
 * of that rate. One tenant's announcement takes at most this much of the route; the rest stays
 * for the other tenants. Reads (the check-in page, status polls) have no share: they write
 * nothing but their client's counter, and the edge limits them per address.
 */
export interface TenantShare {
  checkinsPerSecond: number;
}

/**
 * 100 check-in attempts a second, at once up to 1,000: a quarter of the route's 400/s
 * (infra/route-throttles.ts), so a tenant at its share leaves three quarters of the route to the
 * others, and within what one gallery's partition takes (about 110 check-ins a second at 1,000
 * write units) and the tenant's counter item (1,000 writes a second). A company of 3,000 announcing
 * at once fits: 1,000 at once, then 100 a second.
 */
export const DEFAULT_TENANT_SHARE: TenantShare = { checkinsPerSecond: 100 };

/** The seconds of its rate a tenant may send at once. */
export const BURST_SECONDS = 10;

/** The most a tenant may be given: its counter is one item, written once per check-in attempt. */
export const MAX_TENANT_SHARE_PER_SECOND = 500;

/** The tenant's share: its own where the platform set one, the default elsewhere. */
export function tenantShareOf(configured: Partial<TenantShare> | undefined): TenantShare {
  return { ...DEFAULT_TENANT_SHARE, ...configured };
}

/** The GCRA policy of a share: BURST_SECONDS of its rate at once, then its rate. */
export function tenantSharePolicy(share: TenantShare): RateLimitPolicy {
  return { limit: share.checkinsPerSecond * BURST_SECONDS, windowMs: BURST_SECONDS * 1000 };
}
