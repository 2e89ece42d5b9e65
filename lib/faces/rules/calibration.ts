/**
 * Calibration of a gallery's face thresholds from labelled descriptors: each consenting
 * person's photos, described by the face model. Pure arithmetic over the distances; the use
 * case (lib/faces/calibration.ts) describes the photos. docs/photos.md#thresholds has the figures.
 */
import type { FaceThresholds } from '#lib/galleries/rules/face-matching';
import { faceDistance } from '#lib/faces/rules/face-descriptors';

/** Each identity's descriptors; the first of each is its reference in the fill-in measure. */
export type LabelledDescriptors = ReadonlyMap<string, readonly (readonly number[])[]>;

const gridOf = (from: number, to: number, step: number) =>
  Array.from({ length: Math.round((to - from) / step) + 1 }, (_, index) => Number((from + index * step).toFixed(2)));

/** The thresholds the error rates are measured at. */
export const THRESHOLD_GRID: readonly number[] = gridOf(0.3, 0.7, 0.02);
/** The margins the fill-in rule is tried with. */
export const MARGIN_GRID: readonly number[] = gridOf(0.04, 0.2, 0.02);

/**
 * What the suggestions aim at. A false accept at `match` lets a photo of someone else pass as
 * the card's person: it is bounded from above, at 95 % confidence, so that a thin sample
 * cannot claim it. A false reject at `mismatch` only turns face_uncertain into face_mismatch
 * (both are withheld for review), so its plain rate is enough.
 */
export const CALIBRATION_TARGETS = { falseAcceptUpperBound: 0.01, falseRejectRate: 0.01, confidence: 0.95 } as const;

/**
 * Where a suggestion is kept, whatever the sample says (and fill ≤ match ≤ mismatch). Descriptors of the same person lie
 * about 0.3 to 0.5 apart, so below 0.35 nearly every photo would be withheld; 0.6 is the
 * customary limit for these 128-number descriptors, above which different people match often.
 */
export const THRESHOLD_BOUNDS = {
  match: { min: 0.35, max: 0.6 },
  mismatch: { min: 0.45, max: 0.75 },
  fill: { min: 0.3, max: 0.55 },
  margin: { min: 0.04, max: 0.2 },
} as const;

/** One-sided z of CALIBRATION_TARGETS.confidence. */
const Z_95_ONE_SIDED = 1.645;

export interface PairDistances {
  /** Between two descriptors of the same identity. */
  genuine: number[];
  /** Between descriptors of two different identities. */
  impostor: number[];
}

/** Every pair of descriptors, once, by whether both are of the same identity. */
export function pairDistances(labelled: LabelledDescriptors): PairDistances {
  const entries = [...labelled].flatMap(([identity, descriptors]) =>
    descriptors.map((descriptor) => ({ identity, descriptor })),
  );
  const distances: PairDistances = { genuine: [], impostor: [] };
  for (let first = 0; first < entries.length; first += 1) {
    for (let second = first + 1; second < entries.length; second += 1) {
      const distance = faceDistance(entries[first]!.descriptor, entries[second]!.descriptor);
      (entries[first]!.identity === entries[second]!.identity ? distances.genuine : distances.impostor).push(distance);
    }
  }
  return distances;
}

export interface ErrorRates {
  threshold: number;
  /** Impostor pairs at most `threshold` apart: a photo of someone else taken for the person. */
  falseAccepts: number;
  impostorPairs: number;
  falseAcceptRate: number;
  /** The rate's one-sided upper confidence bound (Wilson score), which a small sample keeps high. */
  falseAcceptUpperBound: number;
  /** Genuine pairs more than `threshold` apart: a photo of the person not recognised. */
  falseRejects: number;
  genuinePairs: number;
  falseRejectRate: number;
}

/**
 * Both error rates at each threshold; a rate over no pairs is NaN. `copiesPerPhoto` > 1 when
 * each photo was also described altered (mirrored, recompressed, …): such copies are not
 * independent, so the confidence bound counts pairs of photos, copiesPerPhoto² fewer.
 */
export function errorRates(
  distances: PairDistances,
  thresholds: readonly number[] = THRESHOLD_GRID,
  copiesPerPhoto = 1,
): ErrorRates[] {
  const independentImpostorPairs = Math.max(
    1,
    Math.round(distances.impostor.length / (copiesPerPhoto * copiesPerPhoto)),
  );
  return thresholds.map((threshold) => {
    const falseAccepts = distances.impostor.filter((distance) => distance <= threshold).length;
    const falseRejects = distances.genuine.filter((distance) => distance > threshold).length;
    const falseAcceptRate = falseAccepts / distances.impostor.length;
    return {
      threshold,
      falseAccepts,
      impostorPairs: distances.impostor.length,
      falseAcceptRate,
      falseAcceptUpperBound:
        distances.impostor.length === 0
          ? 1
          : wilsonUpperBound(falseAcceptRate * independentImpostorPairs, independentImpostorPairs),
      falseRejects,
      genuinePairs: distances.genuine.length,
      falseRejectRate: falseRejects / distances.genuine.length,
    };
  });
}

