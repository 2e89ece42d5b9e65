import { retryWithBackoff } from '#lib/platform/backoff';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { getPerson } from '#lib/persons/store/persons';
import type { FaceOpinion } from '#lib/faces/second-opinion';
import { REJECTING_PHOTOS } from '#lib/faces/rules/second-opinion';
import { forgetCandidatesWithoutFaces } from '#lib/photos/sorting/forget-face-candidates';
import { type UnassignedReason, supersedes } from '#lib/photos/sorting/rules/shoot-sequence';
import {
  type Key,
  type ShootPhoto,
  type ShotState,
  deleteShootPhoto,
  firstPhotosAfterCard,
  getShootItem,
  getShootPhoto,
  moveShootPhoto,
} from '#lib/photos/sorting/store/shoot-photos';

/** The bucket is reached only to delete an erased person's photo: the review commands run without MEDIA_BUCKET. */
const shootObjects = () => import('#lib/photos/sorting/adapters/shoot-thumbnails');

/** Whose a photo's governor makes it: a person's, or nobody's for a reason. */
export type PhotoTarget = { personId: string } | { reason: UnassignedReason };

/** A photo's governor: a card's position (with the card's key, which must not be erased meanwhile), a hand's or the no-card one. */
export interface Governor {
  position: string;
  card?: Key;
}

/** What became of the photo: its state once governed (or as the later governor left it), or missing or erased. */
export type GovernorOutcome =
  { outcome: 'applied' | 'superseded'; state: ShotState } | { outcome: 'missing' | 'erased' };

/** Another placement changed the photo or a person's photo count between the read and the write. */
class PlacementRaced extends Error {}

/** Concurrent placements of one camera's photos settle within a few rounds; ten is far beyond that. */
const PLACEMENT_ROUNDS = { attempts: 10, baseDelayMs: 10, maxDelayMs: 400 };

/**
 * Makes `governor` the photo's governor and the photo `target`'s, as the faces see it
 * (`opinion`: withheld from a card's person it does not show, or filled in where no card
 * gives it to anyone), unless a later governor got there first (shoot-sequence.ts:
 * supersedes). The move is conditional on what was read, so concurrent placements settle on
 * the latest governor whatever their order: a placement that lost a race reads again. A
 * target person that no longer exists leaves the photo unassigned; a governing card that was
 * erased deletes the photo, object and all (docs/photos.md#erasure-and-the-sequence). Face
 * candidates it wrote are checked against the reference faces once written, and those whose
 * face went meanwhile are taken out (docs/photos.md#face-candidates-after-a-face-goes).
 */
export function applyGovernor(
  scope: GalleryScope,
  key: Key,
  governor: Governor,
  target: PhotoTarget,
  opinion?: FaceOpinion,
): Promise<GovernorOutcome> {
  let reviewed: Promise<ShotState> | undefined;
  let round = 0;
  return retryWithBackoff(
    async (): Promise<GovernorOutcome> => {
      round += 1;
      const shot = await getShootPhoto(key);
      if (!shot) return { outcome: 'missing' };
      if (!supersedes(governor.position, shot.governor)) return { outcome: 'superseded', state: shot };
      // The caller has just read the card; the move's condition on it catches an erasure since, and a later round reads it.
      if (governor.card && round > 1 && (await getShootItem(governor.card))?.kind !== 'card') {
        await deleteErasedPersonsPhoto(scope, shot, governor.position);
        return { outcome: 'erased' };
      }
      const card = governor.card;
      reviewed ??= stateOf(
        target,
        opinion,
        card ? () => firstPhotosAfterCard(scope, card, REJECTING_PHOTOS) : undefined,
      );
      let to = await reviewed;
      const toPerson = to.personId ? await getPerson(scope, to.personId) : undefined;
      if (to.personId && !toPerson) to = { reason: 'reason' in target ? target.reason : 'unknown_code' };
      const fromPerson =
        shot.personId && shot.personId !== toPerson?.personId ? await getPerson(scope, shot.personId) : undefined;
      if (!(await moveShootPhoto(scope, shot, governor.position, to, { fromPerson, toPerson }, governor.card)))
        throw new PlacementRaced();
      // Written, then verified: a face deleted after the opinion read it, and swept before this write, goes now.
      if (to.candidates?.length) await forgetCandidatesWithoutFaces(scope, key, to.candidates);
      return { outcome: 'applied', state: to };
    },
    (error) => error instanceof PlacementRaced,
    PLACEMENT_ROUNDS,
  ).catch((error: unknown) => {
    if (error instanceof PlacementRaced) throw new Error('A shoot photo kept changing while it was being assigned');
    throw error;
  });
}

/** The state a target comes to once the faces had their say (none: as the target says). */
async function stateOf(
  target: PhotoTarget,
  opinion: FaceOpinion | undefined,
  firstPhotosOfCard: (() => Promise<string[]>) | undefined,
): Promise<ShotState> {
  if ('personId' in target) {
    const verdict = await opinion?.onCard(target.personId, firstPhotosOfCard);
    if (verdict?.kind === 'agree') return { personId: target.personId, faceBox: verdict.face };
    if (verdict?.kind !== 'withhold') return { personId: target.personId };
    return { reason: verdict.reason, heldFor: target.personId, candidates: verdict.candidates };
  }
  const fill = await opinion?.withoutCard();
  if (fill?.fillFor)
    return {
      personId: fill.fillFor.personId,
      assignedBy: 'face_match',
      candidates: fill.candidates,
      ...(fill.fillFace ? { faceBox: fill.fillFace } : {}),
    };
  return { reason: target.reason, ...(fill && fill.candidates.length > 0 ? { candidates: fill.candidates } : {}) };
}

/**
 * Deletes a photo the erased card at `erasedCard` governs: its item (taking it from whoever has
 * it) and every version of its object, unless a later card or a hand has taken it meanwhile.
 */
export function deleteErasedPersonsPhoto(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  erasedCard: string,
): Promise<void> {
  return deleteShootPhotoForGood(
    scope,
    shot,
    (current) => current.governor !== undefined && current.governor > erasedCard,
  );
}

/**
 * Deletes a shoot photo for good: its item (taking it from whoever has it, off the statistics)
 * and every version of its object, unless `keep` says its current state must stay. Read again
 * until the delete holds.
 */
export async function deleteShootPhotoForGood(
  scope: GalleryScope,
  shot: ShootPhoto & Key,
  keep: (current: ShootPhoto) => boolean = () => false,
): Promise<void> {
  const taken = await retryWithBackoff(
    async () => {
      const current = await getShootPhoto({ pk: shot.pk, sk: shot.sk });
      if (!current) return false;
      if (keep(current)) return true;
      const person = current.personId ? await getPerson(scope, current.personId) : undefined;
      if (!(await deleteShootPhoto(scope, current, person))) throw new PlacementRaced();
      return false;
    },
    (error) => error instanceof PlacementRaced,
    PLACEMENT_ROUNDS,
  );
  if (!taken) await (await shootObjects()).deleteShootObjectForGood(shot.objectKey);
}
