import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import {
  type Key,
  type ShootPhoto,
  getShootPhoto,
  listShootItems,
  shootItemsNaming,
} from '#lib/photos/sorting/store/shoot-photos';
import { replaceFaceCandidates } from '#lib/photos/sorting/store/face-candidates';
import type { FaceCandidate } from '#lib/faces/rules/second-opinion';
import { getReferenceFace } from '#lib/faces/store/reference-faces';

/** Whose faces to forget: some persons, or everyone (face matching switched off, selfies gone). */
export type ForgottenFaces = ReadonlySet<string> | 'all';

/** A photo whose candidates a placement keeps replacing is read again; a few rounds settle it. */
const ROUNDS = 10;

const isForgotten = (forget: ForgottenFaces, personId: string) => forget === 'all' || forget.has(personId);

const naming = (photo: ShootPhoto, forget: ForgottenFaces) =>
  (photo.candidates ?? []).some((candidate) => isForgotten(forget, candidate.personId));

/**
 * Takes the persons `forget` names (everyone with 'all') out of the face candidates of every
 * shoot photo (withheld, unassigned or filled in), so that the review and the studio console
 * show nothing of them. Each photo changes on condition that its candidates are still as read,
 * and is read again when a placement replaced them meanwhile. Safe to run again: a photo that
 * names none of them is only read. Callers delete the reference faces first, so that no new
 * opinion names them (docs/photos.md#face-candidates-after-a-face-goes). Some persons' photos are
 * found by their shoot index (`CAND#`), not by reading the whole shoot; everyone's by the whole
 * shoot. Answers how many photos changed.
 */
export async function forgetFaceCandidates(scope: GalleryScope, forget: ForgottenFaces): Promise<number> {
  if (forget !== 'all' && forget.size === 0) return 0;
  const photos = (
    forget === 'all' ? await listShootItems(scope) : await shootItemsNaming(scope, forget, ['CAND'])
  ).filter((item): item is ShootPhoto & Key => item.kind === 'photo' && naming(item, forget));
  let changed = 0;
  for (const read of photos) if (await forgetOnPhoto(scope, read, forget)) changed += 1;
  return changed;
}

/**
 * The other half of forgetting, run by a placement once it has written a photo's candidates:
 * each candidate's reference face is read again (strongly consistent), and those that are gone
 * are taken out of the photo. A face deleted after the placement's opinion read it was deleted
 * before this read, so either the forgetting read the photo after the write and took the person
 * out, or this read sees the face gone (docs/photos.md#face-candidates-after-a-face-goes).
 */
export async function forgetCandidatesWithoutFaces(
  scope: GalleryScope,
  key: Key,
  written: readonly FaceCandidate[],
): Promise<void> {
  const gone = new Set<string>();
  for (const { personId } of written) if (!(await getReferenceFace(scope, personId))) gone.add(personId);
  if (gone.size === 0) return;
  const photo = await getShootPhoto(key);
  if (photo) await forgetOnPhoto(scope, photo, gone);
}

/** Takes the forgotten persons out of one photo's candidates, read again while a placement replaces them; true when it changed. */
async function forgetOnPhoto(scope: GalleryScope, read: ShootPhoto & Key, forget: ForgottenFaces): Promise<boolean> {
  let photo: (ShootPhoto & Key) | undefined = read;
  for (let round = 0; photo && naming(photo, forget); round += 1) {
    if (round === ROUNDS) throw new Error('The face candidates of a shoot photo kept changing while being forgotten');
    const previous = photo.candidates ?? [];
    const remaining = previous.filter((candidate) => !isForgotten(forget, candidate.personId));
    if (await replaceFaceCandidates(scope, photo, previous, remaining)) return true;
    photo = await getShootPhoto({ pk: photo.pk, sk: photo.sk });
  }
  return false;
}
