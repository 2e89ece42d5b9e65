import type { GalleryStats } from '#lib/galleries/gallery-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import { galleryStatistics } from '#lib/galleries/rules/gallery-stats';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';

/** Statistics of a gallery: one Query of its configuration partition, whatever its number of persons (none when the pipeline read it already, `loaded`). */
export async function getGalleryStats(
  tenant: Tenant,
  token: string | undefined,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof GalleryStats>> {
  return galleryStatistics(await loadGroupShootGallery(tenant.tenantId, token, loaded));
}
