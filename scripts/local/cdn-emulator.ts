import { createVerify } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { GetObjectCommand, type S3Client } from '@aws-sdk/client-s3';
import { MEDIA_FOLDERS } from '#lib/platform/media-keys';

export interface CdnEmulatorOptions {
  /** The URL photo links are signed for, e.g. http://localhost:3000/cdn */
  baseUrl: string;
  publicKeyPem: string;
  keyPairId: string;
  s3: S3Client;
  bucket: string;
}

/**
 * Plays the CloudFront distribution in front of the media bucket: serves an object only for
 * a URL signed with the key pair (canned policy: Expires, Signature, Key-Pair-Id), as
 * CloudFront does with a trusted key group, so locally printed photo URLs open in a browser.
 * Like the deployed distribution, whose origin path is `/photos`, it serves the photos/ folder
 * only: `<baseUrl>/<rest>` is object `photos/<rest>`, and no URL reaches a selfie.
 */
export async function serveSignedObject(
  request: IncomingMessage,
  response: ServerResponse,
  options: CdnEmulatorOptions,
) {
  const url = new URL(request.url ?? '/', 'http://localhost');
  const basePath = new URL(options.baseUrl).pathname.replace(/\/$/, '');
  const expires = Number(url.searchParams.get('Expires'));
  const signature = url.searchParams.get('Signature') ?? '';
  const resource = `${options.baseUrl.replace(/\/$/, '')}${url.pathname.slice(basePath.length)}`;
  const policy = JSON.stringify({
    Statement: [{ Resource: resource, Condition: { DateLessThan: { 'AWS:EpochTime': expires } } }],
  });
  const verifier = createVerify('RSA-SHA1');
  verifier.update(policy);
  const base64 = signature.replace(/-/g, '+').replace(/_/g, '=').replace(/~/g, '/');
  const valid =
    url.searchParams.get('Key-Pair-Id') === options.keyPairId &&
    Number.isInteger(expires) &&
    expires * 1000 > Date.now() &&
    verifier.verify(options.publicKeyPem, base64, 'base64');
  if (!valid) {
    response.writeHead(403, { 'Content-Type': 'text/plain' }).end('Access denied: missing, expired or wrong signature');
    return;
  }
  const segments = decodedSegments(url.pathname.slice(basePath.length + 1));
  // The local S3 server keeps objects as files: no segment may step out of the folder.
  if (
    !segments ||
    segments.some((segment) => segment === '' || segment === '.' || segment === '..' || segment.includes('/'))
  ) {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
    return;
  }
  const key = `${MEDIA_FOLDERS.photos}/${segments.join('/')}`;
  try {
    const object = await options.s3.send(new GetObjectCommand({ Bucket: options.bucket, Key: key }));
    response.writeHead(200, { 'Content-Type': object.ContentType ?? 'application/octet-stream' });
    response.end(await object.Body!.transformToByteArray());
  } catch {
    response.writeHead(404, { 'Content-Type': 'text/plain' }).end('Not found');
  }
}

function decodedSegments(path: string): string[] | undefined {
  try {
    return path.split('/').map(decodeURIComponent);
  } catch {
    return undefined; // malformed percent-encoding
  }
}
