import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { optionalEnv } from '#lib/platform/config';
import { DomainError } from '#lib/platform/domain-error';
import { MEDIA_FOLDERS } from '#lib/platform/media-keys';
import { loggableError, logger } from '#lib/platform/logger';
import { secretValue } from '#lib/platform/secrets-manager';

/**
 * Time-limited CloudFront URLs for photos, signed with the distribution's key pair
 * (canned policy). Configuration: PHOTO_CDN_URL (https://<distribution domain>),
 * CLOUDFRONT_KEY_PAIR_ID, the PEM private key (CLOUDFRONT_PRIVATE_KEY, or the Secrets Manager
 * secret named by CLOUDFRONT_PRIVATE_KEY_ARN), PHOTO_URL_TTL_SECONDS (default 3600).
 * Anything missing or failing answers 500 cdn_signing_unavailable: the caller may retry.
 */
export const PHOTO_URL_TTL_SECONDS = Number(optionalEnv('PHOTO_URL_TTL_SECONDS') ?? 3600);

/**
 * Where the photo CDN serves a photo object. The distribution's origin is the bucket's photos/
 * folder (origin path `/photos`, infra/media-delivery.ts), so `photos/<rest>` is served at
 * `/<rest>`, each segment URL-encoded; an object outside photos/ has no URL (undefined).
 */
export function photoCdnPath(objectKey: string): string | undefined {
  const folder = `${MEDIA_FOLDERS.photos}/`;
  if (!objectKey.startsWith(folder) || objectKey.length === folder.length) return undefined;
  return `/${objectKey.slice(folder.length).split('/').map(encodeURIComponent).join('/')}`;
}

export async function signPhotoUrls(objectKeys: string[], expiresAtMs: number): Promise<string[]> {
  const baseUrl = optionalEnv('PHOTO_CDN_URL');
  const keyPairId = optionalEnv('CLOUDFRONT_KEY_PAIR_ID');
  const privateKey = await secretValue('CLOUDFRONT_PRIVATE_KEY').catch(() => undefined);
  if (!baseUrl || !keyPairId || !privateKey) {
    logger.error('photo URL signing is not configured');
    throw new DomainError('photo_signing_unavailable');
  }
  try {
    return objectKeys.map((objectKey) => {
      const path = photoCdnPath(objectKey);
      if (!path) throw new Error('photo object outside the folder the photo CDN serves');
      return getSignedUrl({
        url: `${baseUrl.replace(/\/$/, '')}${path}`,
        keyPairId,
        privateKey,
        dateLessThan: new Date(expiresAtMs).toISOString(),
      });
    });
  } catch (error) {
    logger.error('photo URL signing failed', { error: loggableError(error) });
    throw new DomainError('photo_signing_unavailable');
  }
}
