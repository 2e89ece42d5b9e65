import {
  DeleteObjectCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectVersionsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { Readable } from 'node:stream';
import { optionalEnv, requireEnv } from '#lib/platform/config';
import { MAX_WHOLE_OBJECT_BYTES } from '#lib/platform/byte-sizes';

const endpoint = optionalEnv('S3_ENDPOINT');
let bucket: string | undefined;
let client: S3Client | undefined;

/**
 * The bucket of selfies and photos (MEDIA_BUCKET), read when first asked: a function that
 * imports this module only for a path it rarely takes creates no client at cold start.
 */
export function mediaBucket(): string {
  bucket ??= requireEnv('MEDIA_BUCKET');
  return bucket;
}

/** The one S3 client of the bucket, created on first use. S3_ENDPOINT points at a local S3 server (path-style). */
export function mediaS3(): S3Client {
  client ??= new S3Client({
    endpoint,
    forcePathStyle: endpoint !== undefined,
    maxAttempts: 3,
    // A call whose connection stays silent for 5 s is cut off and retried: 3 attempts stay within
    // the 29 s function timeout.
    requestHandler: { socketTimeout: 5000 },
  });
  return client;
}

/** What every write asks of S3's encryption: the deployed bucket's managed keys; the local S3 server takes none. */
export const MEDIA_SERVER_SIDE_ENCRYPTION = endpoint === undefined ? ('AES256' as const) : undefined;

/** Stores an object; answers the version it created (none on a bucket without versioning). */
export async function putMediaObject(
  key: string,
  body: Uint8Array,
  contentType: string,
  metadata: Record<string, string> = {},
): Promise<string | undefined> {
  const { VersionId } = await mediaS3().send(
    new PutObjectCommand({
      Bucket: mediaBucket(),
      Key: key,
      Body: body,
      ContentType: contentType,
      Metadata: metadata,
      ServerSideEncryption: MEDIA_SERVER_SIDE_ENCRYPTION,
    }),
  );
  return VersionId;
}

export async function mediaObjectMetadata(key: string): Promise<Record<string, string>> {
  const head = await mediaS3().send(new HeadObjectCommand({ Bucket: mediaBucket(), Key: key }));
  return head.Metadata ?? {};
}

/** The first bytes of an object, enough for an image's header. */
export async function mediaObjectHead(key: string, bytes: number): Promise<Uint8Array> {
  const object = await mediaS3().send(
    new GetObjectCommand({ Bucket: mediaBucket(), Key: key, Range: `bytes=0-${bytes - 1}` }),
  );
  return object.Body ? object.Body.transformToByteArray() : new Uint8Array();
}

/**
 * Deletes an object. With a version ID, that version for good (no delete marker is left);
 * without, the current object, which on a versioned bucket only hides it behind a delete marker.
 */
export async function deleteMediaObject(key: string, versionId?: string): Promise<void> {
  await mediaS3().send(new DeleteObjectCommand({ Bucket: mediaBucket(), Key: key, VersionId: versionId }));
}

/** One stored version of an object (or a delete marker); no versionId on a bucket without versioning. */
export interface StoredObjectVersion {
  key: string;
  versionId?: string;
}

/**
 * Every version and delete marker of every object under `prefix`. The deployed bucket is
 * versioned; a server without versioning (the local S3 server answers MethodNotAllowed)
 * has one version per object, its current one.
 */
export async function listObjectVersions(prefix: string): Promise<StoredObjectVersion[]> {
  const versions: StoredObjectVersion[] = [];
  await forEachObjectVersionPage(prefix, (page) => {
    versions.push(...page);
  });
  return versions;
}

/** What is done with one list of versions; 'stop' ends the listing there. */
type VersionVisitor = (versions: StoredObjectVersion[]) => Promise<void | 'stop'> | void | 'stop';

/** S3 lists at most this many versions (or objects) per request. */
export const VERSION_PAGE_SIZE = 1000;

/**
 * Every object version and delete marker under `prefix`, a list of up to VERSION_PAGE_SIZE at a
 * time: each page is handed to `visit` before the next is listed (it may delete what it was given;
 * the listing goes on after the last key listed), so that a gallery's objects never sit in memory
 * whole. On a server without versioning (the local S3 server), its current objects, a page at a time.
 */
export async function forEachObjectVersionPage(prefix: string, visit: VersionVisitor): Promise<void> {
  try {
    await forEachVersionPage(prefix, visit);
  } catch (error) {
    if (!['MethodNotAllowed', 'NotImplemented'].includes((error as Error).name)) throw error;
    await forEachCurrentObjectPage(prefix, visit);
  }
}

async function forEachVersionPage(prefix: string, visit: VersionVisitor): Promise<void> {
  let keyMarker: string | undefined;
  let versionIdMarker: string | undefined;
  do {
    const page = await mediaS3().send(
      new ListObjectVersionsCommand({
        Bucket: mediaBucket(),
        Prefix: prefix,
        KeyMarker: keyMarker,
        VersionIdMarker: versionIdMarker,
        MaxKeys: VERSION_PAGE_SIZE,
      }),
    );
    const versions = [...(page.Versions ?? []), ...(page.DeleteMarkers ?? [])]
      .filter((entry) => entry.Key !== undefined)
      .map((entry) => ({ key: entry.Key!, versionId: entry.VersionId }));
    if (versions.length > 0 && (await visit(versions)) === 'stop') return;
    keyMarker = page.IsTruncated ? page.NextKeyMarker : undefined;
    versionIdMarker = page.IsTruncated ? page.NextVersionIdMarker : undefined;
  } while (keyMarker !== undefined);
}

async function forEachCurrentObjectPage(prefix: string, visit: VersionVisitor): Promise<void> {
  let token: string | undefined;
  do {
    const page = await mediaS3().send(
      new ListObjectsV2Command({
        Bucket: mediaBucket(),
        Prefix: prefix,
        ContinuationToken: token,
        MaxKeys: VERSION_PAGE_SIZE,
      }),
    );
    const objects = (page.Contents ?? [])
      .filter((entry) => entry.Key !== undefined)
      .map((entry) => ({ key: entry.Key! }));
    if (objects.length > 0 && (await visit(objects)) === 'stop') return;
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
}

/** Whether anything (an object, a version, a delete marker) is stored under `prefix`: one list. */
export async function hasObjectsUnder(prefix: string): Promise<boolean> {
  let found = false;
  await forEachObjectVersionPage(prefix, () => {
    found = true;
    return 'stop';
  });
  return found;
}

/**
 * The keys under `prefix` that sort after `startAfter`, in order, for as long as `within` holds:
 * one list call per 1,000 keys, and none beyond the first key outside the range.
 */
export async function listKeysInRange(
  prefix: string,
  startAfter: string,
  within: (key: string) => boolean,
): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await mediaS3().send(
      new ListObjectsV2Command({
        Bucket: mediaBucket(),
        Prefix: prefix,
        StartAfter: startAfter,
        ContinuationToken: token,
      }),
    );
    for (const entry of page.Contents ?? []) {
      if (!entry.Key) continue;
      if (!within(entry.Key)) return keys;
      keys.push(entry.Key);
    }
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token !== undefined);
  return keys;
}

