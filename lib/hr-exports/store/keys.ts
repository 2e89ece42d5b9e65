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
  /**
   * The ready exports whose ZIP holds one person: one holding item per export, in the person's own
   * partition, so that erasing the person reads only theirs. Expires with the export's record.
   */
  hrExportHoldingsOfPerson: (tenantId: string, token: string, personId: string) =>
    `T#${tenantId}#G#${token}#HREXPORTHOLDS#${personId}`,
  hrExportHolding: (tenantId: string, token: string, personId: string, exportId: string) => ({
    pk: `T#${tenantId}#G#${token}#HREXPORTHOLDS#${personId}`,
    sk: `${HR_EXPORT_ITEM_PREFIX}${exportId}`,
  }),
  /**
   * The file names one build of an export has given (and the HR employee IDs it keeps declared IDs
   * off), one item per name: a build's own partition, so a retried build starts afresh.
   */
  hrExportFileNamesOfBuild: (tenantId: string, token: string, buildId: string) =>
    `T#${tenantId}#G#${token}#HREXPORTNAMES#${buildId}`,
  hrExportFileName: (tenantId: string, token: string, buildId: string, name: string) => ({
    pk: `T#${tenantId}#G#${token}#HREXPORTNAMES#${buildId}`,
    sk: `FILE#${name}`,
  }),
  hrExportReservedName: (tenantId: string, token: string, buildId: string, name: string) => ({
    pk: `T#${tenantId}#G#${token}#HREXPORTNAMES#${buildId}`,
    sk: `HR#${name}`,
  }),
} as const;
