import {
  type LabelledDescriptors,
  THRESHOLD_GRID,
  calibrate,
  errorRates,
  fillOutcomes,
  pairDistances,
  wilsonUpperBound,
} from '#lib/faces/rules/calibration';
import type { FaceThresholds } from '#lib/galleries/rules/face-matching';

/** A gallery's thresholds before calibration. */
const CURRENT: FaceThresholds = { match: 0.5, mismatch: 0.65, fill: 0.4, margin: 0.1 };

/** Descriptors on a line: distances are differences, which keeps the expectations readable. */
const onLine = (entries: Record<string, number[]>): LabelledDescriptors =>
  new Map(Object.entries(entries).map(([identity, points]) => [identity, points.map((x) => [x])]));

/**
 * `count` identities whose references are `separation` apart from each other (one axis each),
 * each with further descriptors `genuineDistances` from its reference along a shared axis.
 */
function separatedIdentities(
  count: number,
  separation: number,
  genuineDistances: readonly number[],
): LabelledDescriptors {
  const axes = count + 1;
  const labelled = new Map<string, number[][]>();
  for (let identity = 0; identity < count; identity += 1) {
    const reference = Array.from({ length: axes }, (_, axis) => (axis === identity ? separation / Math.SQRT2 : 0));
    const others = genuineDistances.map((distance) =>
      reference.map((value, axis) => (axis === count ? distance : value)),
    );
    labelled.set(`person-${identity}`, [reference, ...others]);
  }
  return labelled;
}

/** `count` people at random points of 8 dimensions (a fixed seed), each with a second photo `spread` from the first. */
function scatteredIdentities(count: number, spread: number): LabelledDescriptors {
  let seed = 7;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const point = (scale: number) => Array.from({ length: 8 }, () => (random() - 0.5) * scale);
  const labelled = new Map<string, number[][]>();
  for (let identity = 0; identity < count; identity += 1) {
    const reference = point(0.75);
    const direction = point(1);
    const length = Math.hypot(...direction);
    labelled.set(`person-${identity}`, [
      reference,
      reference.map((value, axis) => value + (direction[axis]! / length) * spread),
    ]);
  }
  return labelled;
}

describe('pairDistances', () => {
  it('pairs every two descriptors once: genuine within an identity, impostor across', () => {
    // Prepare
    const labelled = onLine({ ann: [0, 0.1, 0.3], bob: [1], cy: [2, 2.5] });

    // Act
    const { genuine, impostor } = pairDistances(labelled);

    // Assess
    expect(genuine.map((distance) => Number(distance.toFixed(2))).sort()).toEqual([0.1, 0.2, 0.3, 0.5]);
    expect(impostor).toHaveLength(3 * 1 + 3 * 2 + 1 * 2);
    expect(Math.min(...impostor)).toBeCloseTo(0.7);
  });
});

describe('errorRates', () => {
  it('counts an impostor pair at the threshold as accepted and a genuine pair beyond it as rejected', () => {
    const distances = { genuine: [0.2, 0.4, 0.5], impostor: [0.4, 0.6, 0.8, 0.9] };

    const [row] = errorRates(distances, [0.4]);

    expect(row).toMatchObject({
      threshold: 0.4,
      falseAccepts: 1,
      impostorPairs: 4,
      falseAcceptRate: 0.25,
      falseRejects: 1,
      genuinePairs: 3,
    });
    expect(row!.falseRejectRate).toBeCloseTo(1 / 3);
  });

  it('measures at 0.30 to 0.70 by 0.02, 21 thresholds', () => {
    expect(THRESHOLD_GRID).toHaveLength(21);
    expect([THRESHOLD_GRID[0], THRESHOLD_GRID[1], THRESHOLD_GRID.at(-1)]).toEqual([0.3, 0.32, 0.7]);
  });

  it('bounds the false-accept rate less tightly when the pairs are altered copies of fewer photos', () => {
    const distances = { genuine: [0.3], impostor: Array.from({ length: 3600 }, () => 0.9) };

    const [independent] = errorRates(distances, [0.5]);
    const [copies] = errorRates(distances, [0.5], 6);

    expect(independent!.falseAcceptUpperBound).toBeLessThan(0.001);
    expect(copies!.falseAcceptUpperBound).toBeCloseTo(wilsonUpperBound(0, 100));
  });
});

describe('wilsonUpperBound', () => {
  it.each([
    [0, 300, 2.706 / 302.706],
    [0, 100, 2.706 / 102.706],
    [5, 100, 0.1],
  ])('%d of %d: at most %f', (successes, trials, expected) => {
    expect(wilsonUpperBound(successes, trials)).toBeCloseTo(expected, 2);
  });

  it('needs about 270 pairs without a false accept to bound the rate below 1 %', () => {
    expect(wilsonUpperBound(0, 260)).toBeGreaterThan(0.01);
    expect(wilsonUpperBound(0, 280)).toBeLessThan(0.01);
  });
});

