import type { UnassignedReason } from '#lib/photos/sorting/rules/shoot-sequence';

/**
 * The studio's review queue (docs/studio-console.md#the-review-queue): the shoot photos that
 * belong to nobody (withheld for a card's person, or unassigned) and were not dismissed by hand,
 * in the order the console shows them.
 */

/** Whether a shoot photo in this state waits for review. */
export function waitsForReview(state: { personId?: string; reason?: UnassignedReason }): boolean {
  return state.personId === undefined && state.reason !== 'dismissed';
}

/** Whether a shoot photo was dismissed by hand as nobody's (counted as `photosDismissed`). */
export function isDismissed(state: { personId?: string; reason?: UnassignedReason }): boolean {
  return state.personId === undefined && state.reason === 'dismissed';
}

/**
 * A photo's place in the queue, as a string that sorts as the console shows it: by camera, then
 * capture time (photos without one after every time: `~`), then path, then photo ID (no two alike).
 */
export function reviewQueuePlace(photo: {
  camera: string | null;
  capturedAt: string | null;
  path: string;
  photoId: string;
}): string {
  return [photo.camera ?? '', photo.capturedAt ?? '~', photo.path, photo.photoId].join('#');
}
