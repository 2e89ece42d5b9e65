import { nowIso } from '#lib/platform/clock';
import { getPerson } from '#lib/persons/store/persons';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import { applyGovernor } from '#lib/photos/sorting/assign-shoot-photo';
import {
  type Key,
  type ShootCard,
  type ShootItem,
  type ShootPhoto,
  findShootItemOfPhoto,
  listShootItems,
  shootItemPosition,
} from '#lib/photos/sorting/store/shoot-photos';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { isCardGovernor, manualGovernor } from '#lib/photos/sorting/rules/shoot-sequence';

/**
 * The photographer's review of a sorted shoot (npm run admin -- photo review|release|assign|dismiss):
 * the photos withheld by the faces and those that belong to nobody, releasing a withheld photo
 * to its card's person, assigning a photo by hand, and dismissing one as nobody's; no card
 * changes a hand's decision afterwards.
 */

export interface ReviewedShootPhoto extends Pick<ShootPhoto, 'photoId' | 'path' | 'camera' | 'capturedAt' | 'reason'> {
  /** The person its card names, whom a withheld photo waits for. */
  heldFor: string | null;
  /** The card that governs it: its photo ID and path, the code it showed, and whose code that is (null: nobody's, or erased since). */
  card: { photoId: string; path: string; code: string | null; personId: string | null } | null;
  /** The consenting persons its main face resembles most, nearest first (IDs and distances, never a descriptor). */
  candidates: FaceCandidate[];
}

/** The shoot's photos that wait for a review (withheld, or belonging to nobody and not dismissed), by camera and capture time. */
export async function listPhotosForReview(scope: GalleryScope): Promise<ReviewedShootPhoto[]> {
  const items = await listShootItems(scope);
  const cardsByPosition = new Map(
    items
      .filter((item): item is ShootCard & Key => item.kind === 'card')
      .map((card) => [shootItemPosition(card), card]),
  );
  return items
    .filter(
      (item): item is ShootItem & ShootPhoto => item.kind === 'photo' && !item.personId && item.reason !== 'dismissed',
    )
    .map((photo) => {
      const card = photo.governor && isCardGovernor(photo.governor) ? cardsByPosition.get(photo.governor) : undefined;
      return {
        photoId: photo.photoId,
        path: photo.path,
        camera: photo.camera,
        capturedAt: photo.capturedAt,
        reason: photo.reason,
        heldFor: photo.heldFor ?? null,
        card: card ? { photoId: card.photoId, path: card.path, code: card.code, personId: card.cardPersonId } : null,
        candidates: photo.candidates ?? [],
      };
    })
    .sort(
      (a, b) =>
        compareText(a.camera ?? '', b.camera ?? '') ||
        compareText(a.capturedAt ?? '~', b.capturedAt ?? '~') ||
        compareText(a.path, b.path),
    );
}

/** By code point, as the shoot's positions sort: a photo without capture time (`~`) comes after every time, which localeCompare would not do. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export type HandOutcome = 'assigned' | 'dismissed' | 'unknown_photo' | 'card' | 'unknown_person' | 'not_withheld';

/** Gives a shoot photo to a person by hand, over any card and any face; cards never take it back. */
export async function assignShootPhotoByHand(
  scope: GalleryScope,
  photoId: string,
  personId: string,
): Promise<HandOutcome> {
  const photo = await findShootPhoto(scope, photoId);
  if (photo === undefined || photo === 'card') return photo ?? 'unknown_photo';
  if (!(await getPerson(scope, personId))) return 'unknown_person';
  await applyGovernor(scope, { pk: photo.pk, sk: photo.sk }, { position: manualGovernor(nowIso()) }, { personId });
  return 'assigned';
}

/** Delivers a withheld photo to the person its card names, as a hand would: the photographer saw it is theirs. */
export async function releaseWithheldPhoto(scope: GalleryScope, photoId: string): Promise<HandOutcome> {
  const photo = await findShootPhoto(scope, photoId);
  if (photo === undefined || photo === 'card') return photo ?? 'unknown_photo';
  if (!photo.heldFor) return 'not_withheld';
  return assignShootPhotoByHand(scope, photoId, photo.heldFor);
}

/**
 * Decides by hand that a shoot photo is nobody's: taken from whoever has it (withheld or
 * assigned alike), it leaves the review queue, stays among the unassigned photos of the
 * statistics, and no later card or face gives it to anyone; a later assignment by hand still may.
 */
export async function dismissShootPhoto(scope: GalleryScope, photoId: string): Promise<HandOutcome> {
  const photo = await findShootPhoto(scope, photoId);
  if (photo === undefined || photo === 'card') return photo ?? 'unknown_photo';
  await applyGovernor(
    scope,
    { pk: photo.pk, sk: photo.sk },
    { position: manualGovernor(nowIso()) },
    { reason: 'dismissed' },
  );
  return 'dismissed';
}

/** The shoot photo with this ID, by its pointer (two GetItems, whatever the shoot's size); 'card' for a camera card. */
async function findShootPhoto(scope: GalleryScope, photoId: string): Promise<(ShootPhoto & Key) | 'card' | undefined> {
  const item = await findShootItemOfPhoto(scope, photoId);
  if (!item) return undefined;
  return item.kind === 'photo' ? item : 'card';
}
