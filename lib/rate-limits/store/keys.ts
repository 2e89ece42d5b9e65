/**
 * The token-bucket counters of API keys and of public clients.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** Rate-limit counters' partition keys start so; the deployed functions' IAM policies rely on it. */
export const RATE_LIMIT_KEY_PREFIX = 'RATELIMIT#';

export const rateLimitKeys = {
  rateLimit: (keyId: string) => ({ pk: `${RATE_LIMIT_KEY_PREFIX}${keyId}`, sk: 'RATELIMIT' }),
  /** The counter ID of a public client's budget in one gallery (`-`: no gallery named, or none found). */
  publicRateLimitCounter: (tenantId: string, galleryToken: string | undefined, budget: string, client: string) =>
    `PUBLIC#${tenantId}#${galleryToken ?? '-'}#${budget}#${client}`,
  /** The counter ID of a tenant's share of the check-in route, all its galleries and clients together. */
  tenantShareCounter: (tenantId: string) => `SHARE#${tenantId}#checkins`,
  /** The counter ID of the Stripe platform account's limit: one platform account per deployment. */
  stripePlatformCounter: () => 'STRIPE#platform',
} as const;
