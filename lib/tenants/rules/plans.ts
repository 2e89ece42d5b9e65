/** Plan tiers in ascending order. The integration API starts at Creator. */
export const PLAN_TIERS = ['free', 'starter', 'creator', 'pro', 'studio'] as const;
export type PlanTier = (typeof PLAN_TIERS)[number];

export const INTEGRATION_MINIMUM_TIER: PlanTier = 'creator';

export function isPlanTier(value: unknown): value is PlanTier {
  return typeof value === 'string' && (PLAN_TIERS as readonly string[]).includes(value);
}

export type IntegrationEligibility = 'eligible' | 'upgrade_required' | 'unverifiable';

/**
 * Whether a tenant may use the server-side endpoints. A missing plan record or a tier this
 * code does not know cannot be verified (the caller answers 503, retryable), rather than
 * being treated as a downgrade.
 */
export function integrationEligibility(tier: unknown): IntegrationEligibility {
  if (!isPlanTier(tier)) return 'unverifiable';
  return PLAN_TIERS.indexOf(tier) >= PLAN_TIERS.indexOf(INTEGRATION_MINIMUM_TIER) ? 'eligible' : 'upgrade_required';
}
