import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { optionalEnv, requireEnv } from '#lib/config';

/** The bucket of selfies and photos. S3_ENDPOINT points at a local S3 server (path-style). */
export const mediaBucket = requireEnv('MEDIA_BUCKET');

const endpoint = optionalEnv('S3_ENDPOINT');
export const s3 = new S3Client({
  endpoint,
  forcePathStyle: endpoint !== undefined,
  maxAttempts: 3,
  // A call whose connection stays silent for 5 s is cut off and retried: 3 attempts stay within
  // the 29 s function timeout.
  requestHandler: { socketTimeout: 5000 },
});

export async function putMediaObject(
  key: string,
  body: Uint8Array,
  contentType: string,
  metadata: Record<string, string> = {},
): Promise<void> {
  await s3.send(
    new PutObjectCommand({
      Bucket: mediaBucket,
      Key: key,
      Body: body,
      ContentType: contentType,
      Metadata: metadata,
      ServerSideEncryption: endpoint === undefined ? 'AES256' : undefined,
    }),
  );
}

export async function mediaObjectMetadata(key: string): Promise<Record<string, string>> {
  const head = await s3.send(new HeadObjectCommand({ Bucket: mediaBucket, Key: key }));
  return head.Metadata ?? {};
}

/** The first bytes of an object, enough for an image's header. */
export async function mediaObjectHead(key: string, bytes: number): Promise<Uint8Array> {
  const object = await s3.send(new GetObjectCommand({ Bucket: mediaBucket, Key: key, Range: `bytes=0-${bytes - 1}` }));
  return object.Body ? object.Body.transformToByteArray() : new Uint8Array();
}

export async function deleteMediaObject(key: string): Promise<void> {
  await s3.send(new DeleteObjectCommand({ Bucket: mediaBucket, Key: key }));
}
