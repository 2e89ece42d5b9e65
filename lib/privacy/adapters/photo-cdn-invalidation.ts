import { randomUUID } from 'node:crypto';
import type { CloudFrontClient } from '@aws-sdk/client-cloudfront';
import { retryWithBackoff } from '#lib/platform/backoff';
import { optionalEnv } from '#lib/platform/config';

/**
 * Invalidations of the photo CDN (CloudFront), so that its edges stop serving copies of erased
 * photos they cached. PHOTO_CDN_DISTRIBUTION_ID names the distribution; without it (the local
 * stack, most tests) there is no CDN to invalidate and nothing is sent. CLOUDFRONT_ENDPOINT
 * points the client at another endpoint (the tests' CloudFront emulator).
 */

let client: Promise<CloudFrontClient> | undefined;

function cloudFront(): Promise<CloudFrontClient> {
  // Loaded on first use: only erasure invalidates.
  return (client ??= import('@aws-sdk/client-cloudfront').then(
    // CloudFront's API lives in us-east-1 whatever the stack's region.
    ({ CloudFrontClient }) =>
      new CloudFrontClient({ region: 'us-east-1', endpoint: optionalEnv('CLOUDFRONT_ENDPOINT'), maxAttempts: 3 }),
  ));
}

/**
 * CloudFront refuses a new invalidation while too many are in progress (15 wildcard paths);
 * they usually finish within a minute or two, so a few waits get past a busy moment.
 */
const BUSY_RETRIES = { attempts: 6, baseDelayMs: 2_000, maxDelayMs: 30_000 };

/** Invalidates `paths` (each starting with `/`, a trailing `*` allowed) on the photo CDN, in one request. */
export async function invalidatePhotoCdnPaths(paths: readonly string[]): Promise<void> {
  const distributionId = optionalEnv('PHOTO_CDN_DISTRIBUTION_ID');
  if (distributionId === undefined || paths.length === 0) return;
  const { CreateInvalidationCommand } = await import('@aws-sdk/client-cloudfront');
  const sdk = await cloudFront();
  const command = new CreateInvalidationCommand({
    DistributionId: distributionId,
    // One reference per erasure: a retry of this request is not a second invalidation.
    InvalidationBatch: { CallerReference: randomUUID(), Paths: { Quantity: paths.length, Items: [...paths] } },
  });
  await retryWithBackoff(
    () => sdk.send(command),
    (error) => (error as Error).name === 'TooManyInvalidationsInProgress',
    BUSY_RETRIES,
  );
}
