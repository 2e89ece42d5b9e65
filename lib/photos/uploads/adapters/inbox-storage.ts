import type { S3Client } from '@aws-sdk/client-s3';
import { optionalEnv } from '#lib/platform/config';

/**
 * The S3 side of uploads through the API: presigned PUT and UploadPart URLs, and the multipart
 * calls that need the service's credentials (create, complete, abort). Every call names one
 * object key the use case built from the caller's tenant; nothing here chooses a key.
 * The S3 SDK and its clients load on the first call, not at cold start: the upload functions
 * first read the gallery from the table, and an answer refused there needs no S3 at all.
 */

const endpoint = optionalEnv('S3_ENDPOINT');

const s3Sdk = () => import('@aws-sdk/client-s3');
const bucket = () => import('#lib/platform/media-bucket');
let presigner: S3Client | undefined;

/**
 * The SDK, the presigner and its client. It presigns without the SDK's default body checksum:
 * that would sign the checksum of an empty body into the URL, and S3 would refuse the photo's bytes.
 */
async function presigning() {
  const [sdk, { getSignedUrl }, { mediaBucket }] = await Promise.all([
    s3Sdk(),
    import('@aws-sdk/s3-request-presigner'),
    bucket(),
  ]);
  presigner ??= new sdk.S3Client({
    endpoint,
    forcePathStyle: endpoint !== undefined,
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  return { sdk, getSignedUrl, client: presigner, bucket: mediaBucket() };
}

/** User metadata as S3 stores it: `captured-at`, `camera`. */
export type ObjectMetadata = Record<string, string>;

/** The headers a presigned PUT must carry exactly: they are part of its signature. */
export function signedPutHeaders(contentType: string, metadata: ObjectMetadata): Record<string, string> {
  const headers: Record<string, string> = { 'Content-Type': contentType };
  for (const [name, value] of Object.entries(metadata)) headers[`x-amz-meta-${name}`] = value;
  return headers;
}

/** A PUT URL for exactly `size` bytes of `contentType` with this metadata (all signed). */
export async function presignObjectPut(
  key: string,
  size: number,
  contentType: string,
  metadata: ObjectMetadata,
  expiresInSeconds: number,
): Promise<string> {
  const { sdk, getSignedUrl, client, bucket: mediaBucket } = await presigning();
  const command = new sdk.PutObjectCommand({
    Bucket: mediaBucket,
    Key: key,
    ContentLength: size,
    ContentType: contentType,
    Metadata: metadata,
  });
  return getSignedUrl(client, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set(['content-length', 'content-type']),
    // Left in the headers (not moved into the query), so S3 stores them as the object's metadata.
    unhoistableHeaders: new Set(Object.keys(metadata).map((name) => `x-amz-meta-${name}`)),
  });
}

/** Starts a multipart upload carrying the object's type and metadata; answers its upload ID. */
export async function startMultipartUpload(
  key: string,
  contentType: string,
  metadata: ObjectMetadata,
): Promise<string> {
  const [{ CreateMultipartUploadCommand }, { mediaBucket, mediaS3 }] = await Promise.all([s3Sdk(), bucket()]);
  const { UploadId } = await mediaS3().send(
    new CreateMultipartUploadCommand({ Bucket: mediaBucket(), Key: key, ContentType: contentType, Metadata: metadata }),
  );
  if (!UploadId) throw new Error('S3 answered CreateMultipartUpload without an UploadId');
  return UploadId;
}

/** A PUT URL for one part of exactly `size` bytes. */
export async function presignPartPut(
  key: string,
  uploadId: string,
  partNumber: number,
  size: number,
  expiresInSeconds: number,
): Promise<string> {
  const { sdk, getSignedUrl, client, bucket: mediaBucket } = await presigning();
  const command = new sdk.UploadPartCommand({
    Bucket: mediaBucket,
    Key: key,
    UploadId: uploadId,
    PartNumber: partNumber,
    ContentLength: size,
  });
  return getSignedUrl(client, command, {
    expiresIn: expiresInSeconds,
    signableHeaders: new Set(['content-length']),
  });
}

/** Why S3 refused to complete or abort an upload, in words the caller can act on. */
export type MultipartRefusal = 'upload_not_found' | 'invalid_parts';

const REFUSALS: Record<string, MultipartRefusal> = {
  NoSuchUpload: 'upload_not_found',
  InvalidPart: 'invalid_parts',
  InvalidPartOrder: 'invalid_parts',
  EntityTooSmall: 'invalid_parts',
};

/** The refusal an S3 error is, or undefined for any other failure (which stays an error). */
export function multipartRefusalOf(error: unknown): MultipartRefusal | undefined {
  return REFUSALS[(error as Error).name];
}

/** Completes a multipart upload from its parts' ETags: the object appears (and ingest is told). */
export async function completeMultipartUpload(
  key: string,
  uploadId: string,
  parts: { partNumber: number; etag: string }[],
): Promise<void> {
  const [{ CompleteMultipartUploadCommand }, { mediaBucket, mediaS3 }] = await Promise.all([s3Sdk(), bucket()]);
  await mediaS3().send(
    new CompleteMultipartUploadCommand({
      Bucket: mediaBucket(),
      Key: key,
      UploadId: uploadId,
      MultipartUpload: {
        Parts: [...parts]
          .sort((a, b) => a.partNumber - b.partNumber)
          .map((part) => ({ PartNumber: part.partNumber, ETag: part.etag })),
      },
    }),
  );
}

/** Aborts a multipart upload: S3 drops the parts sent so far. */
export async function abortMultipartUpload(key: string, uploadId: string): Promise<void> {
  const [{ AbortMultipartUploadCommand }, { mediaBucket, mediaS3 }] = await Promise.all([s3Sdk(), bucket()]);
  try {
    await mediaS3().send(new AbortMultipartUploadCommand({ Bucket: mediaBucket(), Key: key, UploadId: uploadId }));
  } catch (error) {
    // The local S3 server (S3_ENDPOINT) has no abort; its unfinished uploads hold nothing of value.
    if (endpoint === undefined || (error as Error).name !== 'MethodNotAllowed') throw error;
  }
}

/** S3 answers at most this many keys a list call. */
const S3_LIST_LIMIT = 1000;

/**
 * One page of at most `limit` (up to 1000) objects under `prefix` after `startAfter`, in key
 * order: one key more is asked for, to tell whether the page is the last (S3 answers up to
 * 1000 keys a call, and says itself when it left some).
 */
export async function listObjectPage(
  prefix: string,
  startAfter: string | undefined,
  limit: number,
): Promise<{ objects: { key: string; size: number }[]; truncated: boolean }> {
  const [{ ListObjectsV2Command }, { mediaBucket, mediaS3 }] = await Promise.all([s3Sdk(), bucket()]);
  const page = await mediaS3().send(
    new ListObjectsV2Command({
      Bucket: mediaBucket(),
      Prefix: prefix,
      StartAfter: startAfter,
      MaxKeys: Math.min(limit + 1, S3_LIST_LIMIT),
    }),
  );
  const objects = (page.Contents ?? []).flatMap((entry) =>
    entry.Key ? [{ key: entry.Key, size: entry.Size ?? 0 }] : [],
  );
  return { objects: objects.slice(0, limit), truncated: objects.length > limit || page.IsTruncated === true };
}
