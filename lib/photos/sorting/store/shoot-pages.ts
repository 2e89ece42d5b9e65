import { shootKeys } from '#lib/photos/sorting/store/keys';
import { type ShootItem, fromShootItem } from '#lib/photos/sorting/store/shoot-photos';
import { type PageVisitor, forEachPartitionPage } from '#lib/platform/table/query-pages';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';

/**
 * Every card and photo of the gallery's shoot, `pageSize` at a time and strongly consistent: each
 * page is handed to `visit` before the next is read (erasure of a whole gallery changes and
 * deletes as it goes), so that a large shoot never sits in memory whole.
 */
export function forEachShootPage(scope: GalleryScope, pageSize: number, visit: PageVisitor<ShootItem>): Promise<void> {
  return forEachPartitionPage(
    shootKeys.shootOfGallery(scope.tenantId, scope.token),
    pageSize,
    (items) => visit(items.map(fromShootItem)),
    { ConsistentRead: true },
  );
}
