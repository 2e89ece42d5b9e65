/**
 * The tenant and gallery an option names, or a NotFoundError (exit code 1). These read the table:
 * import this module only after the environment has been checked, as lib/platform/table/client.ts
 * throws on import without TABLE_NAME.
 */
import { NotFoundError } from './cli-errors';
import { type OptionValues, galleryToken, tenantSlug } from './options';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { type Tenant, getTenantBySlug } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';

/** The tenant named by a slug option (`--tenant` by default), or a not-found error. */
export async function findTenant(values: OptionValues, option = 'tenant'): Promise<Tenant> {
  const slug = tenantSlug(values, option);
  const tenant = await getTenantBySlug(slug);
  if (!tenant) throw new NotFoundError(`No tenant with slug "${slug}"`);
  return tenant;
}

/** The tenant of `--tenant` and the configuration of its gallery `--gallery`. */
export async function findGallery(
  values: OptionValues,
): Promise<{ tenant: Tenant; configuration: GalleryConfiguration }> {
  const token = galleryToken(values);
  const tenant = await findTenant(values);
  const configuration = await getGalleryConfiguration(tenant.tenantId, token);
  if (!configuration) throw new NotFoundError(`Tenant "${tenant.slug}" has no gallery with token "${token}"`);
  return { tenant, configuration };
}
