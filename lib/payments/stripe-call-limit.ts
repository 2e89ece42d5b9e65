import { now } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import { consumeRateLimit, stripePlatformCounterId } from '#lib/rate-limits/store/rate-limit-counters';
import { STRIPE_CHECKIN_LIMIT } from '#lib/payments/rules/stripe-call-limit';

/**
 * Takes one paid check-in (or checkout retry) from the platform account's Stripe budget, a
 * token bucket in the table shared by every instance (STRIPE_CHECKIN_LIMIT), before the first
 * Stripe call and before anything is reserved. Over it: payment_provider_busy (429
 * rate_limit_exceeded with Retry-After), nothing kept.
 */
export async function takeStripeCheckin(): Promise<void> {
  const verdict = await consumeRateLimit(stripePlatformCounterId(), STRIPE_CHECKIN_LIMIT, now());
  if (verdict.admitted) return;
  const seconds = verdict.retryAfterSeconds;
  throw new DomainError(
    'payment_provider_busy',
    `Many participants are paying right now; nothing was reserved. Retry in ${seconds} second${seconds === 1 ? '' : 's'}.`,
    {},
    seconds,
  );
}
