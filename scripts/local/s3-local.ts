import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import S3rver from 's3rver';
import type { S3Event } from 'aws-lambda';
import { freePort } from './free-port';

export interface RunningS3 {
  endpoint: string;
  stop(): Promise<void>;
}

/**
 * A local S3-compatible server (s3rver) with the given buckets. Objects live under
 * `directory`, or in a temporary folder removed on stop.
 */
export async function startS3Local(options: {
  buckets: string[];
  directory?: string;
  port?: number;
  /** Receives S3-shaped event notifications (ObjectCreated:Put, …) for every bucket. */
  onEvent?: (event: S3Event) => void;
}): Promise<RunningS3> {
  const temporary = options.directory ? undefined : mkdtempSync(join(tmpdir(), 'groupshoot-s3-'));
  const port = options.port ?? (await freePort());
  const server = new S3rver({
    address: '127.0.0.1',
    port,
    silent: true,
    directory: options.directory ?? temporary,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [] })),
  });
  refuseUnknownUploadsAndParts(server);
  deleteFoldersWithoutRacing(server);
  continueListingsWithoutDes(server);
  // S3rver is a Koa application; its typings omit the EventEmitter side.
  if (options.onEvent) {
    (server as unknown as NodeJS.EventEmitter).on('event', (event: S3Event) =>
      options.onEvent?.(asS3Notification(event)),
    );
  }
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: async () => {
      await server.close();
      if (temporary) rmSync(temporary, { recursive: true, force: true });
    },
  };
}

/** s3rver's error type: thrown from its store, it is answered as S3 answers that code. */
const S3Error = createRequire(__filename)('s3rver/lib/models/error') as new (code: string, message: string) => Error;

interface MultipartStore {
  getResourcePath(bucket: string, key: undefined, resource: string): string;
  putObjectMultipart(bucket: string, uploadId: string, parts: { number: number; etag: string }[]): Promise<unknown>;
}

/**
 * Completing a multipart upload as S3 does: an upload it does not know is NoSuchUpload, a part
 * it does not have or whose ETag differs is InvalidPart (the service reports both per file).
 * s3rver reads the upload's folder without looking and fails with a 500 instead, and an upload
 * ID is a folder name to it (it makes them of 32 hexadecimal digits).
 */
function refuseUnknownUploadsAndParts(server: S3rver): void {
  const store = (server as unknown as { store: MultipartStore }).store;
  const complete = store.putObjectMultipart.bind(store);
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const folder = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    if (!/^[0-9a-f]{32}$/.test(uploadId) || !existsSync(join(folder, 'key'))) {
      throw new S3Error(
        'NoSuchUpload',
        'The specified upload does not exist. The upload ID may be invalid, or the upload may have been aborted or completed.',
      );
    }
    for (const part of parts) {
      const checksum = join(folder, `${part.number}.md5`);
      if (!existsSync(checksum) || readFileSync(checksum, 'utf8') !== part.etag) {
        throw new S3Error(
          'InvalidPart',
          "One or more of the specified parts could not be found. The part may not have been uploaded, or the specified entity tag may not match the part's entity tag.",
        );
      }
    }
    return complete(bucket, uploadId, parts);
  };
}

interface DeletingStore {
  deleteObject(bucket: string, key: string): Promise<void>;
}

/**
 * S3 has no folders; s3rver keeps each key's files in folders and removes a folder once it is
 * empty. Deleting several keys of one folder at once (one DeleteObjects call: it deletes them all
 * in parallel) lets two deletions both find the folder empty, and the second removal fails
 * (ENOENT) or meets a file written meanwhile (ENOTEMPTY): a 500 "internal error" that S3 never
 * answers. The key's own files are gone before the folders are looked at, so either error only
 * means another request tidied up first.
 */
function deleteFoldersWithoutRacing(server: S3rver): void {
  const store = (server as unknown as { store: DeletingStore }).store;
  const deleteObject = store.deleteObject.bind(store);
  store.deleteObject = async (bucket, key) => {
    try {
      await deleteObject(bucket, key);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'ENOTEMPTY') throw error;
    }
  };
}

interface ListingStore {
  listObjects(bucket: string, options: object): Promise<{ objects: { key: string }[]; isTruncated: boolean }>;
}

interface ListingContext {
  method: string;
  query: Record<string, string | string[] | undefined>;
  store: ListingStore;
  body?: { ListBucketResult?: Record<string, unknown> };
}

/**
 * s3rver seals the continuation token of a ListObjectsV2 page with DES, which OpenSSL 3 (Node 17
 * and later) no longer offers: every truncated listing (more keys than MaxKeys, at most 1,000)
 * failed with a 500 "internal error" that S3 never answers. Here the token is the last key
 * listed, base64url-encoded (opaque to a client, as S3's is), and the next page lists after that
 * key: what s3rver's token holds. Runs just before s3rver's routes, after its XML encoding.
 */
function continueListingsWithoutDes(server: S3rver): void {
  const middleware = (server as unknown as { middleware: unknown[] }).middleware;
  const listWithPlainTokens = async (context: ListingContext, next: () => Promise<void>) => {
    if (context.method !== 'GET' || context.query['list-type'] !== '2') return next();
    const token = context.query['continuation-token'];
    if (typeof token === 'string') {
      const { 'continuation-token': _token, ...query } = context.query;
      context.query = { ...query, 'start-after': Buffer.from(token, 'base64url').toString('utf8') };
    }
    const store = context.store;
    let lastKeyOfTruncatedPage: string | undefined;
    context.store = Object.assign(Object.create(store) as ListingStore, {
      listObjects: async (bucket: string, options: object) => {
        const page = await store.listObjects(bucket, options);
        lastKeyOfTruncatedPage = page.isTruncated ? page.objects.at(-1)?.key : undefined;
        return { ...page, isTruncated: false };
      },
    });
    await next();
    const listing = context.body?.ListBucketResult;
    if (!listing) return;
    if (typeof token === 'string') Object.assign(listing, { ContinuationToken: token, StartAfter: undefined });
    if (lastKeyOfTruncatedPage !== undefined) {
      listing.IsTruncated = true;
      listing.NextContinuationToken = Buffer.from(lastKeyOfTruncatedPage, 'utf8').toString('base64url');
    }
  };
  middleware.splice(middleware.length - 1, 0, listWithPlainTokens);
}

/** S3 URL-encodes keys in notifications (spaces as +); s3rver sends them raw. */
function asS3Notification(event: S3Event): S3Event {
  return {
    Records: event.Records.map((record) => ({
      ...record,
      s3: {
        ...record.s3,
        object: {
          ...record.s3.object,
          key: record.s3.object.key
            .split('/')
            .map((segment) => encodeURIComponent(segment).replace(/%20/g, '+'))
            .join('/'),
        },
      },
    })),
  };
}
