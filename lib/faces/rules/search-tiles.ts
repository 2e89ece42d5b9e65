/**
 * The second look describeFaces takes at a photo whose first search found no face or only a
 * small one: the photo cut into overlapping squares, each searched on its own
 * (docs/photos.md#detection-by-framing).
 */
import type { FaceBox } from '#lib/faces/rules/face-descriptors';

export interface SearchTile {
  left: number;
  top: number;
  /** A tile is a square of the image's shorter side. */
  size: number;
}

/**
 * Squares of the image's shorter side along its longer one, at most half a square apart, the
 * first at the start and the last at the end: a 3:2 photo gives two that overlap by half, so
 * any face narrower than half the shorter side lies whole in one of them. The detector sees
 * each square as it sees a whole photo (shrunk to 512 × 512), so a face is 1.5 times larger
 * to it in a tile of a 3:2 photo than in the photo; a square photo gives one tile, itself.
 */
export function searchTiles(width: number, height: number): SearchTile[] {
  const size = Math.min(width, height);
  const length = Math.max(width, height);
  // Less a pixel or two: a 3:2 photo's sides, rounded, are a hair more than one and a half squares.
  const count = Math.max(0, Math.ceil((length - size - 2) / (size / 2))) + 1;
  const step = count > 1 ? (length - size) / (count - 1) : 0;
  return Array.from({ length: count }, (_, index) => {
    const offset = Math.round(index * step);
    return width >= height ? { left: offset, top: 0, size } : { left: 0, top: offset, size };
  });
}

/**
 * Whether a box found in a tile runs into one of the tile's edges inside the image: that face is
 * cut, and the neighbouring tile, which overlaps by at least half a square, holds it whole.
 */
export function isCutByTile(box: FaceBox, tile: SearchTile, image: { width: number; height: number }): boolean {
  const slack = 2;
  return (
    (tile.left > 0 && box.x <= tile.left + slack) ||
    (tile.top > 0 && box.y <= tile.top + slack) ||
    (tile.left + tile.size < image.width && box.x + box.width >= tile.left + tile.size - slack) ||
    (tile.top + tile.size < image.height && box.y + box.height >= tile.top + tile.size - slack)
  );
}

/**
 * Each face once, though overlapping tiles and both searches may find it: of boxes that share
 * more than half of the smaller one, the first in `faces` is kept.
 */
export function withoutRepeats<T extends { box: FaceBox }>(faces: readonly T[]): T[] {
  const kept: T[] = [];
  for (const face of faces) if (!kept.some((other) => sharedShare(face.box, other.box) > 0.5)) kept.push(face);
  return kept;
}

/** The area two boxes share, as a share of the smaller one. */
function sharedShare(a: FaceBox, b: FaceBox): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (width <= 0 || height <= 0) return 0;
  return (width * height) / Math.min(a.width * a.height, b.width * b.height);
}

/**
 * How much smaller the second pass shows the photo when the first found no face at all: a face
 * filling most of the frame scores below the threshold, and found at two thirds of that size.
 */
const ZOOMED_OUT = 1.5;

/** What the detector is shown of a decoded image: all of it, a tile, or all of it on a larger black square. */
export type SearchView = { kind: 'whole' } | { kind: 'tile'; tile: SearchTile } | { kind: 'zoomed-out' };

/** RGB pixels, three bytes each, row by row. */
export interface RgbImage {
  pixels: Buffer;
  width: number;
  height: number;
}

/**
 * The RGB pixels of a view, copied row by row: TensorFlow.js's own slice took 0.2 to 0.5 s on a
 * tile of a 24 MP photo on the WebAssembly backend (on a busy machine), a copy a few milliseconds.
 */
export function viewPixels(decoded: RgbImage, view: SearchView): RgbImage {
  if (view.kind === 'whole') return decoded;
  const rowBytes = decoded.width * 3;
  if (view.kind === 'tile') {
    const { left, top, size } = view.tile;
    const pixels = Buffer.allocUnsafe(size * size * 3);
    for (let row = 0; row < size; row += 1) {
      const start = (top + row) * rowBytes + left * 3;
      decoded.pixels.copy(pixels, row * size * 3, start, start + size * 3);
    }
    return { pixels, width: size, height: size };
  }
  // Black below and to the right, where face-api pads a photo to a square itself: boxes keep their coordinates.
  const side = Math.round(Math.max(decoded.width, decoded.height) * ZOOMED_OUT);
  const pixels = Buffer.alloc(side * side * 3);
  for (let row = 0; row < decoded.height; row += 1)
    decoded.pixels.copy(pixels, row * side * 3, row * rowBytes, (row + 1) * rowBytes);
  return { pixels, width: side, height: side };
}
