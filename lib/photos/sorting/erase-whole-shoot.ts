import { deleteObjectForGood } from '#lib/platform/media-bucket';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { deleteShootPhotoForGood } from '#lib/photos/sorting/assign-shoot-photo';
import { type Key, type ShootCard, deleteShootItems, eraseCards } from '#lib/photos/sorting/store/shoot-photos';
import { forEachShootPage } from '#lib/photos/sorting/store/shoot-pages';

/** Shoot items read at once when a whole shoot goes (each about 1 KB). */
export const WHOLE_SHOOT_PAGE_SIZE = 100;

/**
 * What erasing every participant of a gallery does to its shoot, a page at a time: the cards
 * showing an erased person's code stay as erased cards (positions without personal data, so that
 * photos arriving later go to nobody), every other card and every photo is deleted, objects and
 * all. `erasable` says whose cards become erased cards (a person left for later, such as the
 * participant of an order still waiting for payment, is not). With `dryRun`, only counts. Answers
 * how many cards and photos it erased (or would): erased cards already are not counted.
 */
export async function eraseWholeShoot(
  scope: GalleryScope,
  erasable: (personId: string) => boolean,
  { dryRun = false } = {},
): Promise<number> {
  let erased = 0;
  await forEachShootPage(scope, WHOLE_SHOOT_PAGE_SIZE, async (items) => {
    const cards = items.filter((item): item is ShootCard & Key => item.kind === 'card');
    erased += cards.length + items.filter((item) => item.kind === 'photo').length;
    if (dryRun) return;
    const personsCards = cards.filter((card) => card.cardPersonId !== null && erasable(card.cardPersonId));
    await eraseCards(scope, personsCards);
    const otherCards = cards.filter((card) => !personsCards.includes(card));
    await deleteShootItems(scope, otherCards);
    for (const card of cards) await deleteObjectForGood(card.objectKey);
    for (const item of items) if (item.kind === 'photo') await deleteShootPhotoForGood(scope, item);
  });
  return erased;
}
