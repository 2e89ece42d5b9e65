import { ListObjectVersionsCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { type StoredObjectVersion, mediaBucket, s3 } from '#lib/platform/media-bucket';

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
    const page = await s3.send(
      new ListObjectVersionsCommand({
        Bucket: mediaBucket,
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
  let startAfter: string | undefined;
  for (;;) {
    // StartAfter, not a continuation token: what `visit` deleted must not shift the next page.
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: mediaBucket,
        Prefix: prefix,
        StartAfter: startAfter,
        MaxKeys: VERSION_PAGE_SIZE,
      }),
    );
    const objects = (page.Contents ?? [])
      .filter((entry) => entry.Key !== undefined)
      .map((entry) => ({ key: entry.Key! }));
    if (objects.length > 0 && (await visit(objects)) === 'stop') return;
    if (!page.IsTruncated || objects.length === 0) return;
    startAfter = objects.at(-1)!.key;
  }
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
