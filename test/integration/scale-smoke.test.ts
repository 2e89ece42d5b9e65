import { db } from '#lib/platform/table/client';
import { installRoundTripCounter } from '../../scripts/bench/round-trip-counter';
import { ITEMS_READ_RATIO_LIMIT, PER_SIZE_PATHS, type ScaleResult, measureScale } from '../../scripts/bench/scale';
import { useLocalApi } from '../support/local-api';

/**
 * The scale bench's request paths at its smoke size (docs/benchmarks/scale.md): no request reads
 * more items, read units or bytes in a gallery of 100 persons than 1.05 times what it reads in
 * one of 20, and none makes more calls or waits for more waves than its floor (round-trip-floors.ts).
 * The page of persons is 10, smaller than both galleries, so that a page is a page.
 */
const api = useLocalApi();
const counter = installRoundTripCounter(db);
const SIZES = [20, 100];

describe('the scale bench at its smoke size', () => {
  let result: ScaleResult;
  beforeAll(async () => {
    result = await measureScale(api.url, counter, {
      sizes: SIZES,
      iterations: 1,
      personsPages: [10],
      largeImportRows: 50,
      background: false,
      ingestSamples: 0,
    });
  }, 240_000);

  it('measures every request path at both sizes, each reading something', () => {
    // Assess
    expect(result.requests.length).toBeGreaterThanOrEqual(22);
    for (const row of result.requests)
      for (const size of SIZES) {
        const figures = row[`at${size}`];
        expect([row.path, figures!.calls >= 1, figures!.ms > 0]).toEqual([row.path, true, true]);
      }
  });

  it('reads no more items, read units or bytes per request at the larger size than 1.05 times the smaller', () => {
    // Assess
    const growing = result.requests
      .filter((row) => !Object.hasOwn(PER_SIZE_PATHS, row.path))
      .filter((row) =>
        [row.ratio.items, row.ratio.units, row.ratio.bytes].some((ratio) => ratio > ITEMS_READ_RATIO_LIMIT),
      )
      .map(({ path, ratio }) => ({ path, items: ratio.items, units: ratio.units, bytes: ratio.bytes }));
    expect(growing).toEqual([]);
  });

  it('makes no more DynamoDB calls and waves than its floor on every path that has one, warm and cold, at both sizes', () => {
    // Assess
    const withFloors = result.requests.filter((row) => row.floor);
    expect(withFloors.length).toBeGreaterThanOrEqual(11);
    expect(withFloors.filter((row) => !row.atFloor).map((row) => [row.path, row.floor, row.at20, row.at100])).toEqual(
      [],
    );
  });

  it('names no path whose reads grow by nature', () => {
    // Assess
    expect(PER_SIZE_PATHS).toEqual({});
  });
});
