import { nowIso } from '#lib/platform/clock';
import { type StoredObjectVersion, deleteObjectVersions, listObjectVersions } from '#lib/platform/media-bucket';
import { galleryExportPrefixes, hrExportObjectKey, portraitCropPrefix } from '#lib/platform/media-keys';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { listHrExportsOfGallery, markHrExportErased } from '#lib/hr-exports/store/hr-exports';

/**
 * What erasure removes of the HR exports (docs/hr-export.md#erasure): every export that holds
 * one of the persons (its ZIP, every version, and its record marked erased), and the cached
 * crops of the persons' photos. Planned first, so that a dry run reports what a run removes.
 */
export interface HrExportErasure {
  exportIds: string[];
  objectVersions: StoredObjectVersion[];
  cropVersions: StoredObjectVersion[];
}

/**
 * The exports holding any of `personIds`, and those being built, which may come to hold them
 * (for `'gallery'`, every export of the gallery), and the persons' (or the gallery's) cached crops.
 */
export async function planHrExportErasure(
  scope: GalleryScope,
  persons: ReadonlySet<string> | 'gallery',
): Promise<HrExportErasure> {
  const holdings = await listHrExportsOfGallery(scope);
  // An export being built may come to hold the persons (it lists them only once ready): it goes too.
  const mayHold = (status: string, personIds: string[]) =>
    status === 'queued' ||
    status === 'running' ||
    (persons !== 'gallery' && personIds.some((personId) => persons.has(personId)));
  const erasable = holdings.filter(
    ({ hrExport, personIds }) =>
      hrExport.status !== 'erased' && (persons === 'gallery' || mayHold(hrExport.status, personIds)),
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
  return { exportIds: erasable.map(({ hrExport }) => hrExport.exportId), objectVersions, cropVersions };
}

/**
 * Carries a plan out: the records first (a build still running then finds its export erased and
 * deletes what it wrote), then the objects.
 */
export async function eraseHrExports(scope: GalleryScope, plan: HrExportErasure): Promise<void> {
  for (const exportId of plan.exportIds) await markHrExportErased(scope, exportId, nowIso());
  await deleteObjectVersions([...plan.objectVersions, ...plan.cropVersions]);
}
