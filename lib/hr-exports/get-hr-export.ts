import { now } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import type { Tenant } from '#lib/tenants/store/tenants';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { HR_EXPORT_DOWNLOAD_URL_SECONDS, isHrExportIdShaped } from '#lib/hr-exports/rules/hr-export-model';
import { getHrExport } from '#lib/hr-exports/store/hr-exports';
import { type HrExportMembers, hrExportView } from '#lib/hr-exports/hr-export-view';

/** The S3 presigner, loaded only when a ready export is asked for: most reads are of exports still being built. */
const downloadUrl = () => import('#lib/hr-exports/adapters/download-url');

/**
 * The state of one of the gallery's exports; a ready one with a download URL valid
 * HR_EXPORT_DOWNLOAD_URL_SECONDS (never past the ZIP's own expiry). hr_export_not_found for an
 * ID the gallery does not have (another gallery's or tenant's included).
 */
export async function readHrExport(
  tenant: Tenant,
  token: string | undefined,
  exportId: string | undefined,
): Promise<HrExportMembers> {
  const { gallery } = await loadGroupShootGallery(tenant.tenantId, token);
  const hrExport =
    exportId && isHrExportIdShaped(exportId)
      ? await getHrExport({ tenantId: tenant.tenantId, token: gallery.token }, exportId)
      : undefined;
  if (!hrExport) throw new DomainError('hr_export_not_found');
  const view = hrExportView(hrExport);
  if (hrExport.status !== 'ready' || !hrExport.objectKey || !hrExport.objectExpiresAt) return view;
  const secondsLeft = Math.floor((Date.parse(hrExport.objectExpiresAt) - now()) / 1000);
  if (secondsLeft <= 0) return view;
  const seconds = Math.min(HR_EXPORT_DOWNLOAD_URL_SECONDS, secondsLeft);
  // Whole seconds, as the signature counts them.
  const expiresAt = new Date((Math.floor(now() / 1000) + seconds) * 1000).toISOString();
  return {
    ...view,
    downloadUrl: await (await downloadUrl()).presignExportDownload(hrExport.objectKey, seconds),
    downloadUrlExpiresAt: expiresAt,
  };
}
