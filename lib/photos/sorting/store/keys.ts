import { GSI1 } from '#lib/platform/table/table-definition';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { UnassignedReason } from '#lib/photos/sorting/rules/shoot-sequence';
import { reviewQueuePlace, waitsForReview } from '#lib/photos/sorting/rules/review-queue';

/**
 * A gallery's shoot: every photo uploaded to its inbox, as camera cards (`CARD#`) and photos
 * (`SHOT#`) in capture order per camera sequence, and photos without a place in one (`LOOSE#`).
 * Beside it, each person's shoot index (`SHOOTOF#<personId>`: which shoot items name the person,
 * and how) and each photo's pointer to its shoot item (`SHOOTID#<photoId>`), so that one
 * person's or one photo's items are found without reading the whole shoot.
 * Only photos' stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
export const shootKeys = {
  shootOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#SHOOT`,
  shootCard: (tenantId: string, token: string, sequenceId: string, position: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOT`,
    sk: `CARD#${sequenceId}#${position}`,
  }),
  shootPhoto: (tenantId: string, token: string, sequenceId: string, position: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOT`,
    sk: `SHOT#${sequenceId}#${position}`,
  }),
  looseShootPhoto: (tenantId: string, token: string, photoId: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOT`,
    sk: `LOOSE#${photoId}`,
  }),
  shootIndexOfPerson: (tenantId: string, token: string, personId: string) =>
    `T#${tenantId}#G#${token}#SHOOTOF#${personId}`,
  /** `role`: CARD (a card showing the person's code), HAS (their photo), HELD (withheld for them), CAND (a face candidate). */
  shootIndexEntry: (tenantId: string, token: string, personId: string, role: string, shootSortKey: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOTOF#${personId}`,
    sk: `${role}#${shootSortKey}`,
  }),
  shootPhotoPointer: (tenantId: string, token: string, photoId: string) => ({
    pk: `T#${tenantId}#G#${token}#SHOOTID#${photoId}`,
    sk: 'SHOOT',
  }),
  /** GSI1 partition of the review queue: every shoot photo while it waits for review (rules/review-queue.ts). */
  reviewQueue: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#REVIEW`,
} as const;

/** The shoot item's sort key a person's shoot index entry names (shootKeys.shootIndexEntry: `<role>#<shoot sk>`). */
export function shootSortKeyOfIndexEntry(entrySortKey: string): string {
  return entrySortKey.slice(entrySortKey.indexOf('#') + 1);
}

/** The sort-key prefix of a camera sequence's cards in a shoot partition (shootKeys.shootCard). */
export function shootCardsOfSequence(sequenceId: string): string {
  return `CARD#${sequenceId}#`;
}

/** The position in its sequence of a shoot card or photo, from its sort key (`CARD#<sequence>#<position>`). */
export function positionOfShootItem(sortKey: string): string {
  return sortKey.split('#').slice(2).join('#');
}

/** Whether a shoot item has a place in a camera sequence (a loose photo, `LOOSE#<photoId>`, has none). */
export function hasSequence(sortKey: string): boolean {
  return !sortKey.startsWith('LOOSE#');
}

/** The camera sequence of a shoot card or photo, from its sort key (`CARD#<sequence>#<position>`). */
export function sequenceOfShootItem(sortKey: string): string {
  return sortKey.split('#')[1]!;
}

/** The review queue's index attributes of a photo in `state`; undefined when it does not wait for review (none to keep, or to remove). */
export function reviewQueueEntry(
  scope: GalleryScope,
  photo: { camera: string | null; capturedAt: string | null; path: string; photoId: string },
  state: { personId?: string; reason?: UnassignedReason },
) {
  if (!waitsForReview(state)) return undefined;
  return {
    [GSI1.partitionKey]: shootKeys.reviewQueue(scope.tenantId, scope.token),
    [GSI1.sortKey]: reviewQueuePlace(photo),
  };
}
