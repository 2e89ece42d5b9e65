/**
 * The key scheme of the single table, which every feature follows: a gallery's partitions start
 * with its tenant and token (`T#<tenantId>#G#<token>`), a tenant's with `T#<tenantId>`. Each
 * feature declares the keys of its own items in its `store/keys.ts`; docs/data-model.md
 * documents the access pattern each key serves.
 */

/** What every partition key of one gallery starts with. */
export function galleryPartitionPrefix(tenantId: string, token: string): string {
  return `T#${tenantId}#G#${token}`;
}

export const keys = {
  /** A person's photos: one item collection per person. */
  photosOfPerson: (tenantId: string, token: string, personId: string) => `T#${tenantId}#G#${token}#PHOTOS#${personId}`,
  photo: (tenantId: string, token: string, personId: string, photoId: string) => ({
    pk: `T#${tenantId}#G#${token}#PHOTOS#${personId}`,
    sk: `PHOTO#${photoId}`,
  }),
  /**
   * A gallery's shoot: every photo uploaded to its inbox, as camera cards (`CARD#`) and photos
   * (`SHOT#`) in capture order per camera sequence, and photos without a place in one (`LOOSE#`).
   */
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
} as const;

/** The sort-key prefix of a camera sequence's cards in a shoot partition (keys.shootCard). */
export function shootCardsOfSequence(sequenceId: string): string {
  return `CARD#${sequenceId}#`;
}

/** The position in its sequence of a shoot card or photo, from its sort key (`CARD#<sequence>#<position>`). */
export function positionOfShootItem(sortKey: string): string {
  return sortKey.split('#').slice(2).join('#');
}
