import { nowIso } from '#lib/platform/clock';
import { getPerson } from '#lib/persons/store/persons';
import { applyGovernor } from '#lib/photos/assign-shoot-photo';
import { type ShootItem, type ShootPhoto, listShootItems } from '#lib/photos/store/shoot-photos';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { manualGovernor } from '#lib/photos/rules/shoot-sequence';

/**
 * The photographer's review of a sorted shoot (npm run admin -- photo unassigned|assign): the
 * photos that belong to nobody, and assigning a photo by hand, which no card changes afterwards.
 */

export type UnassignedShootPhoto = Pick<ShootPhoto, 'photoId' | 'path' | 'camera' | 'capturedAt' | 'reason'>;

/** The shoot's photos that belong to nobody, by camera and capture time. */
export async function listUnassignedShootPhotos(scope: GalleryScope): Promise<UnassignedShootPhoto[]> {
  const items = await listShootItems(scope);
  return items
    .filter((item): item is ShootItem & ShootPhoto => item.kind === 'photo' && !item.personId)
    .map(({ photoId, path, camera, capturedAt, reason }) => ({ photoId, path, camera, capturedAt, reason }))
    .sort((a, b) => (a.camera ?? '').localeCompare(b.camera ?? '') || (a.capturedAt ?? '~').localeCompare(b.capturedAt ?? '~') || a.path.localeCompare(b.path));
}

/** Gives a shoot photo to a person by hand; cards never take it back. */
export async function assignShootPhotoByHand(scope: GalleryScope, photoId: string, personId: string): Promise<'assigned' | 'unknown_photo' | 'card' | 'unknown_person'> {
  const photo = (await listShootItems(scope)).find((item) => item.photoId === photoId);
  if (!photo) return 'unknown_photo';
  if (photo.kind === 'card') return 'card';
  if (!(await getPerson(scope, personId))) return 'unknown_person';
  await applyGovernor(scope, { pk: photo.pk, sk: photo.sk }, manualGovernor(nowIso()), { personId });
  return 'assigned';
}
