import type { FaceThresholds } from '#lib/galleries/rules/face-matching';
import { type DetectedFace, type FaceBox, faceDistance, mainFace } from '#lib/faces/rules/face-descriptors';

/**
 * The second opinion from faces on where a shoot photo goes (docs/photos.md#a-second-opinion-from-faces).
 * It can only withhold a photo its card gives to someone, or fill in a photo no card gives to
 * anyone; it never moves a photo from one person to another.
 */

/** A consenting person's reference face, as the rules compare it. */
export interface Reference {
  personId: string;
  descriptor: readonly number[];
}

/** A person the photo's main face resembles, for the review: an ID and a distance, never a descriptor. */
export interface FaceCandidate {
  personId: string;
  distance: number;
}

/** How many candidates a photo keeps for its review. */
export const REVIEW_CANDIDATES = 3;

export type CardVerdict =
  /** A face in the photo matches the card's person: the nearest one, and where it is (for the portrait crop). */
  | { kind: 'agree'; distance: number; face: FaceBox }
  /**
   * No face in it is the card's person: clearly (face_mismatch), not clearly either way
   * (face_uncertain), or no face was found to compare with (no_face).
   */
  | { kind: 'withhold'; reason: 'face_mismatch' | 'face_uncertain' | 'no_face'; distance: number | null };

/**
 * Whether a photo the card gives to a person agrees with that person's reference face. The
 * person counts as shown when any face of the photo is theirs: a portrait may show a colleague
 * in the background, and a group photo many. Withholding only delays a photo, so the grey zone
 * between `match` and `mismatch` is withheld too, under a reason of its own, and so is a photo
 * where the detector found no face: a portrait of someone else, turned away or in poor light,
 * would otherwise pass unjudged.
 */
export function verdictOnCard(
  faces: readonly DetectedFace[],
  reference: Reference,
  thresholds: FaceThresholds,
): CardVerdict {
  if (faces.length === 0) return { kind: 'withhold', reason: 'no_face', distance: null };
  let nearest = faces[0]!;
  let distance = faceDistance(nearest.descriptor, reference.descriptor);
  for (const face of faces.slice(1)) {
    const faceToReference = faceDistance(face.descriptor, reference.descriptor);
    if (faceToReference < distance) [nearest, distance] = [face, faceToReference];
  }
  if (distance <= thresholds.match) return { kind: 'agree', distance, face: nearest.box };
  return { kind: 'withhold', reason: distance >= thresholds.mismatch ? 'face_mismatch' : 'face_uncertain', distance };
}

/** The references nearest the photo's main face, nearest first (empty when it shows no face). */
export function nearestCandidates(
  faces: readonly DetectedFace[],
  references: readonly Reference[],
  count = REVIEW_CANDIDATES,
): FaceCandidate[] {
  const face = mainFace(faces);
  if (!face) return [];
  return references
    .map((reference) => ({
      personId: reference.personId,
      distance: faceDistance(face.descriptor, reference.descriptor),
    }))
    .sort((a, b) => a.distance - b.distance || a.personId.localeCompare(b.personId))
    .slice(0, count);
}

/**
 * The one person a photo no card governs is filled in for: its main face within `fill` of
 * exactly that person's reference, and every other reference at least `margin` further away.
 * A wrong fill-in misdelivers, so this is stricter than agreeing with a card. Undefined: the
 * photo stays unassigned (its candidates go to the review).
 */
export function fillInFor(candidates: readonly FaceCandidate[], thresholds: FaceThresholds): FaceCandidate | undefined {
  const [best, second] = candidates;
  if (!best || best.distance > thresholds.fill) return undefined;
  if (second && second.distance - best.distance < thresholds.margin) return undefined;
  return best;
}

/**
 * What a photo that the person's own card governs says of their unconfirmed reference face (the
 * selfie is only their word; the card is their proof, docs/photos.md#whose-face-the-selfie-shows):
 * `confirms` when its main face is within `match` (the portrait's subject, not a colleague in the
 * background, who may be the very person whose face was uploaded), `contradicts` when it shows
 * faces and every one is `mismatch` or further away, `neither` otherwise (no face, the grey zone,
 * or the face only in the background).
 */
export function evidenceOfCardPhoto(
  faces: readonly DetectedFace[],
  reference: Reference,
  thresholds: FaceThresholds,
): { kind: 'confirms'; distance: number; face: FaceBox } | { kind: 'contradicts' | 'neither' } {
  const main = mainFace(faces);
  if (!main) return { kind: 'neither' };
  const distance = faceDistance(main.descriptor, reference.descriptor);
  if (distance <= thresholds.match) return { kind: 'confirms', distance, face: main.box };
  const nearest = Math.min(...faces.map((face) => faceDistance(face.descriptor, reference.descriptor)));
  return { kind: nearest >= thresholds.mismatch ? 'contradicts' : 'neither' };
}

/** How many of the first photos after a card must contradict a reference face to reject it. */
export const REJECTING_PHOTOS = 2;

/**
 * Whether the photos that contradicted an unconfirmed reference face reject it: the first
 * REJECTING_PHOTOS photos after one of the person's cards, in capture order, all contradict it
 * (a photo that confirmed it would have confirmed it first). The photos right after a card are
 * the card's person: a missed card gives the next person's portraits to the end of a run, not
 * its beginning, so a genuine selfie is not rejected by the portraits of whoever came next.
 */
export function rejectsReference(firstPhotosAfterCard: readonly string[], contradictedBy: readonly string[]): boolean {
  const first = firstPhotosAfterCard.slice(0, REJECTING_PHOTOS);
  return first.length === REJECTING_PHOTOS && first.every((photoId) => contradictedBy.includes(photoId));
}
