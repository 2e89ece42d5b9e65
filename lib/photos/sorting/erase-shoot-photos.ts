import { deleteObjectForGood } from '#lib/platform/media-bucket';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { deleteShootPhotoForGood } from '#lib/photos/sorting/assign-shoot-photo';
import {
  type Key,
  type ShootCard,
  type ShootPhoto,
  deleteShootItems,
  eraseCards,
  listShootItems,
  shootItemPosition,
} from '#lib/photos/sorting/store/shoot-photos';

/**
 * What erasing persons does to a sorted shoot (lib/privacy/erasure.ts calls it): their cards
 * stay as erased cards, positions without personal data, so the photos after them remain
 * nobody's (without them, the card before would claim those photos for someone else); their
 * photos, withheld ones included, and everything their cards govern are deleted, objects and
 * all. Run again after the persons are deleted, it catches a photo that was being placed while
 * the erasure ran. Answers the keys of the objects it went for (those of photos a placement
 * meanwhile gave to someone else included), for the photo CDN to forget.
 */
export async function eraseFromShoot(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  options: { everyItem?: boolean } = {},
): Promise<string[]> {
  const items = await listShootItems(scope);
  const cards = items.filter(
    (item): item is ShootCard & Key =>
      item.kind === 'card' && item.cardPersonId !== null && personIds.has(item.cardPersonId),
  );
  await eraseCards(scope, cards);
  for (const card of cards) await deleteObjectForGood(card.objectKey);
  const erasedPositions = new Set(
    [...items.filter((item) => item.kind === 'erased_card'), ...cards].map(shootItemPosition),
  );
  const photos = items.filter((item): item is ShootPhoto & Key => item.kind === 'photo');
  const isErasedPersons = (photo: ShootPhoto) =>
    options.everyItem === true ||
    [photo.personId, photo.heldFor].some((id) => id !== undefined && personIds.has(id)) ||
    (photo.governor !== undefined && erasedPositions.has(photo.governor));
  const erasedPhotos = photos.filter(isErasedPersons);
  for (const photo of erasedPhotos) {
    await deleteShootPhotoForGood(scope, photo, (current) => options.everyItem !== true && !isErasedPersons(current));
  }
  const otherCards = options.everyItem
    ? items.filter((item): item is ShootCard & Key => item.kind === 'card' && !cards.includes(item))
    : [];
  if (options.everyItem) await deleteShootItems(scope, otherCards);
  for (const card of otherCards) await deleteObjectForGood(card.objectKey);
  return [...cards, ...erasedPhotos, ...otherCards].map((item) => item.objectKey);
}
