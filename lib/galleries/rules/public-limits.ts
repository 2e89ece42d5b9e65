import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';

/**
 * Limits on the public routes, per client (its address, an IPv6 client by its /64) and per
 * gallery, with separate budgets for reading and for checking in. A gallery may set its own;
 * these defaults let a whole company check in through one corporate NAT address in the hour
 * after an announcement (docs/api-reference.md#public-rate-limits gives the reasoning):
 * - check-ins (submitCheckin, retryCheckout): a burst of 100, then one every 12 seconds
 *   (300 an hour), so 400 check-ins from one address fit in the first hour and a page that is
 *   refused waits at most 12 seconds;
 * - reads (check-in info, checkinStatus): a burst of 300, then one a second, so every one of
 *   those participants can load the page and poll a payment's status;
 * - photo lookups (myPhotos, sendPhotoLink, photosByLink): a burst of 30, then one every 2
 *   minutes per client. Wrong pairs of code and email (or employee ID) are counted after the
 *   body parsed, in three budgets: the client's site (a burst of 10, then one an hour), the
 *   code (a burst of 5, then one every 6 hours) and the whole gallery (a burst of 200, then one
 *   every 30 minutes), so the 923,521 codes cannot be searched (finding one person's code has
 *   at most a 1.9 % chance in a year). A lookup over any of them gets no verdict, and a right
 *   pair's photos go to the person's inbox instead: none of them can lock anybody out
 *   (docs/photos.md#limits-on-photo-lookups).
 */
export interface PublicLimits {
  reads: RateLimitPolicy;
  checkins: RateLimitPolicy;
  /** myPhotos, sendPhotoLink and photosByLink per client, right pairs and wrong ones. */
  photoLookups: RateLimitPolicy;
  /**
   * Wrong pairs of the whole gallery, all clients together: each lookup by code takes one before
   * its pair is checked and gets it back when the pair is right (lib/photos/access/participant-photos.ts).
   */
  photoLookupFailures: RateLimitPolicy;
  /** Wrong pairs from one client site (an IPv4 /24, an IPv6 /48), taken and given back the same way. */
  photoLookupFailuresPerSite: RateLimitPolicy;
  /** Wrong pairs naming one access code (one person, where the code is in use), taken and given back the same way. */
  photoLookupFailuresPerCode: RateLimitPolicy;
  /** Free check-ins one email address may make in the gallery (a parent checking in two children shares one). */
  checkinsPerEmail: number;
  /** Checkout retries of one reservation. */
  retriesPerOrder: number;
  /**
   * Reservations waiting for payment at once on a day with a capacity, as a share of that
   * capacity (at least MIN_PENDING_PAYMENTS_PER_DAY): unpaid reservations cannot hold the whole day.
   */
  pendingPaymentsShare: number;
}

export const DEFAULT_PUBLIC_LIMITS: PublicLimits = {
  reads: { limit: 300, windowMs: 5 * 60_000 },
  checkins: { limit: 100, windowMs: 20 * 60_000 },
  photoLookups: { limit: 30, windowMs: 60 * 60_000 },
  photoLookupFailures: { limit: 200, windowMs: 100 * 60 * 60_000 },
  photoLookupFailuresPerSite: { limit: 10, windowMs: 10 * 60 * 60_000 },
  photoLookupFailuresPerCode: { limit: 5, windowMs: 30 * 60 * 60_000 },
  checkinsPerEmail: 3,
  retriesPerOrder: 5,
  pendingPaymentsShare: 0.25,
};

/** However small a day, this many participants may be paying for it at once. */
export const MIN_PENDING_PAYMENTS_PER_DAY = 5;

/** The reservations a day with this capacity may have waiting for payment at once; none without capacity. */
export function pendingPaymentsCap(limits: PublicLimits, maxPersons: number | undefined): number | undefined {
  if (maxPersons === undefined) return undefined;
  return Math.max(MIN_PENDING_PAYMENTS_PER_DAY, Math.ceil(maxPersons * limits.pendingPaymentsShare));
}

/** The rate budgets of the public routes, each per client. */
export type PublicBudget = 'reads' | 'checkins' | 'photoLookups';

/** The client name of a counter shared by every client of a gallery (client keys are hashes, never this). */
export const ALL_CLIENTS = '*';

/** The check-in actions that only read (a status poll); every other action, known or not, is a check-in attempt. */
const READING_ACTIONS: ReadonlySet<string> = new Set(['checkinStatus']);

/**
 * The actions that open or send a participant's photos, or change something of theirs, by access
 * code and a second factor or by a photo link.
 */
export const PHOTO_LOOKUP_ACTIONS: ReadonlySet<string> = new Set([
  'myPhotos',
  'sendPhotoLink',
  'photosByLink',
  'pickPhoto',
  'withdrawFaceConsent',
  'manageConsents',
]);

export function budgetOfAction(action: unknown): PublicBudget {
  if (typeof action === 'string' && PHOTO_LOOKUP_ACTIONS.has(action)) return 'photoLookups';
  return typeof action === 'string' && READING_ACTIONS.has(action) ? 'reads' : 'checkins';
}

/** The limits of a gallery: its own where it sets them, the defaults elsewhere. */
export function publicLimitsOf(configured: Partial<PublicLimits> | undefined): PublicLimits {
  return { ...DEFAULT_PUBLIC_LIMITS, ...configured };
}

/** A rate limit's window in words, for messages: "minute", "hour", "20 minutes", "100 hours". */
export function windowInWords(windowMs: number): string {
  if (windowMs === 60_000) return 'minute';
  if (windowMs === 3_600_000) return 'hour';
  if (windowMs % 3_600_000 === 0) return `${windowMs / 3_600_000} hours`;
  if (windowMs % 60_000 === 0) return `${windowMs / 60_000} minutes`;
  return `${windowMs / 1000} seconds`;
}
