import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type ShootItem, getShootItem } from '#lib/photos/sorting/store/shoot-photos';
import { writeIndexOfStoredItem } from '#lib/photos/sorting/store/shoot-index';
import { forEachShootPage } from '#lib/photos/sorting/store/shoot-pages';

/** What the backfill went through: the shoot's items, and those it wrote index entries and a pointer for. */
export interface ShootIndexBackfill {
  items: number;
  indexed: number;
}

/** Items of the shoot read per page: the backfill holds one page at a time, whatever the shoot's size. */
const PAGE_SIZE = 100;

/** An item a placement keeps changing is read again; a few rounds settle it. */
const ROUNDS = 5;

/**
 * Writes the persons' shoot index entries and the photo-ID pointers of a shoot stored before they
 * existed (npm run admin -- gallery shoot-index), a page of the shoot at a time. Each item's
 * writes are one transaction conditional on the item still naming whom it named when read, so a
 * placement running alongside is never undone (it writes its own entries). Safe to run again:
 * it puts what is there already.
 */
export async function backfillShootIndex(
  scope: GalleryScope,
  { pageSize = PAGE_SIZE }: { pageSize?: number } = {},
): Promise<ShootIndexBackfill> {
  const tally: ShootIndexBackfill = { items: 0, indexed: 0 };
  await forEachShootPage(scope, pageSize, async (items) => {
    for (const item of items) {
      tally.items += 1;
      if (await indexItem(scope, item)) tally.indexed += 1;
    }
  });
  return tally;
}

/** One item's entries and pointer, read again while a placement changes it; false when it has none (an erased card, or gone). */
async function indexItem(scope: GalleryScope, read: ShootItem): Promise<boolean> {
  let item: ShootItem | undefined = read;
  for (let round = 0; item && round < ROUNDS; round += 1) {
    const written = await writeIndexOfStoredItem(scope, item);
    if (written !== false) return written === true;
    item = await getShootItem({ pk: item.pk, sk: item.sk });
  }
  if (item) throw new Error('A shoot item kept changing while its index entries were written');
  return false;
}
