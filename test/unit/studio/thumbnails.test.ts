import sharp from 'sharp';
import { thumbnailKey } from '#lib/platform/media-keys';
import { THUMBNAIL_SIZE, ThumbnailCache } from '../../../scripts/studio/thumbnails';
import { makeJpeg } from '../../support/media';

/** A bucket of named objects that records its reads and writes (the S3 side has its own test: test/integration/studio-thumbnails.test.ts). */
function bucketOf(objects: Record<string, Uint8Array>) {
  const reads: string[] = [];
  const writes: string[] = [];
  return {
    reads,
    writes,
    /** The reads of originals, leaving out the looks for a stored thumbnail. */
    originalReads: () => reads.filter((key) => !key.startsWith('thumbnails/')),
    read: async (key: string) => {
      reads.push(key);
      return objects[key];
    },
    write: async (key: string, thumbnail: Buffer) => {
      writes.push(key);
      objects[key] = thumbnail;
    },
  };
}

const stored = (key: string) => thumbnailKey(key, THUMBNAIL_SIZE);

describe('studio thumbnails', () => {
  it('makes one small upright JPEG per photo however many views ask for it at once, and stores it', async () => {
    // Prepare
    const bucket = bucketOf({ 'a.jpg': makeJpeg(800, 1200) });
    const cache = new ThumbnailCache(bucket);
    // Act
    const [first, second] = await Promise.all([cache.get('a.jpg'), cache.get('a.jpg')]);
    const third = await cache.get('a.jpg');
    // Assess
    expect(bucket.reads).toEqual([stored('a.jpg'), 'a.jpg']);
    expect(bucket.writes).toEqual([stored('a.jpg')]);
    expect(first).toBe(second);
    expect(third).toBe(first);
    const drawn = await sharp(first).metadata();
    expect([drawn.format, drawn.width, drawn.height, drawn.exif]).toEqual(['jpeg', 213, 320, undefined]);
  });

  it('takes a stored thumbnail without reading the photo', async () => {
    // Prepare: an earlier start of the console stored it
    const bucket = bucketOf({ 'a.jpg': makeJpeg(800, 1200) });
    const made = await new ThumbnailCache(bucket).get('a.jpg');
    bucket.reads.length = 0;
    // Act
    const again = await new ThumbnailCache(bucket).get('a.jpg');
    // Assess
    expect(bucket.reads).toEqual([stored('a.jpg')]);
    expect(again).toEqual(made);
  });

  it('keeps at most its capacity in memory, dropping the photo viewed longest ago', async () => {
    // Prepare
    const image = makeJpeg(40, 30);
    const bucket = bucketOf({ a: image, b: image, c: image });
    const cache = new ThumbnailCache(bucket, 2);
    await cache.get('a');
    await cache.get('b');
    await cache.get('a');
    // Act
    await cache.get('c');
    await cache.get('a');
    await cache.get('b');
    // Assess: b was dropped from memory and taken from the store again
    expect(bucket.reads).toEqual([stored('a'), 'a', stored('b'), 'b', stored('c'), 'c', stored('b')]);
  });

  it('answers undefined for a missing object or one that is not an image, stores nothing, and tries again on the next view', async () => {
    // Prepare
    const bucket = bucketOf({ text: Buffer.from('not an image') });
    const cache = new ThumbnailCache(bucket);
    // Act
    const missing = await cache.get('gone');
    const text = await cache.get('text');
    await cache.get('gone');
    // Assess
    expect([missing, text]).toEqual([undefined, undefined]);
    expect(bucket.originalReads()).toEqual(['gone', 'text', 'gone']);
    expect(bucket.writes).toEqual([]);
  });

  it('still answers the thumbnail when it cannot be stored', async () => {
    // Prepare
    const bucket = bucketOf({ 'a.jpg': makeJpeg(64, 48) });
    const cache = new ThumbnailCache({
      read: bucket.read,
      write: async () => Promise.reject(new Error('AccessDenied')),
    });
    // Act
    const thumbnail = await cache.get('a.jpg');
    // Assess
    expect((await sharp(thumbnail).metadata()).format).toBe('jpeg');
  });
});
