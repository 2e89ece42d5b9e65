import * as v from 'valibot';
import { requestId } from '#lib/platform/schema-parts';

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

export const WebhookResult = v.object({ ok: v.literal(true), received: v.literal(true), outcome: v.string(), requestId });
