/** A gallery's retention setting; lib/privacy applies it (docs/personal-data.md). */

/** How long a gallery keeps personal data, in days after its last shooting day. */
export interface RetentionPolicy {
  /** Selfies (object and every version); the person stays, without a selfie. */
  selfieDays: number;
  /** Persons, with their access codes, selfies, photos and idempotency records; their orders keep only the accounting part. */
  personDays: number;
  /** The participant's data in orders that ended (paid, expired, canceled), and the selfies of reservations never paid. */
  orderDays: number;
}

export const DEFAULT_RETENTION: RetentionPolicy = { selfieDays: 30, personDays: 365, orderDays: 90 };

export const MAX_RETENTION_DAYS = 3650;

export const RETENTION_SETTINGS = [
  'selfieDays',
  'personDays',
  'orderDays',
] as const satisfies readonly (keyof RetentionPolicy)[];

/** The gallery's policy: its own settings over the defaults; a selfie is never kept longer than its person. */
export function retentionOf(settings: Partial<RetentionPolicy> | undefined): RetentionPolicy {
  const policy = { ...DEFAULT_RETENTION, ...settings };
  return { ...policy, selfieDays: Math.min(policy.selfieDays, policy.personDays) };
}
