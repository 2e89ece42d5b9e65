import { optionalEnv } from '#lib/platform/config';

/**
 * Payment settings. PACKAGE_AMOUNT_LIMIT: the largest package price accepted for checkout, in
 * minor units of its currency (default 100000, i.e. 1,000.00). CHECKOUT_SESSION_MINUTES: how
 * long a Checkout Session, and so the held spot, stays open (default 30, Stripe's minimum;
 * Stripe's own default would be 24 hours). STRIPE_READINESS_CACHE_SECONDS: how long a
 * connected account's readiness read from Stripe is trusted (default 300; account.updated
 * events refresh it at once). CHECKIN_PAGE_URL: where Stripe sends participants back when the
 * check-in gives no returnUrl; its origin is always an allowed return origin. LOCAL_STACK:
 * `true` on the local stack, where http://localhost and http://127.0.0.1 are allowed too.
 * (STRIPE_TIME_BUDGET_MS, the time all Stripe calls of a request may take together, is read by
 * lib/payments/adapters/stripe-payments.ts, which may not import this layer.)
 */
export const PACKAGE_AMOUNT_LIMIT = Number(optionalEnv('PACKAGE_AMOUNT_LIMIT') ?? 100_000);
export const CHECKOUT_SESSION_MINUTES = Number(optionalEnv('CHECKOUT_SESSION_MINUTES') ?? 30);
export const STRIPE_READINESS_CACHE_MS = Number(optionalEnv('STRIPE_READINESS_CACHE_SECONDS') ?? 300) * 1000;

export function defaultReturnUrl(): string | undefined {
  return optionalEnv('CHECKIN_PAGE_URL');
}
