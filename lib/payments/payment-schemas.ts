import * as v from 'valibot';
import { invalidField } from '#lib/platform/domain-error';
import { CHECKOUT_TOKEN_MAX_LENGTH, RETURN_URL_MAX_LENGTH } from '#lib/payments/rules/payment-limits';
import { type PrecedenceRule, parseBody, requestId } from '#lib/platform/schema-parts';

/** The documented answers of a paid check-in: its Checkout Session, its order's status, and the Stripe webhook's receipt. */
export const CheckoutStarted = v.object({
  ok: v.literal(true),
  orderId: v.string(),
  checkoutUrl: v.string(),
  statusToken: v.string(),
  retryToken: v.string(),
  packageName: v.string(),
  requestId,
});

export const OrderStatus = v.object({
  ok: v.literal(true),
  orderId: v.string(),
  status: v.picklist(['pending', 'paid', 'expired', 'canceled']),
  packageName: v.string(),
  personId: v.optional(v.string()),
  code: v.optional(v.string()),
  name: v.optional(v.string()),
  requestId,
});

export const WebhookResult = v.object({
  ok: v.literal(true),
  received: v.literal(true),
  outcome: v.string(),
  requestId,
});

/**
 * A status or retry token as the participant sends it back: trimmed, at most 200 characters as
 * sent (issued tokens are far shorter). Whatever is wrong with it, the refusal is the one
 * sentence "<member> is required." (tokenRule).
 */
function checkoutToken(description: string) {
  return v.pipe(v.string(), v.maxLength(CHECKOUT_TOKEN_MAX_LENGTH), v.trim(), v.nonEmpty(), v.description(description));
}

function tokenRule(member: 'statusToken' | 'retryToken'): PrecedenceRule {
  return { member, refusal: () => invalidField(member, `${member} is required.`) };
}

/**
 * Where Stripe sends the participant back (a paid check-in, retryCheckout). Never refused by the
 * body's parser: returnUrlOf (checkout-urls.ts) refuses it where the documented order puts it,
 * after the payment checks. A value that is not a string within the limit is passed on as '',
 * which returnUrlOf refuses as it refuses any text that is not an allowed URL.
 */
export function returnUrlMember(description: string) {
  return v.pipe(
    v.nullish(v.fallback(v.pipe(v.string(), v.maxLength(RETURN_URL_MAX_LENGTH)), '')),
    v.description(description),
  );
}

/** The body of the `checkinStatus` action of POST /group-shoot. */
export const CheckinStatusRequest = v.object({
  action: v.literal('checkinStatus'),
  statusToken: checkoutToken('From the answer of a paid check-in or of retryCheckout.'),
});

/** The body of the `retryCheckout` action of POST /group-shoot. */
export const RetryCheckoutRequest = v.object({
  action: v.literal('retryCheckout'),
  retryToken: checkoutToken('From the answer of a paid check-in.'),
  returnUrl: returnUrlMember('The check-in page Stripe returns to; without one, the deployed check-in page.'),
});

export type CheckinStatusInput = v.InferOutput<typeof CheckinStatusRequest>;
export type RetryCheckoutInput = v.InferOutput<typeof RetryCheckoutRequest>;

/** A checkinStatus body, parsed: 400 invalid_field for statusToken otherwise. */
export function parseCheckinStatus(body: unknown): CheckinStatusInput {
  return parseBody(CheckinStatusRequest, body, [tokenRule('statusToken')]);
}

/** A retryCheckout body, parsed: 400 invalid_field for retryToken otherwise; returnUrl is checked later (returnUrlMember). */
export function parseRetryCheckout(body: unknown): RetryCheckoutInput {
  return parseBody(RetryCheckoutRequest, body, [tokenRule('retryToken')]);
}
