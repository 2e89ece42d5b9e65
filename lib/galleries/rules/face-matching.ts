/**
 * A gallery's face matching: whether a second opinion from faces runs on its shoot photos
 * (lib/faces/), and the distances it decides by (docs/photos.md#a-second-opinion-from-faces).
 */

/**
 * off: the card alone decides. withhold: a photo whose face does not match its card's person's
 * reference face is withheld for review. fill: withhold, and a photo no card governs goes to the
 * one consenting person its face clearly matches.
 */
export const FACE_MATCHING_MODES = ['off', 'withhold', 'fill'] as const;
export type FaceMatchingMode = (typeof FACE_MATCHING_MODES)[number];

/**
 * Euclidean distances between 128-d face descriptors (0: the same vector; different people
 * measured here from 0.43 up). Calibrated in docs/photos.md#thresholds.
 */
export interface FaceThresholds {
  /** At most this far from the reference, a photo agrees with its card. */
  match: number;
  /** At least this far from the reference, a photo clearly does not match: withheld as face_mismatch. Between match and this: face_uncertain, also withheld. */
  mismatch: number;
  /** At most this far from exactly one consenting person's reference fills in a photo no card governs... */
  fill: number;
  /** ...and only when the second-best reference is at least this much further away. */
  margin: number;
}

/**
 * As `npm run faces -- calibrate --packaged` suggests them, but for the margin: it suggests
 * 0.06, and the default stays at 0.10, since the sample holds no lookalikes or relatives and a
 * wrong fill-in is a misdelivery (docs/photos.md#thresholds).
 */
export const DEFAULT_FACE_THRESHOLDS: FaceThresholds = { match: 0.5, mismatch: 0.58, fill: 0.42, margin: 0.1 };

export interface FaceMatchingSettings {
  mode: FaceMatchingMode;
  thresholds: FaceThresholds;
}

/**
 * The gallery's face matching as it applies: its own mode, else `withhold` where the check-in
 * asks for face consent (only consenting persons have a reference to compare with) and `off`
 * elsewhere; its own thresholds over the defaults.
 */
export function faceMatchingOf(gallery: {
  granularConsents: { face: boolean };
  faceMatching?: FaceMatchingMode;
  faceThresholds?: Partial<FaceThresholds>;
}): FaceMatchingSettings {
  return {
    mode: gallery.faceMatching ?? (gallery.granularConsents.face ? 'withhold' : 'off'),
    thresholds: { ...DEFAULT_FACE_THRESHOLDS, ...gallery.faceThresholds },
  };
}
