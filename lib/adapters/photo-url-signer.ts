import { getSignedUrl } from '@aws-sdk/cloudfront-signer';
import { optionalEnv } from '#lib/config';
import { DomainError } from '#lib/domain/domain-error';
import { logger } from '#lib/logger';
import { secretValue } from '#lib/adapters/secrets';

/**
 * Time-limited CloudFront URLs for photos, signed with the distribution's key pair
 * (canned policy). Configuration: PHOTO_CDN_URL (https://<distribution domain>),
 * CLOUDFRONT_KEY_PAIR_ID, the PEM private key (CLOUDFRONT_PRIVATE_KEY, or the Secrets Manager
 * secret named by CLOUDFRONT_PRIVATE_KEY_ARN), PHOTO_URL_TTL_SECONDS (default 3600).
 * Anything missing or failing answers 500 cdn_signing_unavailable: the caller may retry.
 */
export const PHOTO_URL_TTL_SECONDS = Number(optionalEnv('PHOTO_URL_TTL_SECONDS') ?? 3600);

export async function signPhotoUrls(objectKeys: string[], expiresAtMs: number): Promise<string[]> {
  const baseUrl = optionalEnv('PHOTO_CDN_URL');
  const keyPairId = optionalEnv('CLOUDFRONT_KEY_PAIR_ID');
  const privateKey = await secretValue('CLOUDFRONT_PRIVATE_KEY').catch(() => undefined);
  if (!baseUrl || !keyPairId || !privateKey) {
    logger.error('photo URL signing is not configured');
    throw new DomainError('photo_signing_unavailable');
  }
  try {
    return objectKeys.map((objectKey) =>
      getSignedUrl({
        url: `${baseUrl.replace(/\/$/, '')}/${objectKey.split('/').map(encodeURIComponent).join('/')}`,
        keyPairId,
        privateKey,
        dateLessThan: new Date(expiresAtMs).toISOString(),
      }),
    );
  } catch (error) {
    logger.error('photo URL signing failed', { errorName: (error as Error).name });
    throw new DomainError('photo_signing_unavailable');
  }
}
