import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type Key, type ShootPhoto, getShootPhoto, listShootItems } from '#lib/photos/sorting/store/shoot-photos';
import { replaceFaceCandidates } from '#lib/photos/sorting/store/face-candidates';

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
 * opinion names them (docs/photos.md#face-candidates-after-a-face-goes). Answers how many
 * photos changed.
 */
export async function forgetFaceCandidates(scope: GalleryScope, forget: ForgottenFaces): Promise<number> {
  if (forget !== 'all' && forget.size === 0) return 0;
  const photos = (await listShootItems(scope)).filter(
    (item): item is ShootPhoto & Key => item.kind === 'photo' && naming(item, forget),
  );
  let changed = 0;
  for (const read of photos) {
    let photo: (ShootPhoto & Key) | undefined = read;
    for (let round = 0; photo && naming(photo, forget); round += 1) {
      if (round === ROUNDS) throw new Error('The face candidates of a shoot photo kept changing while being forgotten');
      const previous = photo.candidates ?? [];
      const remaining = previous.filter((candidate) => !isForgotten(forget, candidate.personId));
      if (await replaceFaceCandidates(photo, previous, remaining)) {
        changed += 1;
        break;
      }
      photo = await getShootPhoto({ pk: photo.pk, sk: photo.sk });
    }
  }
  return changed;
}
