/**
 * Thumbnails of shoot photos for the review queue: made with sharp on first view (upright, at
 * most 320 px a side, JPEG, no metadata) and kept in this process's memory, at most
 * THUMBNAIL_CACHE_SIZE of them (the oldest view goes first). Not in the bucket: a key outside the
 * media folders that erasure and gallery deletion know would outlive the photo (docs/studio.md).
 * The browser never receives the full-size photo; the console downloads it once per thumbnail.
 */
import sharp from 'sharp';

export const THUMBNAIL_SIZE = 320;
export const THUMBNAIL_CACHE_SIZE = 2000;

/** Reads an object of the media bucket; undefined when it is not there. */
export type ObjectReader = (key: string) => Promise<Uint8Array | undefined>;

/** The bucket's reader, loaded only when a thumbnail is first asked for (lib/platform/media-bucket.ts needs MEDIA_BUCKET on import). */
export const bucketReader: ObjectReader = async (key) => (await (await import('#lib/platform/media-bucket')).findMediaObject(key))?.bytes;

export async function makeThumbnail(bytes: Uint8Array): Promise<Buffer> {
  return sharp(bytes).rotate().resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 72 }).toBuffer();
}

export class ThumbnailCache {
  /** By object key; a promise, so that two views of one photo make one thumbnail. */
  private readonly thumbnails = new Map<string, Promise<Buffer | undefined>>();

  constructor(
    private readonly read: ObjectReader = bucketReader,
    private readonly capacity = THUMBNAIL_CACHE_SIZE,
  ) {}

  /** The thumbnail of the object at `key`; undefined when the object is gone or is not an image. */
  get(key: string): Promise<Buffer | undefined> {
    const cached = this.thumbnails.get(key);
    if (cached) {
      // Seen again: to the back of the queue.
      this.thumbnails.delete(key);
      this.thumbnails.set(key, cached);
      return cached;
    }
    const made = this.make(key);
    this.thumbnails.set(key, made);
    if (this.thumbnails.size > this.capacity) this.thumbnails.delete(this.thumbnails.keys().next().value!);
    // A failure is not kept: the next view tries again.
    made.then((thumbnail) => thumbnail === undefined && this.thumbnails.delete(key)).catch(() => this.thumbnails.delete(key));
    return made;
  }

  private async make(key: string): Promise<Buffer | undefined> {
    const bytes = await this.read(key);
    if (!bytes) return undefined;
    try {
      return await makeThumbnail(bytes);
    } catch {
      return undefined;
    }
  }
}
