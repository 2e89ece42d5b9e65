import type { ShootingDays } from '#lib/galleries/gallery-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import { integrationShootingDay, sortShootingDays } from '#lib/galleries/rules/gallery-views';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';

/** Every shooting day with capacity and booked count, by date and start time. `loaded`: the gallery the pipeline read already. */
export async function listShootingDays(
  tenant: Tenant,
  token: string | undefined,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof ShootingDays>> {
  const { gallery, shootingDays } = await loadGroupShootGallery(tenant.tenantId, token, loaded);
  return { galleryToken: gallery.token, shootingDays: sortShootingDays(shootingDays).map(integrationShootingDay) };
}
