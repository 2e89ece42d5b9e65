import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { optionalEnv } from '#lib/config';
import { ApiError } from '#lib/errors';
import { logger } from '#lib/http/logger';

/**
 * Time-limited CloudFront URLs for photos, signed with the distribution's key pair
 * (canned policy). Configuration: PHOTO_CDN_URL (https://<distribution domain>),
 * CLOUDFRONT_KEY_PAIR_ID, CLOUDFRONT_PRIVATE_KEY (PEM), PHOTO_URL_TTL_SECONDS (default 3600).
 * Anything missing or failing answers 500 cdn_signing_unavailable: the caller may retry.
 */
export const PHOTO_URL_TTL_SECONDS = Number(optionalEnv('PHOTO_URL_TTL_SECONDS') ?? 3600);

export function signPhotoUrl(objectKey: string, expiresAtMs: number): string {
  const baseUrl = optionalEnv('PHOTO_CDN_URL');
  const keyPairId = optionalEnv('CLOUDFRONT_KEY_PAIR_ID');
  const privateKey = optionalEnv('CLOUDFRONT_PRIVATE_KEY');
  if (!baseUrl || !keyPairId || !privateKey) {
    logger.error('photo URL signing is not configured');
    throw new ApiError('cdn_signing_unavailable');
  }
  const path = objectKey.split('/').map(encodeURIComponent).join('/');
  try {
    return getSignedUrl({
      url: `${baseUrl.replace(/\/$/, '')}/${path}`,
      keyPairId,
      privateKey,
      dateLessThan: new Date(expiresAtMs).toISOString(),
    });
  } catch (error) {
    logger.error('photo URL signing failed', { errorName: (error as Error).name });
    throw new ApiError('cdn_signing_unavailable');
  }
}
