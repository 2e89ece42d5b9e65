import { pooledRandomFraction } from '#lib/platform/secret-values';
import { newPersonId } from '#lib/persons/rules/person-model';

describe('pooledRandomFraction', () => {
  it('draws fractions in [0, 1) in steps of 1/256, each of the 256 values, across refills of its pool', () => {
    const draws = Array.from({ length: 3 * 4096 }, () => pooledRandomFraction());
    const steps = new Set(draws.map((fraction) => fraction * 256));
    expect(draws.every((fraction) => fraction >= 0 && fraction < 1)).toBe(true);
    expect([...steps].every((step) => Number.isInteger(step))).toBe(true);
    expect(steps.size).toBe(256);
    const mean = draws.reduce((sum, fraction) => sum + fraction, 0) / draws.length;
    expect(Math.abs(mean - 255 / 512)).toBeLessThan(0.02);
  });

  it('refills its pool with new bytes rather than repeating them', () => {
    // A pool used again without a refill would repeat itself every 4,096 draws, wherever the draws begin.
    const draws = Array.from({ length: 2 * 4096 }, () => pooledRandomFraction());
    const repeated = draws.slice(0, 4096).filter((fraction, index) => fraction === draws[index + 4096]).length;
    expect(repeated).toBeLessThan(100);
  });
});

describe('IDs drawn from the pool', () => {
  it('are unique and ordered by creation', () => {
    const ids = Array.from({ length: 2000 }, () => newPersonId());
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });
});
