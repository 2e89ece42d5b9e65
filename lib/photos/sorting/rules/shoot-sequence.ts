import { createHash } from 'node:crypto';
import { isAccessCodeShaped } from '#lib/persons/rules/access-codes';

/**
 * The keyframe rule of a shoot: per camera, in capture order, a camera card (a photo showing a
 * person's access code as a QR code) assigns the photos after it to that person, until the
 * next card. Photos are placed one at a time, in whatever order their uploads arrive, so the
 * rule is kept as a "governing card" per photo: the latest card before it. A later-arriving
 * card only ever replaces a photo's governor by a later one, so the result does not depend on
 * the order of arrival (docs/photos.md#sorting-at-ingest).
 */

/** Why a photo of the shoot belongs to nobody. */
export type UnassignedReason =
  /** No card before it on its camera. */
  | 'before_first_card'
  /** The card before it shows a code the gallery does not have, or more than one code. */
  | 'unknown_code'
  /** The photo has no capture time, so its place in the sequence is unknown. */
  | 'no_capture_time'
  /** The file is not an image that could be decoded. */
  | 'unreadable'
  /** The file is larger than any camera's photo (MAX_PHOTO_OBJECT_BYTES): it was not read. */
  | 'too_large'
  /** Withheld for review: no face in it is the card's person's (lib/faces/rules/second-opinion.ts). */
  | 'face_mismatch'
  /** Withheld for review: its faces neither clearly match the card's person nor clearly differ. */
  | 'face_uncertain'
  /** Withheld for review: the card's person has a reference face, but the photo shows no face to compare with. */
  | 'no_face'
  /** Reviewed by hand and found to be nobody's (a test shot, a passer-by): it leaves the review queue. */
  | 'dismissed';

/** The reasons a photo is withheld rather than merely unassigned: it has a card's person, whom it waits for. */
export const WITHHELD_REASONS: readonly UnassignedReason[] = ['face_mismatch', 'face_uncertain', 'no_face'];

/**
 * What a photo's decoded QR/Data Matrix texts make of it: a card showing one access code, a
 * card showing several (which person it means is unknown), or no card (texts that are not
 * code-shaped, such as a URL on a T-shirt, are not cards).
 */
export type CardReading = { kind: 'card'; code: string } | { kind: 'ambiguous_card' } | { kind: 'photo' };

export function readCard(texts: readonly string[]): CardReading {
  const codes = new Set(texts.map((text) => text.trim().toUpperCase()).filter(isAccessCodeShaped));
  if (codes.size === 0) return { kind: 'photo' };
  if (codes.size > 1) return { kind: 'ambiguous_card' };
  return { kind: 'card', code: [...codes][0]! };
}

/** Photos whose camera nobody knows share one sequence. */
export const UNKNOWN_CAMERA = 'unknown camera';

/** A short, key-safe name of a camera's sequence (camera names may hold any character). */
export function cameraSequenceId(camera: string | null): string {
  return createHash('sha256')
    .update(camera ?? UNKNOWN_CAMERA)
    .digest('hex')
    .slice(0, 16);
}

/**
 * A photo's place in its camera's sequence: capture time, then file name (cameras number their
 * files, which orders a burst within one millisecond), then photo ID, so that no two differ.
 * Capture times are fixed-width ISO strings, so the places sort as strings.
 */
export function sequencePosition(capturedAt: string, fileName: string, photoId: string): string {
  return `${capturedAt}|${fileName}|${photoId}`;
}

/**
 * A governor beats every card: a photo assigned by hand keeps that assignment whatever cards
 * arrive later (and a later assignment by hand beats an earlier one).
 */
export function manualGovernor(assignedAtIso: string): string {
  return `~manual|${assignedAtIso}`;
}

/**
 * The governor of a photo no card governs, once the faces had their say on it: beaten by every
 * card and every assignment by hand (`!` sorts before digits and `~`).
 */
export const NO_CARD_GOVERNOR = '!no-card';

/** Whether a governor is a camera card's position (not a hand's, not the no-card one). */
export function isCardGovernor(governor: string): boolean {
  return !governor.startsWith('~') && governor !== NO_CARD_GOVERNOR;
}

/** Whether `candidate` may replace a photo's current governor (none: anything may). */
export function supersedes(candidate: string, current: string | undefined): boolean {
  return current === undefined || candidate > current;
}

/** One photo of a camera's sequence, as the pure rule sees it. */
export interface SequencedShot {
  position: string;
  card?: { personId: string | null };
}

/**
 * The whole rule at once, for one camera's shots in any order: each non-card shot's person
 * (null: unassigned) and reason. Ingest places photos one by one instead (lib/photos/); this is
 * the reference its result must equal.
 */
export function assignSequence(
  shots: readonly SequencedShot[],
): Map<string, { personId: string | null; reason?: UnassignedReason }> {
  const result = new Map<string, { personId: string | null; reason?: UnassignedReason }>();
  let governing: { personId: string | null } | undefined;
  for (const shot of [...shots].sort((a, b) => (a.position < b.position ? -1 : a.position > b.position ? 1 : 0))) {
    if (shot.card) {
      governing = shot.card;
      continue;
    }
    if (!governing) result.set(shot.position, { personId: null, reason: 'before_first_card' });
    else if (governing.personId === null) result.set(shot.position, { personId: null, reason: 'unknown_code' });
    else result.set(shot.position, { personId: governing.personId });
  }
  return result;
}
