import { DomainError } from '#lib/platform/domain-error';

/** What an erasure reports and refuses, for a person and for a whole gallery alike (lib/privacy/erasure.ts). */

/**
 * A gallery's receipt lists at most this many person and order IDs (the counts say how many there
 * were): a receipt of a gallery of any size stays small, and so does what the erasure keeps in memory.
 */
export const RECEIPT_ID_LIMIT = 1000;

/** What an erasure removed (or, in a dry run, would remove). */
export interface ErasureReceipt {
  dryRun: boolean;
  subject: string;
  /** The erased persons' IDs: all of them for a person's erasure, the first RECEIPT_ID_LIMIT of a gallery's. */
  persons: string[];
  /** How many persons were erased (the length of `persons` unless a gallery had more than it lists). */
  personCount: number;
  accessCodes: number;
  spotsGivenBack: number;
  selfieVersions: number;
  photoRecords: number;
  photoObjectVersions: number;
  /** The redacted orders' IDs: all for a person, the first RECEIPT_ID_LIMIT of a gallery's. */
  ordersRedacted: string[];
  /** How many orders were reduced to their accounting part. */
  ordersRedactedCount: number;
  checkoutTokens: number;
  idempotencyRecords: number;
  /** Events about the persons (webhook outbox items), whether sent already or not; their person.consent_changed among them. */
  events: number;
  /** Consent change records on the persons (each consent's last change since check-in), removed with the person items. */
  consentChanges: number;
  /**
   * Items of the gallery's shoot: the persons' sorted and withheld photos and the camera cards
   * showing their codes (their objects are among photoObjectVersions). The cards stay as erased
   * cards, positions without personal data (docs/photos.md#erasure-and-the-sequence).
   */
  shootItems: number;
  /** The persons' reference faces (face descriptors of their selfies). */
  referenceFaces: number;
  /** HR exports whose ZIP holds one of the persons (all of a gallery's): ZIP deleted, export marked erased. */
  hrExports: number;
  /** Versions of the cached portrait crops of the persons' photos (docs/hr-export.md). */
  portraitCropVersions: number;
  /** Gallery erasure: the gallery's configuration items (gallery, days, packages, fields, statistics). */
  galleryItems?: number;
  /**
   * Retention only (deferPending): orders still waiting for payment, left with their
   * participant's data, selfie and idempotency records for a later run, once they have ended.
   */
  ordersDeferred?: string[];
}

export interface ErasureOptions {
  dryRun?: boolean;
}

export interface GalleryErasureOptions extends ErasureOptions {
  /**
   * Leave the orders that still wait for payment (and what belongs to their participants) for a
   * later run instead of refusing the whole gallery: what retention asks for, so that one
   * reservation never blocks a gallery's retention.
   */
  deferPending?: boolean;
}

/** Refuses, naming them, while orders of what is erased wait for payment: their checkout may still complete. */
export function refuseWhilePending(subject: string, pendingOrderIds: readonly string[]): void {
  if (pendingOrderIds.length === 0) return;
  throw new DomainError(
    'reservation_changed',
    `${pendingOrderIds.length} order(s) of ${subject} wait for payment (${pendingOrderIds.join(', ')}); erase once they have ended (at most one checkout session lifetime).`,
  );
}
