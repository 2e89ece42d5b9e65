import { now } from '#lib/platform/clock';
import { accountCanTakeCharges } from '#lib/payments/adapters/stripe-payments';
import { type Tenant, recordStripeReadiness } from '#lib/tenants/store/tenants';
import type { CheckinSubmission } from '#lib/checkin/rules/checkin-request';
import { DomainError } from '#lib/platform/domain-error';
import type { GalleryPackage } from '#lib/galleries/rules/gallery-model';
import { PACKAGE_AMOUNT_LIMIT, STRIPE_READINESS_CACHE_MS } from '#lib/payments/payment-settings';
import { takeStripeCheckin } from '#lib/payments/stripe-call-limit';

/**
 * Whether the tenant's connected account can take charges: read from Stripe, kept on the
 * tenant for a few minutes, refreshed at once by account.updated webhooks.
 */
async function connectedAccountReady(tenant: Tenant, accountId: string): Promise<boolean> {
  const cached = tenant.stripeReadiness;
  if (cached?.accountId === accountId && now() - cached.checkedAt < STRIPE_READINESS_CACHE_MS) return cached.ready;
  const ready = await accountCanTakeCharges(accountId);
  await recordStripeReadiness(tenant.slug, { accountId, ready, checkedAt: now() });
  return ready;
}

/**
 * The checks of a check-in with a package that requires payment, in this order:
 * terms_not_accepted, payment_access_not_approved, the platform's Stripe limit
 * (payment_provider_busy, before any Stripe call), connect_not_ready_for_payments,
 * package_amount_exceeds_limit. Returns the connected account to charge on.
 */
export async function checkPaidCheckin(
  tenant: Tenant,
  submission: CheckinSubmission,
  pkg: GalleryPackage,
): Promise<string> {
  if (!submission.termsAccepted) throw new DomainError('terms_not_accepted');
  if (!tenant.paymentAccessApproved) throw new DomainError('payment_access_not_approved');
  await takeStripeCheckin();
  const accountId = tenant.stripeAccountId;
  if (!accountId || !(await connectedAccountReady(tenant, accountId)))
    throw new DomainError('payment_account_not_ready');
  if (pkg.price > PACKAGE_AMOUNT_LIMIT) {
    throw new DomainError(
      'package_amount_exceeds_limit',
      `Packages above ${PACKAGE_AMOUNT_LIMIT} minor units cannot be paid online.`,
    );
  }
  return accountId;
}
