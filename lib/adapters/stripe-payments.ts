import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { optionalEnv } from '#lib/config';
import { DomainError } from '#lib/domain/domain-error';
import { logger } from '#lib/logger';
import { secretValue } from '#lib/adapters/secrets';

/**
 * The Stripe SDK, talking to Stripe with the secret key (STRIPE_SECRET_KEY, or the Secrets
 * Manager secret named by STRIPE_SECRET_KEY_ARN), or to the local Stripe emulator
 * at STRIPE_API_BASE (scripts/local/stripe-emulator.ts) for tests and `npm start`.
 * Checkout Sessions are direct charges on the tenant's connected account.
 */
let client: { secretKey: string; stripe: Stripe } | undefined;

/** The SDK is loaded on first use, so that a check-in without payment never pays for loading it. */
async function stripeSdk(): Promise<typeof Stripe> {
  return (await import('stripe')).default;
}

/** The SDK client, made again only when the secret key changed (rotation). */
async function stripe(): Promise<Stripe> {
  const secretKey = await secretValue('STRIPE_SECRET_KEY').catch(() => undefined);
  if (!secretKey) throw new DomainError('payment_provider_unavailable', 'Payments are not configured.');
  if (client?.secretKey === secretKey) return client.stripe;
  const apiBase = optionalEnv('STRIPE_API_BASE');
  const base = apiBase ? new URL(apiBase) : undefined;
  const StripeSdk = await stripeSdk();
  const instance = new StripeSdk(secretKey, {
    maxNetworkRetries: 1,
    timeout: 10_000,
    ...(base ? { host: base.hostname, port: Number(base.port), protocol: base.protocol.replace(':', '') as 'http' | 'https' } : {}),
  });
  client = { secretKey, stripe: instance };
  return instance;
}

export interface CheckoutRequest {
  accountId: string;
  orderId: string;
  tenantId: string;
  galleryToken: string;
  packageName: string;
  amount: number;
  currency: string;
  applicationFeeAmount: number;
  customerEmail: string;
  successUrl: string;
  cancelUrl: string;
  expiresAtSeconds: number;
}

/** Any failure of Stripe's API is the provider's: 502, and the caller rolls its reservation back. */
function providerFailure(operation: string, error: unknown): DomainError {
  logger.error('Stripe call failed', { operation, errorType: (error as { type?: string }).type, errorName: (error as Error).name });
  return new DomainError('payment_provider_unavailable');
}

export async function createCheckoutSession(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
  try {
    const session = await (await stripe()).checkout.sessions.create(
      {
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency,
              unit_amount: request.amount,
              product_data: { name: request.packageName },
            },
          },
        ],
        customer_email: request.customerEmail,
        ...(request.applicationFeeAmount > 0 ? { payment_intent_data: { application_fee_amount: request.applicationFeeAmount } } : {}),
        metadata: { orderId: request.orderId, tenantId: request.tenantId, galleryToken: request.galleryToken },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        expires_at: request.expiresAtSeconds,
      },
      // One key per session opened, reused by the SDK's own retries of this request.
      { stripeAccount: request.accountId, idempotencyKey: `checkout-${request.orderId}-${randomUUID()}` },
    );
    if (!session.url) throw new Error('Checkout Session without URL');
    return { sessionId: session.id, url: session.url };
  } catch (error) {
    throw providerFailure('checkout.sessions.create', error);
  }
}

/** Expires an open session so it can no longer be paid; one that is not open any more is left alone. */
export async function expireCheckoutSession(accountId: string, sessionId: string): Promise<'expired' | 'complete' | 'not_open'> {
  try {
    const client = await stripe();
    const session = await client.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId });
    if (session.status === 'complete') return 'complete';
    if (session.status !== 'open') return 'not_open';
    await client.checkout.sessions.expire(sessionId, {}, { stripeAccount: accountId });
    return 'expired';
  } catch (error) {
    throw providerFailure('checkout.sessions.expire', error);
  }
}

/** Whether the connected account can take card payments: charges enabled and card_payments active. */
export async function accountCanTakeCharges(accountId: string): Promise<boolean> {
  try {
    const account = await (await stripe()).accounts.retrieve(accountId);
    return account.charges_enabled === true && account.capabilities?.card_payments === 'active';
  } catch (error) {
    throw providerFailure('accounts.retrieve', error);
  }
}

/** The event of a webhook request, after checking its signature over the exact raw body. */
export async function verifiedWebhookEvent(rawBody: string, signature: string | undefined): Promise<Stripe.Event | undefined> {
  const secret = await secretValue('STRIPE_WEBHOOK_SECRET');
  if (!secret || !signature) return undefined;
  try {
    // Signature checks need no API key; the SDK's static helper does them.
    return (await stripeSdk()).webhooks.constructEvent(rawBody, signature, secret);
  } catch {
    return undefined;
  }
}

export type { Stripe };