describe('fillOutcomes', () => {
  // References: ann at 0, bob at 1, cy at 3 (each identity's first descriptor).
  const labelled = onLine({ ann: [0, 0.1, 0.45], bob: [1, 0.7], cy: [3] });

  it('fills a probe near one reference and far from the next, and abstains when the nearest is too far or too close to the second', () => {
    const outcomes = fillOutcomes(labelled, 0.5, 0.2);

    // ann 0.1: right. ann 0.45: best ann 0.45, bob 0.55, gap 0.1 < 0.2: abstains. bob 0.7: best bob 0.3, ann 0.7: right.
    expect(outcomes).toMatchObject({ probes: 3, right: 2, wrong: 0, abstained: 1 });
  });

  it('counts a probe given to the wrong person', () => {
    // ann's second photo lies 0.4 from bob's reference and 0.6 from her own.
    const outcomes = fillOutcomes(onLine({ ann: [0, 0.6], bob: [1] }), 0.45, 0.05);

    expect(outcomes).toMatchObject({ probes: 1, right: 0, wrong: 1, abstained: 0 });
  });

  it('fills no stranger: each descriptor against the references of the others only', () => {
    const strict = fillOutcomes(labelled, 0.4, 0.1);
    const loose = fillOutcomes(labelled, 0.6, 0.1);

    expect(strict).toMatchObject({ strangerProbes: 6, strangerFills: 0 });
    // At 0.6, ann's probe at 0.45 (bob's reference 0.55 away, cy far) is filled to bob.
    expect(loose.strangerFills).toBe(1);
  });
});

describe('calibrate', () => {
  it('suggests thresholds within bounds from a sample where people are far apart', () => {
    // Prepare: 30 people, their references 0.8 apart, each with a second photo 0.3 from it.
    const labelled = separatedIdentities(30, 0.8, [0.3]);

    // Act
    const report = calibrate(labelled, CURRENT);

    // Assess
    expect(report).toMatchObject({ identities: 30, descriptors: 60, identitiesWithPairs: 30 });
    // No impostor pair below 0.8: match would be 0.70, the grid's top, and is held at 0.6.
    expect(report.suggested).toEqual({ match: 0.6, mismatch: 0.6, fill: 0.3, margin: 0.2 });
    expect(report.notes).toEqual(expect.arrayContaining([expect.stringContaining('match 0.7 is outside 0.35–0.6')]));
    expect(report.fillIn.suggested).toMatchObject({ probes: 30, right: 30, wrong: 0, strangerFills: 0 });
  });

  it('puts match at the largest threshold whose false-accept rate is at most 1 % at 95 % confidence, and fill below the closest impostor pair', () => {
    // Prepare: 40 people scattered at random, two photos each, so that impostor pairs spread over the grid.
    const labelled = scatteredIdentities(40, 0.08);

    // Act
    const report = calibrate(labelled, CURRENT);

    // Assess
    const at = (threshold: number) => report.rates.find((row) => row.threshold === threshold)!;
    const { match, fill } = report.suggested;
    expect(at(match).falseAcceptUpperBound).toBeLessThanOrEqual(0.01);
    expect(at(Number((match + 0.02).toFixed(2))).falseAcceptUpperBound).toBeGreaterThan(0.01);
    expect(at(match).falseAccepts).toBeGreaterThan(0);
    expect(report.notes).not.toContainEqual(expect.stringMatching(/^match .* is outside/));
    expect(fill).toBeLessThan(report.distances.impostor.min);
    expect(report.fillIn.suggested).toMatchObject({ wrong: 0, strangerFills: 0 });
  });

  it('puts mismatch where at most 1 % of genuine pairs are further apart', () => {
    // Genuine pairs from 0.3 to 0.62 (up to 0.64 between the second photos themselves).
    const labelled = separatedIdentities(30, 1, [0.3, 0.62]);

    const report = calibrate(labelled, CURRENT);

    const chosen = report.rates.find((row) => row.threshold === report.suggested.mismatch)!;
    expect(chosen.falseRejectRate).toBeLessThanOrEqual(0.01);
    expect(
      report.rates.find((row) => row.threshold === Number((report.suggested.mismatch - 0.02).toFixed(2)))!
        .falseRejectRate,
    ).toBeGreaterThan(0.01);
    expect(report.suggested.mismatch).toBeGreaterThanOrEqual(report.suggested.match);
  });

  it('keeps the current thresholds and says why when the sample is too thin', () => {
    const report = calibrate(onLine({ ann: [0, 0.3], bob: [1], cy: [2] }), CURRENT);

    expect(report.suggested.match).toBe(CURRENT.match);
    expect(report.notes.join('\n')).toMatch(/no threshold keeps false accepts below 1 %.*impostor pairs/);
    expect(report.notes.join('\n')).toMatch(/thin sample \(3 people, 1 with two photos or more\)/);
  });

  it('keeps mismatch, fill and margin when nobody has two photos', () => {
    const report = calibrate(separatedIdentities(30, 0.8, []), CURRENT);

    expect(report.distances.genuine.pairs).toBe(0);
    expect(report.suggested).toMatchObject({ mismatch: CURRENT.mismatch, fill: CURRENT.fill, margin: CURRENT.margin });
  });
});
