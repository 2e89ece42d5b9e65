import { nowIso } from '#lib/platform/clock';
import { type StoredObjectVersion, deleteObjectVersions, listObjectVersions } from '#lib/platform/media-bucket';
import { galleryExportPrefixes, hrExportObjectKey, portraitCropPrefix } from '#lib/platform/media-keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { mapWithConcurrency } from '#lib/platform/concurrency';
import {
  type HrExportHolding,
  deleteHrExportHoldings,
  holdingsOfPerson,
  listHrExportsOfGallery,
  markHrExportErased,
} from '#lib/hr-exports/store/hr-exports';

/**
 * What erasure removes of the HR exports (docs/hr-export.md#erasure): every export that holds
 * one of the persons (its ZIP, every version, and its record marked erased), the persons' holding
 * items, and the cached crops of the persons' photos. Planned first, so that a dry run reports
 * what a run removes. A gallery's erasure leaves the holding items to their TTL (at most
 * HR_EXPORT_RECORD_DAYS): they name only a person ID and an export, both erased.
 */
export interface HrExportErasure {
  exportIds: string[];
  holdings: HrExportHolding[];
  objectVersions: StoredObjectVersion[];
  cropVersions: StoredObjectVersion[];
}

/** Persons whose holdings are read at once. */
const HOLDINGS_READ_AT_ONCE = 8;

/**
 * The exports holding any of `personIds`, and those being built, which may come to hold them
 * (for `'gallery'`, every export of the gallery), and the persons' (or the gallery's) cached crops.
 */
export async function planHrExportErasure(
  scope: GalleryScope,
  persons: ReadonlySet<string> | 'gallery',
): Promise<HrExportErasure> {
  // The gallery's exports of the last HR_EXPORT_RECORD_DAYS: a few small items.
  const exports = await listHrExportsOfGallery(scope);
  const holdings =
    persons === 'gallery'
      ? []
      : (
          await mapWithConcurrency([...persons], HOLDINGS_READ_AT_ONCE, (personId) => holdingsOfPerson(scope, personId))
        ).flat();
  const held = new Set(holdings.map((holding) => holding.exportId));
  // An export being built may come to hold the persons (it records them only as it goes): it goes too.
  const mayHold = (exportId: string, status: string, listedPersonIds: string[]) =>
    status === 'queued' ||
    status === 'running' ||
    // A failed build's holdings name a ZIP that was never finished (its upload aborted).
    (status === 'ready' && held.has(exportId)) ||
    (persons !== 'gallery' && listedPersonIds.some((personId) => persons.has(personId)));
  const erasable = exports.filter(
    ({ hrExport, listedPersonIds }) =>
      hrExport.status !== 'erased' &&
      (persons === 'gallery' || mayHold(hrExport.exportId, hrExport.status, listedPersonIds)),
  );
  const prefixes = galleryExportPrefixes(scope.tenantId, scope.token);
  const objectVersions =
    persons === 'gallery'
      ? await listObjectVersions(prefixes.hrExports)
      : (
          await Promise.all(
            erasable.map(({ hrExport }) =>
              listObjectVersions(hrExportObjectKey(scope.tenantId, scope.token, hrExport.exportId)),
            ),
          )
        ).flat();
  const cropVersions =
    persons === 'gallery'
      ? await listObjectVersions(prefixes.portraitCrops)
      : (
          await Promise.all(
            [...persons].map((personId) => listObjectVersions(portraitCropPrefix({ ...scope, personId }))),
          )
        ).flat();
  return { exportIds: erasable.map(({ hrExport }) => hrExport.exportId), holdings, objectVersions, cropVersions };
}

/**
 * Carries a plan out: the records first (a build still running then finds its export erased and
 * deletes what it wrote), then the persons' holdings, then the objects.
 */
export async function eraseHrExports(scope: GalleryScope, plan: HrExportErasure): Promise<void> {
  for (const exportId of plan.exportIds) await markHrExportErased(scope, exportId, nowIso());
  await deleteHrExportHoldings(scope, plan.holdings);
  await deleteObjectVersions([...plan.objectVersions, ...plan.cropVersions]);
}
