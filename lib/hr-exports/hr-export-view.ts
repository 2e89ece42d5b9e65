import type { ResultMembers } from '#lib/platform/schema-parts';
import type { HrExport } from '#lib/hr-exports/rules/hr-export-model';
import type { HrExportAnswer } from '#lib/hr-exports/hr-export-schemas';

/** An export's members in the answers. */
export type HrExportMembers = ResultMembers<typeof HrExportAnswer>;

/** An export as the answers show it, without a download URL. */
export function hrExportView(hrExport: HrExport): HrExportMembers {
  const { exportId, galleryToken, status, shootingDayId, size, createdAt, updatedAt, report, reason } = hrExport;
  return {
    galleryToken,
    exportId,
    status,
    shootingDayId,
    size,
    createdAt,
    updatedAt,
    ...(status === 'ready' && hrExport.objectExpiresAt ? { expiresAt: hrExport.objectExpiresAt } : {}),
    ...(report ? { report } : {}),
    ...(reason ? { reason } : {}),
  };
}
