import type { RateLimitPolicy } from '#lib/rate-limits/rules/rate-limit';

/**
 * Paid check-ins and checkout retries the platform's Stripe account takes: 25 a second, at
 * once up to 50 (docs/payments.md#stripe-call-limit). Stripe's live mode allows 100 write
 * operations a second per account; a paid check-in makes one (its Checkout Session; the account's
 * readiness is read once in 5 minutes), a retry or a replaced reservation two (the old session
 * expired, a new one opened). So at most 50 of the 100 go to check-ins, and the webhook's, the
 * reservation sweep's and the dashboard's calls keep the other half. Free check-ins never call
 * Stripe and never count here.
 */
export const STRIPE_CHECKIN_LIMIT: RateLimitPolicy = { limit: 50, windowMs: 2_000 };
