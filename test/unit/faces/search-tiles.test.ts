import { isCutByTile, searchTiles, viewPixels, withoutRepeats } from '#lib/faces/rules/search-tiles';

describe('the tiles of the second pass', () => {
  it.each([
    [
      'a 3:2 landscape photo',
      2048,
      1365,
      [
        { left: 0, top: 0, size: 1365 },
        { left: 683, top: 0, size: 1365 },
      ],
    ],
    [
      'a 2:3 portrait photo',
      1365,
      2048,
      [
        { left: 0, top: 0, size: 1365 },
        { left: 0, top: 683, size: 1365 },
      ],
    ],
    ['a square photo', 1024, 1024, [{ left: 0, top: 0, size: 1024 }]],
    [
      'a 16:9 photo',
      2048,
      1152,
      [
        { left: 0, top: 0, size: 1152 },
        { left: 448, top: 0, size: 1152 },
        { left: 896, top: 0, size: 1152 },
      ],
    ],
  ])(
    'cuts %s into squares of its shorter side, at most half a square apart, from end to end',
    (_case, width, height, tiles) => {
      expect(searchTiles(width, height)).toEqual(tiles);
    },
  );

  it('holds every face narrower than half the shorter side whole in one tile', () => {
    // Prepare
    const [width, height] = [2048, 1152];
    const tiles = searchTiles(width, height);
    const faceWidth = height / 2;

    // Act and assess
    for (let x = 0; x + faceWidth <= width; x += 7) {
      const holding = tiles.filter((tile) => x >= tile.left && x + faceWidth <= tile.left + tile.size);
      expect({ x, holding: holding.length > 0 }).toEqual({ x, holding: true });
    }
  });

  it('calls a face cut where a tile ends inside the image, not where the image ends', () => {
    const image = { width: 2048, height: 1365 };
    const [first, second] = searchTiles(image.width, image.height) as [
      ReturnType<typeof searchTiles>[0],
      ReturnType<typeof searchTiles>[0],
    ];

    expect(isCutByTile({ x: 1300, y: 400, width: 65, height: 80 }, first, image)).toBe(true);
    expect(isCutByTile({ x: 683, y: 400, width: 100, height: 80 }, second, image)).toBe(true);
    expect(isCutByTile({ x: 0, y: 0, width: 100, height: 120 }, first, image)).toBe(false);
    expect(isCutByTile({ x: 1948, y: 1245, width: 100, height: 120 }, second, image)).toBe(false);
    expect(isCutByTile({ x: 900, y: 400, width: 100, height: 120 }, first, image)).toBe(false);
  });

  it('keeps each face once, the first of those sharing more than half of the smaller box', () => {
    const tile = { box: { x: 100, y: 100, width: 50, height: 60 }, score: 0.6, from: 'tile' };
    const first = { box: { x: 110, y: 105, width: 45, height: 55 }, score: 0.9, from: 'first' };
    const neighbour = { box: { x: 140, y: 100, width: 50, height: 60 }, score: 0.8, from: 'neighbour' };

    expect(withoutRepeats([tile, first, neighbour]).map((face) => face.from)).toEqual(['tile', 'neighbour']);
  });

  describe('the pixels the detector is shown', () => {
    /** A 4 × 2 image whose every pixel's three bytes say where it is: 10 × row + column. */
    const image = {
      width: 4,
      height: 2,
      pixels: Buffer.from([0, 1, 2, 3, 10, 11, 12, 13].flatMap((at) => [at, at, at])),
    };
    const at = (shown: { pixels: Buffer; width: number }, x: number, y: number) =>
      shown.pixels[(y * shown.width + x) * 3];

    it('gives a tile its own square of pixels', () => {
      const shown = viewPixels(image, { kind: 'tile', tile: { left: 2, top: 0, size: 2 } });

      expect([shown.width, shown.height, shown.pixels.length]).toEqual([2, 2, 12]);
      expect([at(shown, 0, 0), at(shown, 1, 0), at(shown, 0, 1), at(shown, 1, 1)]).toEqual([2, 3, 12, 13]);
    });

    it('zooms out by putting the image at the top left of a black square one and a half times its longer side', () => {
      const shown = viewPixels(image, { kind: 'zoomed-out' });

      expect([shown.width, shown.height]).toEqual([6, 6]);
      expect([at(shown, 0, 0), at(shown, 3, 0), at(shown, 2, 1), at(shown, 3, 1)]).toEqual([0, 3, 12, 13]);
      expect([at(shown, 4, 0), at(shown, 0, 2), at(shown, 5, 5)]).toEqual([0, 0, 0]);
      expect(shown.pixels.subarray(2 * 6 * 3).every((byte) => byte === 0)).toBe(true);
    });
  });
});
