import fc from 'fast-check';
import {
  MAX_SPOT_SHARDS,
  type SpotCounter,
  bookedOnCounters,
  counterToTake,
  importAllocation,
  roomOf,
  shardShares,
  spotShardCount,
} from '#lib/galleries/rules/spot-counters';

const shardsOf = (maxPersons: number | undefined): SpotCounter[] => [
  { id: 'day', share: 0, booked: 0 },
  ...shardShares(maxPersons, spotShardCount(maxPersons)).map((share, id) => ({ id, share, booked: 0 })),
];

describe("a day's spot counters", () => {
  it('split a capacity into shares that add up to it, about 8 spots each, at most 16 shards', () => {
    expect(shardShares(600, spotShardCount(600))).toEqual([
      38, 38, 38, 38, 38, 38, 38, 38, 37, 37, 37, 37, 37, 37, 37, 37,
    ]);
    expect(shardShares(20, spotShardCount(20))).toEqual([7, 7, 6]);
    expect(shardShares(1, spotShardCount(1))).toEqual([1]);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), (capacity) => {
        const shares = shardShares(capacity, spotShardCount(capacity));
        expect(shares.length).toBeLessThanOrEqual(MAX_SPOT_SHARDS);
        expect(shares.reduce<number>((sum, share) => sum + share!, 0)).toBe(capacity);
        expect(Math.max(...(shares as number[])) - Math.min(...(shares as number[]))).toBeLessThanOrEqual(1);
      }),
    );
  });

  it('take from a counter with room, weighted by its room, and from none when the day is full', () => {
    const counters: SpotCounter[] = [
      { id: 'day', share: 0, booked: 0 },
      { id: 0, share: 5, booked: 5 },
      { id: 1, share: 5, booked: 4 },
      { id: 2, share: 5, booked: 2 },
    ];
    // Room: shard 1 has 1, shard 2 has 3 of the 4 in all.
    expect(counterToTake(counters, () => 0)?.id).toBe(1);
    expect(counterToTake(counters, () => 0.24)?.id).toBe(1);
    expect(counterToTake(counters, () => 0.26)?.id).toBe(2);
    expect(counterToTake(counters, () => 0.999)?.id).toBe(2);
    expect(counterToTake(counters.map((counter) => ({ ...counter, booked: counter.share! })))).toBeUndefined();
  });

  it("take from the day's own item once a spot was given back to it", () => {
    const counters: SpotCounter[] = [
      { id: 'day', share: 0, booked: -1 },
      { id: 0, share: 5, booked: 5 },
    ];
    expect(counterToTake(counters)?.id).toBe('day');
    expect(bookedOnCounters(counters)).toBe(4);
  });

  it('spread a day without capacity evenly over its shards, never its own item; a day before the shards counts on its item', () => {
    const unlimited = shardsOf(undefined);
    const chosen = new Set(Array.from({ length: 8 }, (_, index) => counterToTake(unlimited, () => index / 8)?.id));
    expect([...chosen].sort()).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(counterToTake([{ id: 'day', share: undefined, booked: 40 }])?.id).toBe('day');
    expect(counterToTake([{ id: 'day', share: 10, booked: 10 }])).toBeUndefined();
  });

  it('never admit more than the capacity, whatever the order of takes and give-backs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 200 }),
        fc.array(fc.tuple(fc.boolean(), fc.double({ min: 0, max: 0.999, noNaN: true })), { maxLength: 400 }),
        (capacity, steps) => {
          const counters = shardsOf(capacity);
          let holders = 0;
          for (const [take, random] of steps) {
            if (take) {
              const counter = counterToTake(counters, () => random);
              if (counter) {
                expect(roomOf(counter)).toBeGreaterThan(0);
                counter.booked += 1;
                holders += 1;
              } else {
                // Refused only when the day is full.
                expect(holders).toBe(capacity);
              }
            } else if (holders > 0) {
              counters[0]!.booked -= 1;
              holders -= 1;
            }
            expect(bookedOnCounters(counters)).toBe(holders);
            expect(holders).toBeLessThanOrEqual(capacity);
          }
        },
      ),
    );
  });

  it("count an import into the counters' room first, and only the rest beyond it on the day's item", () => {
    const counters: SpotCounter[] = [
      { id: 'day', share: 0, booked: -1 },
      { id: 0, share: 3, booked: 3 },
      { id: 1, share: 3, booked: 1 },
    ];
    expect(importAllocation(counters, 2)).toEqual([
      { id: 'day', count: 1, withinRoom: true },
      { id: 1, count: 1, withinRoom: true },
    ]);
    expect(importAllocation(counters, 5)).toEqual([
      { id: 'day', count: 1, withinRoom: true },
      { id: 1, count: 2, withinRoom: true },
      { id: 'day', count: 2, withinRoom: false },
    ]);
  });
});
