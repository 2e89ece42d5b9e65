import { ApiError } from '#lib/http/errors';
import { integrationEligibility } from '#lib/tenants/rules/plans';
import type { ApiMiddleware } from '#lib/http/types';

/** Server-side routes need the Creator plan or higher; an unreadable plan answers 503 (retry). */
export function planCheck(): ApiMiddleware {
  return {
    before: async (request) => {
      const eligibility = integrationEligibility(request.context.tenant?.plan?.tier);
      if (eligibility === 'unverifiable') throw new ApiError('plan_check_unavailable');
      if (eligibility === 'upgrade_required') throw new ApiError('plan_upgrade_required');
    },
  };
}