/** The one-sided upper bound of a proportion at CALIBRATION_TARGETS.confidence (Wilson score interval); 1 for no trials. */
export function wilsonUpperBound(successes: number, trials: number): number {
  if (trials === 0) return 1;
  const z2 = Z_95_ONE_SIDED * Z_95_ONE_SIDED;
  const rate = successes / trials;
  const centre = rate + z2 / (2 * trials);
  const spread = Z_95_ONE_SIDED * Math.sqrt((rate * (1 - rate)) / trials + z2 / (4 * trials * trials));
  return Math.min(1, (centre + spread) / (1 + z2 / trials));
}

export interface FillOutcomes {
  fill: number;
  margin: number;
  /** Each identity's descriptors after its first, against every identity's first (its reference). */
  probes: number;
  right: number;
  wrong: number;
  abstained: number;
  /** Every descriptor against the references of the other identities only: a person with no reference, whom no fill may name. */
  strangerProbes: number;
  strangerFills: number;
}

/**
 * The fill-in rule as a 1:N identification: a probe goes to the nearest reference when that is
 * at most `fill` away and the second nearest at least `margin` further.
 */
export function fillOutcomes(labelled: LabelledDescriptors, fill: number, margin: number): FillOutcomes {
  const references = [...labelled]
    .filter(([, descriptors]) => descriptors.length > 0)
    .map(([identity, descriptors]) => ({ identity, descriptor: descriptors[0]! }));
  const outcomes: FillOutcomes = {
    fill,
    margin,
    probes: 0,
    right: 0,
    wrong: 0,
    abstained: 0,
    strangerProbes: 0,
    strangerFills: 0,
  };
  const assign = (probe: readonly number[], candidates: typeof references) => {
    const ranked = candidates
      .map(({ identity, descriptor }) => ({ identity, distance: faceDistance(probe, descriptor) }))
      .sort((a, b) => a.distance - b.distance);
    const [best, second] = ranked;
    if (!best || best.distance > fill || (second && second.distance - best.distance < margin)) return undefined;
    return best.identity;
  };
  for (const [identity, descriptors] of labelled) {
    const others = references.filter((reference) => reference.identity !== identity);
    for (const [index, descriptor] of descriptors.entries()) {
      if (index > 0) {
        outcomes.probes += 1;
        const assigned = assign(descriptor, references);
        if (assigned === undefined) outcomes.abstained += 1;
        else if (assigned === identity) outcomes.right += 1;
        else outcomes.wrong += 1;
      }
      outcomes.strangerProbes += 1;
      if (assign(descriptor, others) !== undefined) outcomes.strangerFills += 1;
    }
  }
  return outcomes;
}

export interface CalibrationReport {
  identities: number;
  descriptors: number;
  /** Identities with two photos or more (altered copies of one photo counting once): only their genuine pairs tell how a person's photos differ. */
  identitiesWithPairs: number;
  distances: { genuine: DistanceSummary; impostor: DistanceSummary };
  rates: ErrorRates[];
  fillIn: { suggested: FillOutcomes; current: FillOutcomes };
  suggested: FaceThresholds;
  /** How each suggestion was reached, and what the sample is too thin to say. */
  notes: string[];
}

export interface DistanceSummary {
  pairs: number;
  min: number;
  median: number;
  max: number;
}

/** The error rates, the fill-in outcomes and the thresholds they suggest, against `current`; `copiesPerPhoto` as for errorRates. */
export function calibrate(
  labelled: LabelledDescriptors,
  current: FaceThresholds,
  copiesPerPhoto = 1,
): CalibrationReport {
  const distances = pairDistances(labelled);
  const rates = errorRates(distances, THRESHOLD_GRID, copiesPerPhoto);
  const notes: string[] = [];
  const match = withinBounds('match', suggestMatch(rates, current, notes), notes);
  const mismatch = Math.max(match, withinBounds('mismatch', suggestMismatch(rates, match, current, notes), notes));
  const suggestedFill = suggestFill(labelled, fillCeiling(rates, match), current, notes);
  const suggested = {
    match,
    mismatch,
    fill: Math.min(match, withinBounds('fill', suggestedFill.fill, notes)),
    margin: withinBounds('margin', suggestedFill.margin, notes),
  };
  const identitiesWithPairs = [...labelled.values()].filter(
    (descriptors) => descriptors.length > copiesPerPhoto,
  ).length;
  if (labelled.size < 10 || identitiesWithPairs < 5)
    notes.push(
      `A thin sample (${labelled.size} people, ${identitiesWithPairs} with two photos or more): take the figures as a rough guide.`,
    );
  return {
    identities: labelled.size,
    descriptors: [...labelled.values()].reduce((sum, descriptors) => sum + descriptors.length, 0),
    identitiesWithPairs,
    distances: { genuine: summaryOf(distances.genuine), impostor: summaryOf(distances.impostor) },
    rates,
    fillIn: {
      suggested: fillOutcomes(labelled, suggested.fill, suggested.margin),
      current: fillOutcomes(labelled, current.fill, current.margin),
    },
    suggested,
    notes,
  };
}

