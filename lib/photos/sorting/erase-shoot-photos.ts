import { deleteObjectForGood } from '#lib/platform/media-bucket';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { deleteShootPhotoForGood } from '#lib/photos/sorting/assign-shoot-photo';
import { getPerson } from '#lib/persons/store/persons';
import { deleteShootIndexOf } from '#lib/photos/sorting/store/shoot-index';
import {
  type Key,
  type ShootCard,
  type ShootPhoto,
  deleteShootItems,
  eraseCards,
  listShootItems,
  photosGovernedByCard,
  shootItemPosition,
  shootItemsOf,
} from '#lib/photos/sorting/store/shoot-photos';

/**
 * What erasing persons does to a sorted shoot (lib/privacy/erasure.ts calls it): their cards
 * stay as erased cards, positions without personal data, so the photos after them remain
 * nobody's (without them, the card before would claim those photos for someone else); their
 * photos, withheld ones included, and everything their cards govern are deleted, objects and
 * all. Run again after the persons are deleted, it catches a photo that was being placed while
 * the erasure ran. Answers the keys of the objects it went for (those of photos a placement
 * meanwhile gave to someone else included), for the photo CDN to forget. Some persons' part is
 * found by their shoot index (erasePersonsShootParts), every item's by reading the whole shoot.
 */
export async function eraseFromShoot(
  scope: GalleryScope,
  personIds: ReadonlySet<string>,
  options: { everyItem?: boolean } = {},
): Promise<string[]> {
  if (!options.everyItem) return erasePersonsShootParts(scope, personIds);
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

/**
 * eraseFromShoot for some persons, from their shoot index: their cards (erased to positions) and
 * the photos those cards govern (photosGovernedByCard), and their photos, withheld ones included.
 * Reads only the persons' index, their items and the photos after their cards, never the rest of
 * the shoot. A photo being placed by one of their cards meanwhile fails its move's condition on
 * the card and is deleted by its own placement (applyGovernor); a second run, after the persons
 * are gone, catches one that a hand gave them, and deletes what is left of their index.
 */
async function erasePersonsShootParts(scope: GalleryScope, personIds: ReadonlySet<string>): Promise<string[]> {
  const items = await shootItemsOf(scope, personIds);
  const cards = items.filter((item): item is ShootCard & Key => item.kind === 'card');
  await eraseCards(scope, cards);
  for (const card of cards) await deleteObjectForGood(card.objectKey);
  const erasedPositions = new Set(cards.map(shootItemPosition));
  const photos = new Map<string, ShootPhoto & Key>();
  for (const item of items) if (item.kind === 'photo') photos.set(item.sk, item);
  for (const card of cards) for (const photo of await photosGovernedByCard(scope, card)) photos.set(photo.sk, photo);
  const isErasedPersons = (photo: ShootPhoto) =>
    [photo.personId, photo.heldFor].some((id) => id !== undefined && personIds.has(id)) ||
    (photo.governor !== undefined && erasedPositions.has(photo.governor));
  const erasedPhotos = [...photos.values()].filter(isErasedPersons);
  for (const photo of erasedPhotos) await deleteShootPhotoForGood(scope, photo, (current) => !isErasedPersons(current));
  // The last pass, once the persons are gone: nothing of their index may stay.
  for (const personId of personIds)
    if (!(await getPerson(scope, personId, { consistent: true }))) await deleteShootIndexOf(scope, personId);
  return [...cards, ...erasedPhotos].map((item) => item.objectKey);
}
