/**
 * HR export jobs of a gallery.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** The sort-key prefix of HR export items. */
export const HR_EXPORT_ITEM_PREFIX = 'HREXPORT#';

export const hrExportKeys = {
  /** A gallery's HR exports (lib/hr-exports/): one item per export job, expiring by TTL. */
  hrExportsOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#HREXPORTS`,
  hrExport: (tenantId: string, token: string, exportId: string) => ({
    pk: `T#${tenantId}#G#${token}#HREXPORTS`,
    sk: `${HR_EXPORT_ITEM_PREFIX}${exportId}`,
  }),
} as const;