/** S3 deletes at most this many objects per request. */
const DELETE_BATCH = 1000;

/** Deletes the given versions for good (a versioned delete leaves no delete marker and no older version). */
export async function deleteObjectVersions(versions: readonly StoredObjectVersion[]): Promise<void> {
  for (let start = 0; start < versions.length; start += DELETE_BATCH) {
    const batch = versions.slice(start, start + DELETE_BATCH);
    const result = await mediaS3().send(
      new DeleteObjectsCommand({
        Bucket: mediaBucket(),
        Delete: { Objects: batch.map((version) => ({ Key: version.key, VersionId: version.versionId })), Quiet: true },
      }),
    );
    if (result.Errors && result.Errors.length > 0) {
      throw new Error(
        `S3 refused to delete ${result.Errors.length} object version(s): ${result.Errors[0]?.Code ?? 'unknown error'}`,
      );
    }
  }
}

/** An object larger than the caller reads whole: refused before its body is read. */
export class MediaObjectTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`The object is larger than ${maxBytes} bytes`);
    this.name = 'MediaObjectTooLargeError';
  }
}

/** A whole object with its user metadata; undefined when there is no such object (deleted meanwhile). */
export async function findMediaObject(
  key: string,
  maxBytes = MAX_WHOLE_OBJECT_BYTES,
): Promise<{ bytes: Uint8Array; metadata: Record<string, string> } | undefined> {
  try {
    return await getMediaObject(key, maxBytes);
  } catch (error) {
    if ((error as Error).name === 'NoSuchKey') return undefined;
    throw error;
  }
}

/**
 * A whole object with its user metadata. More than `maxBytes` is refused with
 * MediaObjectTooLargeError: by the announced Content-Length before the body is read, and by
 * counting while it is read (a length S3 did not announce).
 */
export async function getMediaObject(
  key: string,
  maxBytes = MAX_WHOLE_OBJECT_BYTES,
): Promise<{ bytes: Uint8Array; metadata: Record<string, string> }> {
  const object = await mediaS3().send(new GetObjectCommand({ Bucket: mediaBucket(), Key: key }));
  const body = object.Body as (Readable & AsyncIterable<Uint8Array>) | undefined;
  if (object.ContentLength !== undefined && object.ContentLength > maxBytes) {
    body?.destroy();
    throw new MediaObjectTooLargeError(maxBytes);
  }
  return { bytes: body ? await readAtMost(body, maxBytes) : new Uint8Array(), metadata: object.Metadata ?? {} };
}

async function readAtMost(body: Readable & AsyncIterable<Uint8Array>, maxBytes: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of body) {
    length += chunk.length;
    // Leaving the loop destroys the stream, so the rest is never downloaded.
    if (length > maxBytes) throw new MediaObjectTooLargeError(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/** The versions of exactly this object (a prefix listing would also match longer keys). */
export async function exactObjectVersions(key: string): Promise<StoredObjectVersion[]> {
  return (await listObjectVersions(key)).filter((version) => version.key === key);
}

/** Deletes an object with every version of it, for good. */
export async function deleteObjectForGood(key: string): Promise<void> {
  await deleteObjectVersions(await exactObjectVersions(key));
}
