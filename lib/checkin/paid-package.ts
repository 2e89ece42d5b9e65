import { ApiError } from '#lib/errors';
import type { Tenant } from '#lib/db/tenants';
import type { CheckinSubmission } from '#lib/domain/checkin-request';

/**
 * The checks of a check-in with a package that requires payment, in the spec's order. Hosted
 * checkout is not built yet (issue #5): until it is, a paid package that passes the terms and
 * approval checks answers connect_not_ready_for_payments, and nothing is stored.
 */
export function checkPaidCheckin(tenant: Tenant, submission: CheckinSubmission): never {
  if (!submission.termsAccepted) throw new ApiError('terms_not_accepted');
  if (!tenant.paymentAccessApproved) throw new ApiError('payment_access_not_approved');
  throw new ApiError(
    'connect_not_ready_for_payments',
    'Package checkout is not available yet; choose a package that needs no payment.',
  );
}
