import { nowIso } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { loadGroupShootGallery } from '#lib/galleries/group-shoot-gallery';
import { DEFAULT_PORTRAIT_SIZE, type HrExport, newHrExportId } from '#lib/hr-exports/rules/hr-export-model';
import { type HrExportAnswer, parseHrExportRequest } from '#lib/hr-exports/hr-export-schemas';
import { putQueuedHrExport } from '#lib/hr-exports/store/hr-exports';
import { hrExportQueue } from '#lib/hr-exports/adapters/hr-export-queue';
// The view alone: get-hr-export's module carries the S3 presigner, which a new export never needs.
import { hrExportView } from '#lib/hr-exports/hr-export-view';

/**
 * Queues an HR export of one of the tenant's group-shoot galleries, or of one of its shooting
 * days: the record, then the queue message the build (functions/hr-exports/build-hr-export.ts)
 * runs from. A gallery that does not ask for the HR consent is refused with
 * hr_export_consent_not_asked: its participants never agreed to their photos going to their
 * employer, and the main consent does not cover it (docs/hr-export.md#consent).
 */
export async function createHrExport(
  tenant: Tenant,
  token: string | undefined,
  body: unknown,
): Promise<ResultMembers<typeof HrExportAnswer>> {
  const { gallery, shootingDays } = await loadGroupShootGallery(tenant.tenantId, token);
  if (!gallery.granularConsents.hrExport) throw new DomainError('hr_export_consent_not_asked');
  const request = parseHrExportRequest(body);
  if (request.shootingDayId !== undefined && !shootingDays.some((day) => day.id === request.shootingDayId))
    throw new DomainError('unknown_shooting_day');
  const at = nowIso();
  const hrExport: HrExport = {
    exportId: newHrExportId(),
    tenantId: tenant.tenantId,
    galleryToken: gallery.token,
    status: 'queued',
    shootingDayId: request.shootingDayId ?? null,
    size: request.size ?? DEFAULT_PORTRAIT_SIZE,
    createdAt: at,
    updatedAt: at,
  };
  await putQueuedHrExport(hrExport);
  await hrExportQueue().send({ tenantId: tenant.tenantId, token: gallery.token, exportId: hrExport.exportId });
  return hrExportView(hrExport);
}
