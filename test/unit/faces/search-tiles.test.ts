import { isCutByTile, searchTiles, withoutRepeats } from '#lib/faces/rules/search-tiles';

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
});
