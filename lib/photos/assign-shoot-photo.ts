import { retryWithBackoff } from '#lib/platform/backoff';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { getPerson } from '#lib/persons/store/persons';
import { type UnassignedReason, supersedes } from '#lib/photos/rules/shoot-sequence';
import { type Key, getShootPhoto, moveShootPhoto } from '#lib/photos/store/shoot-photos';

/** Whose a photo becomes: a person's, or nobody's for a reason. */
export type PhotoTarget = { personId: string } | { reason: UnassignedReason };

export type GovernorOutcome = 'applied' | 'superseded' | 'missing';

/** Another placement changed the photo or a person's photo count between the read and the write. */
class PlacementRaced extends Error {}

/** Concurrent placements of one camera's photos settle within a few rounds; ten is far beyond that. */
const PLACEMENT_ROUNDS = { attempts: 10, baseDelayMs: 10, maxDelayMs: 400 };

/**
 * Makes `governor` the photo's governor and the photo `target`'s, unless a later governor got
 * there first (shoot-sequence.ts: supersedes). The move is conditional on what was read, so
 * concurrent placements settle on the latest governor whatever their order: a placement that
 * lost a race reads again. A target person that no longer exists (erased) leaves the photo
 * unassigned.
 */
export function applyGovernor(scope: GalleryScope, key: Key, governor: string, target: PhotoTarget): Promise<GovernorOutcome> {
  return retryWithBackoff(
    async () => {
      const shot = await getShootPhoto(key);
      if (!shot) return 'missing';
      if (!supersedes(governor, shot.governor)) return 'superseded';
      const toPerson = 'personId' in target ? await getPerson(scope, target.personId) : undefined;
      const reason: UnassignedReason | undefined = toPerson ? undefined : 'reason' in target ? target.reason : 'unknown_code';
      const fromPerson = shot.personId && shot.personId !== toPerson?.personId ? await getPerson(scope, shot.personId) : undefined;
      if (!(await moveShootPhoto(scope, shot, governor, { fromPerson, toPerson, reason }))) throw new PlacementRaced();
      return 'applied';
    },
    (error) => error instanceof PlacementRaced,
    PLACEMENT_ROUNDS,
  ).catch((error: unknown) => {
    if (error instanceof PlacementRaced) throw new Error('A shoot photo kept changing while it was being assigned');
    throw error;
  });
}
