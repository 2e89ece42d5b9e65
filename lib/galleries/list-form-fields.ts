import type { FormFields } from '#lib/galleries/gallery-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import { enabledFormFields } from '#lib/galleries/rules/gallery-views';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';

/** The enabled check-in form fields in their configured order (name and email are never among them). `loaded`: the gallery the pipeline read already. */
export async function listFormFields(
  tenant: Tenant,
  token: string | undefined,
  loaded?: GalleryConfiguration,
): Promise<ResultMembers<typeof FormFields>> {
  const { gallery, formFields } = await loadGroupShootGallery(tenant.tenantId, token, loaded);
  return { galleryToken: gallery.token, formFields: enabledFormFields(formFields) };
}
