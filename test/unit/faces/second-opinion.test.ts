import { DEFAULT_FACE_THRESHOLDS } from '#lib/galleries/rules/face-matching';
import {
  evidenceOfCardPhoto,
  fillInFor,
  nearestCandidates,
  rejectsReference,
  verdictOnCard,
} from '#lib/faces/rules/second-opinion';

/** A face at a known distance from the origin reference: descriptors along one axis. */
const faceAt = (distance: number, width = 100) => ({
  box: { x: width, y: 0, width, height: width },
  score: 0.9,
  descriptor: [distance, 0, 0],
});
const reference = (personId: string, at = 0) => ({ personId, descriptor: [at, 0, 0] });
const thresholds = { ...DEFAULT_FACE_THRESHOLDS, match: 0.5, mismatch: 0.6, fill: 0.4, margin: 0.1 };

describe('the second opinion on a photo a card gives to a person', () => {
  it('agrees when any face is within the match distance, even a small one in the background, and says where that face is', () => {
    expect(
      verdictOnCard([faceAt(0.9, 300), faceAt(0.3, 40), faceAt(0.45, 60)], reference('per_a'), thresholds),
    ).toEqual({
      kind: 'agree',
      distance: 0.3,
      face: { x: 40, y: 0, width: 40, height: 40 },
    });
  });

  it('withholds a clear mismatch, a grey-zone face and a photo without a face, each with its reason', () => {
    expect(verdictOnCard([faceAt(0.7)], reference('per_a'), thresholds)).toMatchObject({
      kind: 'withhold',
      reason: 'face_mismatch',
    });
    expect(verdictOnCard([faceAt(0.55)], reference('per_a'), thresholds)).toMatchObject({
      kind: 'withhold',
      reason: 'face_uncertain',
    });
    expect(verdictOnCard([], reference('per_a'), thresholds)).toEqual({
      kind: 'withhold',
      reason: 'no_face',
      distance: null,
    });
  });
});

describe('filling in a photo no card governs', () => {
  it('fills in for the one nearest reference within the fill distance and by the margin', () => {
    const candidates = nearestCandidates(
      [faceAt(0.1)],
      [reference('per_a', 0), reference('per_b', 0.5), reference('per_c', 0.9)],
    );
    expect(candidates.map((candidate) => candidate.personId)).toEqual(['per_a', 'per_b', 'per_c']);
    expect(fillInFor(candidates, thresholds)?.personId).toBe('per_a');
  });

  it('leaves it unassigned when the best is too far, or the second best too close', () => {
    expect(fillInFor(nearestCandidates([faceAt(0.45)], [reference('per_a', 0)]), thresholds)).toBeUndefined();
    expect(
      fillInFor(nearestCandidates([faceAt(0.1)], [reference('per_a', 0), reference('per_b', 0.15)]), thresholds),
    ).toBeUndefined();
    expect(fillInFor(nearestCandidates([], [reference('per_a', 0)]), thresholds)).toBeUndefined();
  });

  it('compares only the main face, the largest', () => {
    const candidates = nearestCandidates(
      [faceAt(0.9, 50), faceAt(0.05, 200)],
      [reference('per_a', 0), reference('per_b', 0.9)],
    );
    expect(candidates[0]).toEqual({ personId: 'per_a', distance: 0.05 });
  });
});

describe("what a photo of the person's own card says of their unconfirmed reference face", () => {
  it('confirms it when the main face, the largest, is within the match distance, and says where that face is', () => {
    expect(evidenceOfCardPhoto([faceAt(0.9, 40), faceAt(0.45, 200)], reference('per_a'), thresholds)).toEqual({
      kind: 'confirms',
      distance: 0.45,
      face: { x: 200, y: 0, width: 200, height: 200 },
    });
  });

  it('confirms nothing from a face in the background: the person whose face was uploaded may stand beside them', () => {
    expect(evidenceOfCardPhoto([faceAt(0.9, 300), faceAt(0.1, 40)], reference('per_a'), thresholds)).toEqual({
      kind: 'neither',
    });
  });

  it('contradicts it only when every face is at least the mismatch distance away', () => {
    expect(evidenceOfCardPhoto([faceAt(0.7, 300), faceAt(0.6, 40)], reference('per_a'), thresholds)).toEqual({
      kind: 'contradicts',
    });
    expect(evidenceOfCardPhoto([faceAt(0.7, 300), faceAt(0.55, 40)], reference('per_a'), thresholds)).toEqual({
      kind: 'neither',
    });
  });

  it('says nothing from a photo without a face, or in the grey zone', () => {
    expect(evidenceOfCardPhoto([], reference('per_a'), thresholds)).toEqual({ kind: 'neither' });
    expect(evidenceOfCardPhoto([faceAt(0.55)], reference('per_a'), thresholds)).toEqual({ kind: 'neither' });
  });
});

describe('rejecting an unconfirmed reference face', () => {
  it('rejects it when the first two photos after the card both contradicted it', () => {
    expect(rejectsReference(['pho_1', 'pho_2', 'pho_3'], ['pho_2', 'pho_1'])).toBe(true);
  });

  it('keeps it while one of the first two did not contradict it, however many photos further down did', () => {
    expect(rejectsReference(['pho_1', 'pho_2', 'pho_3', 'pho_4'], ['pho_2', 'pho_3', 'pho_4'])).toBe(false);
    expect(rejectsReference(['pho_1'], ['pho_1'])).toBe(false);
    expect(rejectsReference([], [])).toBe(false);
  });
});
