/*
 * The photo-ready email's state, kept on the person item (docs/photos.md#photo-ready-emails):
 * photos decides when to send and what; persons owns the item, and so the marks' writes.
 */

/** The person item's attributes that hold a notice's state (lib/persons/store/photo-notice-marks.ts); the sender may update no others. */
export const PHOTO_NOTICE_ATTRIBUTES = ['photoNoticeClaimedAt', 'photoNoticeSentAt', 'photoNoticeRejectedAt'] as const;

/** Where a notice stands on the person item: claimed by a sender now, or done for good. */
export interface PhotoNoticeState {
  /** When a sender claimed the notice (ms); a claim older than PHOTO_NOTICE_CLAIM_MS is abandoned. */
  claimedAt?: number;
  /** When the email was accepted by the mail service. */
  sentAt?: string;
  /** When the mail service refused the message for good (an address it will never take). */
  rejectedAt?: string;
}

/**
 * How long a claim holds before another sender may take it over: twice the function's timeout
 * (60 s, infra/function-permissions.ts), so that only a sender that died lets its claim lapse.
 */
export const PHOTO_NOTICE_CLAIM_MS = 2 * 60_000;
