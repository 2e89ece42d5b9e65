import { ApiError } from '#lib/http/errors';
import { verifiedWebhookEvent } from '#lib/payments/adapters/stripe-payments';
import { webhookEndpoint } from '#lib/http/endpoint';
import { handleStripeEvent } from '#lib/payments/stripe-events';

/** POST /webhooks/stripe: Stripe Connect events, verified by their signature over the raw body. */
export const handler = webhookEndpoint('stripeWebhook', async ({ rawBody, headers }) => {
  const event = await verifiedWebhookEvent(rawBody, headers['stripe-signature']);
  if (!event) throw new ApiError('invalid_signature');
  return { received: true, outcome: await handleStripeEvent(event) };
});
