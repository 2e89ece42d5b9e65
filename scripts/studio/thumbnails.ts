/**
 * Thumbnails of photos for the studio console: those ingest stored (shoot photos and cards,
 * lib/photos/sorting/adapters/shoot-thumbnails.ts) read from the bucket, the others made with sharp on first view (upright, at most
 * THUMBNAIL_SIZE px a side, JPEG, no metadata), stored in the media bucket beside the other
 * derived media (lib/platform/media-keys.ts thumbnailKey: erasure deletes them with their photo,
 * a lifecycle rule after 30 days), and kept in this process's memory, at most
 * THUMBNAIL_CACHE_SIZE of them (the oldest view goes first). A later start of the console takes
 * the stored ones. The browser never receives the full-size photo; the console downloads it once
 * per thumbnail made.
 */
import { thumbnailKey } from '#lib/platform/media-keys';
import { THUMBNAIL_SIZE, makeThumbnail } from '#lib/photos/sorting/adapters/shoot-thumbnails';

export { THUMBNAIL_SIZE };
export const THUMBNAIL_CACHE_SIZE = 2000;

/** The objects thumbnails are made of, and where they are kept. */
export interface ThumbnailStore {
  /** An object of the media bucket; undefined when it is not there. */
  read(key: string): Promise<Uint8Array | undefined>;
  write(key: string, thumbnail: Buffer): Promise<void>;
}

/** lib/platform/media-bucket.ts needs MEDIA_BUCKET on import: loaded only when a thumbnail is first asked for. */
const mediaBucket = () => import('#lib/platform/media-bucket');

const bucketStore: ThumbnailStore = {
  read: async (key) => (await (await mediaBucket()).findMediaObject(key))?.bytes,
  write: async (key, thumbnail) => {
    await (await mediaBucket()).putMediaObject(key, thumbnail, 'image/jpeg');
  },
};

export class ThumbnailCache {
  /** By object key; a promise, so that two views of one photo make one thumbnail. */
  private readonly thumbnails = new Map<string, Promise<Buffer | undefined>>();

  constructor(
    private readonly store: ThumbnailStore = bucketStore,
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
    made
      .then((thumbnail) => thumbnail === undefined && this.thumbnails.delete(key))
      .catch(() => this.thumbnails.delete(key));
    return made;
  }

  private async make(key: string): Promise<Buffer | undefined> {
    const storedAt = thumbnailKey(key, THUMBNAIL_SIZE);
    const stored = await this.store.read(storedAt);
    if (stored) return Buffer.from(stored);
    const bytes = await this.store.read(key);
    if (!bytes) return undefined;
    let thumbnail: Buffer;
    try {
      thumbnail = await makeThumbnail(bytes);
    } catch {
      return undefined;
    }
    // Credentials without PutObject on thumbnails/ still get their thumbnail, made again at the next start.
    await this.store.write(storedAt, thumbnail).catch(() => undefined);
    return thumbnail;
  }
}
