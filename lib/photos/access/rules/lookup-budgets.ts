import { ALL_CLIENTS, type PublicLimits } from '#lib/galleries/rules/public-limits';
import type { PhotoAccess } from '#lib/galleries/rules/gallery-model';
import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';

/**
 * The budgets of wrong pairs a photo lookup by code draws on (docs/photos.md#limits-on-photo-lookups):
 * the client's site, the code, and the whole gallery. Each counts failures where they stop a
 * search without shutting anybody out: a lookup over any of them gets no verdict (the uniform
 * answer), and a right pair's photos go to the person's inbox.
 */
export interface LookupBudget {
  /** The gallery's counter of this budget: its client part (a site key, a code key, or every client). */
  client: string;
  policy: RateLimitPolicy;
}

/** The budget name the failure counters are kept under in the gallery. */
export const LOOKUP_FAILURES_BUDGET = 'photoLookupFailures';

/**
 * The three failure budgets of a lookup. `site`: the client's site key (clientSiteKey); `code`:
 * a keyed hash of the access code the lookup names, so that the counter holds no code.
 */
export function lookupBudgets(limits: PublicLimits, lookup: { site: string; code: string }): LookupBudget[] {
  return [
    { client: lookup.site, policy: limits.photoLookupFailuresPerSite },
    { client: `code-${lookup.code}`, policy: limits.photoLookupFailuresPerCode },
    { client: ALL_CLIENTS, policy: limits.photoLookupFailures },
  ];
}

/** The second factor a lookup by code proves the code with. */
export type SecondFactorKind = 'email' | 'employeeId';

/**
 * Whether the gallery takes lookups by code with this second factor. A lookup without any
 * factor is a wrong pair where either way is on, and refused as the way being off where neither is.
 */
export function lookupByCodeAllowed(access: PhotoAccess, factor: SecondFactorKind | undefined): boolean {
  if (factor === 'email') return access.codeAndEmail;
  if (factor === 'employeeId') return access.codeAndEmployeeId;
  return access.codeAndEmail || access.codeAndEmployeeId;
}
