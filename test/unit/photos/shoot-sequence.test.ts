import {
  assignSequence,
  cameraSequenceId,
  manualGovernor,
  readCard,
  sequencePosition,
  supersedes,
} from '#lib/photos/sorting/rules/shoot-sequence';

describe('readCard', () => {
  it.each([
    [['AB7K'], { kind: 'card', code: 'AB7K' }],
    [[' ab7k\n'], { kind: 'card', code: 'AB7K' }],
    [['AB7K', 'AB7K'], { kind: 'card', code: 'AB7K' }],
    [['AB7K', 'ZZ22'], { kind: 'ambiguous_card' }],
    [['https://example.com/AB7K', 'AB7'], { kind: 'photo' }],
    [['AB0K'], { kind: 'photo' }], // 0 is not in the code alphabet
    [[], { kind: 'photo' }],
  ])('reads %j as %j', (texts, expected) => {
    expect(readCard(texts)).toEqual(expected);
  });
});

describe('the keyframe rule', () => {
  const at = (second: number, file = `IMG_${second}.JPG`) =>
    sequencePosition(`2026-11-20T10:00:${String(second).padStart(2, '0')}.000Z`, file, `pho_${second}`);

  it('gives each photo the person of the last card before it, in capture order whatever the input order', () => {
    // Prepare
    const shots = [at(5), at(1), at(3), at(2), at(4), at(6), at(0)];
    const cards = new Map([
      [at(1), { personId: 'per_a' }],
      [at(4), { personId: null }],
    ]);
    // Act
    const owners = assignSequence(shots.map((position) => ({ position, card: cards.get(position) })));
    // Assess
    expect(Object.fromEntries(owners)).toEqual({
      [at(0)]: { personId: null, reason: 'before_first_card' },
      [at(2)]: { personId: 'per_a' },
      [at(3)]: { personId: 'per_a' },
      [at(5)]: { personId: null, reason: 'unknown_code' },
      [at(6)]: { personId: null, reason: 'unknown_code' },
    });
  });

  it('orders a burst within one millisecond by file name', () => {
    expect(
      sequencePosition('2026-11-20T10:00:00.000Z', 'IMG_0009.JPG', 'pho_z') <
        sequencePosition('2026-11-20T10:00:00.000Z', 'IMG_0010.JPG', 'pho_a'),
    ).toBe(true);
  });

  it('lets only a later card, or a later assignment by hand, replace a governor', () => {
    expect(supersedes(at(3), undefined)).toBe(true);
    expect(supersedes(at(3), at(2))).toBe(true);
    expect(supersedes(at(2), at(3))).toBe(false);
    expect(supersedes(at(3), at(3))).toBe(false);
    expect(supersedes(at(59), manualGovernor('2026-11-20T11:00:00.000Z'))).toBe(false);
    expect(supersedes(manualGovernor('2026-11-21T00:00:00.000Z'), manualGovernor('2026-11-20T11:00:00.000Z'))).toBe(
      true,
    );
  });

  it('names camera sequences by a key-safe digest, unknown cameras sharing one', () => {
    expect(cameraSequenceId('Canon EOS R5 #0331')).toMatch(/^[0-9a-f]{16}$/);
    expect(cameraSequenceId('Canon EOS R5 #0331')).not.toBe(cameraSequenceId('Canon EOS R5 #0332'));
    expect(cameraSequenceId(null)).toBe(cameraSequenceId(null));
  });
});
