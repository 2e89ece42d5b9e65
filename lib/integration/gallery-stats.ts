import type { GalleryStats, ResultMembers } from '#lib/api-schemas';
import type { Tenant } from '#lib/db/tenants';
import { galleryStatistics } from '#lib/domain/gallery-stats';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';

/** Statistics of a gallery: one Query of its configuration partition, whatever its number of persons. */
export async function getGalleryStats(tenant: Tenant, token: string | undefined): Promise<ResultMembers<typeof GalleryStats>> {
  return galleryStatistics(await loadGroupShootGallery(tenant.tenantId, token));
}