function suggestMatch(rates: readonly ErrorRates[], current: FaceThresholds, notes: string[]): number {
  // False accepts only grow with the threshold, so the bounded thresholds are the first few.
  const chosen = rates.filter((row) => row.falseAcceptUpperBound <= CALIBRATION_TARGETS.falseAcceptUpperBound).at(-1);
  if (!chosen) {
    notes.push(
      `match: no threshold keeps false accepts below 1 % at 95 % confidence (${rates[0]?.impostorPairs ?? 0} impostor pairs; about 300 are needed): kept at ${current.match}.`,
    );
    return current.match;
  }
  notes.push(
    `match ${chosen.threshold}: the largest threshold whose false-accept rate is at most 1 % at 95 % confidence (${chosen.falseAccepts} of ${chosen.impostorPairs} impostor pairs).`,
  );
  return chosen.threshold;
}

function suggestMismatch(
  rates: readonly ErrorRates[],
  match: number,
  current: FaceThresholds,
  notes: string[],
): number {
  if ((rates[0]?.genuinePairs ?? 0) === 0) {
    notes.push(`mismatch: no genuine pairs (nobody with two photos): kept at ${current.mismatch}.`);
    return Math.max(current.mismatch, match);
  }
  const chosen = rates.find(
    (row) => row.threshold >= match && row.falseRejectRate <= CALIBRATION_TARGETS.falseRejectRate,
  );
  if (!chosen) {
    const last = rates.at(-1)!;
    notes.push(
      `mismatch ${last.threshold}: even there ${last.falseRejects} of ${last.genuinePairs} genuine pairs are further apart (more than 1 %).`,
    );
    return last.threshold;
  }
  notes.push(
    `mismatch ${chosen.threshold}: the smallest threshold from match on with at most 1 % of genuine pairs further apart (${chosen.falseRejects} of ${chosen.genuinePairs}).`,
  );
  return chosen.threshold;
}

/**
 * A fill has no card to back it, and a gallery holds more people than a sample: fill stays
 * where no two different people of the sample ever came, and at most at match.
 */
function fillCeiling(rates: readonly ErrorRates[], match: number): number {
  const untouched = rates.filter((row) => row.falseAccepts === 0 && row.threshold <= match).at(-1);
  return untouched?.threshold ?? THRESHOLD_BOUNDS.fill.min;
}

/**
 * Up to `ceiling`, the fill and margin with no wrong fill and no stranger filled on the sample
 * that fill the most photos rightly; of equals, the smallest fill and the largest margin.
 */
function suggestFill(
  labelled: LabelledDescriptors,
  ceiling: number,
  current: FaceThresholds,
  notes: string[],
): { fill: number; margin: number } {
  let best: FillOutcomes | undefined;
  for (const fill of THRESHOLD_GRID.filter((threshold) => threshold <= ceiling)) {
    for (const margin of [...MARGIN_GRID].reverse()) {
      const outcomes = fillOutcomes(labelled, fill, margin);
      if (outcomes.wrong === 0 && outcomes.strangerFills === 0 && (!best || outcomes.right > best.right))
        best = outcomes;
    }
  }
  if (!best || best.probes === 0) {
    notes.push(
      `fill and margin: ${best ? 'no probes (nobody with two photos)' : 'every combination fills some photo wrongly'}: kept at ${current.fill} and ${current.margin}.`,
    );
    return { fill: Math.min(current.fill, ceiling), margin: current.margin };
  }
  notes.push(
    `fill ${best.fill}, margin ${best.margin}: at most ${ceiling} (no impostor pair that close, and not above match); no wrong fill of ${best.probes} probes and no stranger filled of ${best.strangerProbes}, with the most right fills (${best.right}); the smallest fill and largest margin of equals.`,
  );
  return { fill: best.fill, margin: best.margin };
}

function withinBounds(name: keyof typeof THRESHOLD_BOUNDS, value: number, notes: string[]): number {
  const { min, max } = THRESHOLD_BOUNDS[name];
  const bounded = Math.min(max, Math.max(min, value));
  if (bounded !== value) notes.push(`${name} ${value} is outside ${min}–${max}: ${bounded} instead.`);
  return bounded;
}

function summaryOf(distances: readonly number[]): DistanceSummary {
  if (distances.length === 0) return { pairs: 0, min: Number.NaN, median: Number.NaN, max: Number.NaN };
  const sorted = [...distances].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  const median = sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
  return { pairs: sorted.length, min: sorted[0]!, median, max: sorted.at(-1)! };
}
