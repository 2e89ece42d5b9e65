import { PERSON_TEXT_LIMITS } from '#lib/persons/rules/person-limits';

/**
 * The limits of a check-in: the check-in schema, the page's own checks (scripts/web/checkin-rules.ts)
 * and the error messages read these, and docs/api-reference.md lists them (a test holds that
 * table to them).
 */

/** Longest accepted value of each text member of a check-in, in characters after trimming: the person's, and the check-in's own. */
export const CHECKIN_TEXT_LIMITS = {
  ...PERSON_TEXT_LIMITS,
  orderNotes: 1000,
  shootingDayId: 100,
  selectedPackageId: 100,
} as const;

export type LimitedTextField = keyof typeof CHECKIN_TEXT_LIMITS;

/** A selfie once decoded from base64: within the body limit, which stays under Lambda's 6 MB payload. */
export const MAX_SELFIE_BYTES = 3 * 1024 * 1024;

/**
 * The most pixels (width × height) a selfie may declare: a phone's full-resolution 50 MP
 * picture (8160 × 6120) fits, a decompression bomb's 65535 × 65535 does not. It also bounds
 * the decoder's memory (see lib/checkin/adapters/selfie-image.ts).
 */
export const MAX_SELFIE_PIXELS = 50_000_000;
