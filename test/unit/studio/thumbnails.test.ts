import sharp from 'sharp';
import { ThumbnailCache } from '../../../scripts/studio/thumbnails';
import { makeJpeg } from '../../support/media';

/** A bucket of named objects that counts its reads. */
function bucketOf(objects: Record<string, Uint8Array>) {
  const reads: string[] = [];
  return {
    reads,
    read: async (key: string) => {
      reads.push(key);
      return objects[key];
    },
  };
}

describe('studio thumbnails', () => {
  it('makes one small upright JPEG per photo however many views ask for it at once', async () => {
    // Prepare
    const bucket = bucketOf({ 'a.jpg': makeJpeg(800, 1200) });
    const cache = new ThumbnailCache(bucket.read);
    // Act
    const [first, second] = await Promise.all([cache.get('a.jpg'), cache.get('a.jpg')]);
    const third = await cache.get('a.jpg');
    // Assess
    expect(bucket.reads).toEqual(['a.jpg']);
    expect(first).toBe(second);
    expect(third).toBe(first);
    const drawn = await sharp(first!).metadata();
    expect([drawn.format, drawn.width, drawn.height, drawn.exif]).toEqual(['jpeg', 213, 320, undefined]);
  });

  it('keeps at most its capacity, dropping the photo viewed longest ago', async () => {
    // Prepare
    const image = makeJpeg(40, 30);
    const bucket = bucketOf({ a: image, b: image, c: image });
    const cache = new ThumbnailCache(bucket.read, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a');
    // Act
    await cache.get('c');
    await cache.get('a');
    await cache.get('b');
    // Assess
    expect(bucket.reads).toEqual(['a', 'b', 'c', 'b']);
  });

  it('answers undefined for a missing object or one that is not an image, and tries again on the next view', async () => {
    // Prepare
    const bucket = bucketOf({ text: Buffer.from('not an image') });
    const cache = new ThumbnailCache(bucket.read);
    // Act
    const missing = await cache.get('gone');
    const text = await cache.get('text');
    await cache.get('gone');
    // Assess
    expect([missing, text]).toEqual([undefined, undefined]);
    expect(bucket.reads).toEqual(['gone', 'text', 'gone']);
  });
});
