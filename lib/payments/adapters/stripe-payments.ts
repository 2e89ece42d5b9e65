import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';
import type Stripe from 'stripe';
import { now } from '#lib/platform/clock';
import { optionalEnv } from '#lib/platform/config';
import { DomainError } from '#lib/platform/domain-error';
import { loggableError, logger } from '#lib/platform/logger';
import { secretValue } from '#lib/platform/secrets-manager';

/**
 * The Stripe SDK, talking to Stripe with the secret key (STRIPE_SECRET_KEY, or the Secrets
 * Manager secret named by STRIPE_SECRET_KEY_ARN), or to the local Stripe emulator
 * at STRIPE_API_BASE (scripts/local/stripe-emulator.ts) for tests and `npm start`.
 * Checkout Sessions are direct charges on the tenant's connected account.
 */
let client: { secretKey: string; stripe: Stripe } | undefined;

/**
 * STRIPE_TIME_BUDGET_MS: how long all Stripe calls of one request may take together, 12 s by
 * default. The functions time out after 29 s (infra/service-function.ts); what comes before the
 * first Stripe call (tenant, gallery, selfie upload, reservation) and the undo after a failed
 * one (releasing the reservation, deleting the selfie) are a few DynamoDB and S3 calls of well
 * under a second each, and 12 s of Stripe leaves them more than 15 s. Tests make it short.
 */
export const STRIPE_TIME_BUDGET_MS = positiveMilliseconds('STRIPE_TIME_BUDGET_MS', 12_000);
/** The longest one attempt may wait for Stripe (the SDK's `timeout`: silence on the socket). */
const ATTEMPT_TIMEOUT_MS = 5_000;
/** The SDK's pause before its first retry: 0.5 s, never less (stripe-node's INITIAL_NETWORK_RETRY_DELAY_SEC). */
const RETRY_PAUSE_MS = 500;
/** Shorter attempts are not worth a retry: one attempt gets all that is left instead. */
const SHORTEST_RETRIED_ATTEMPT_MS = 1_000;
/** With less than this left of the budget, a call gives up without asking Stripe. */
const SHORTEST_CALL_MS = 100;

/** A duration setting in whole milliseconds above zero; anything else stops the function at cold start. */
function positiveMilliseconds(name: string, fallback: number): number {
  const text = optionalEnv(name);
  const value = text === undefined ? fallback : Number(text);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name} must be a whole number of milliseconds above 0, not "${text}"`);
  return value;
}

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
    // Defaults only: every call sets its own, from what is left of its request's budget.
    maxNetworkRetries: 1,
    timeout: ATTEMPT_TIMEOUT_MS,
    ...(base
      ? { host: base.hostname, port: Number(base.port), protocol: base.protocol.replace(':', '') as 'http' | 'https' }
      : {}),
  });
  client = { secretKey, stripe: instance };
  return instance;
}

/**
 * The Stripe time budget of one request: every Stripe call the request makes, with the SDK's
 * retries, ends within STRIPE_TIME_BUDGET_MS of its first one, or gives up with
 * payment_provider_unavailable, so that the function still has the time to undo what it
 * reserved before it times out. The deadline is set by the first call.
 */
interface StripeBudget {
  deadline?: number;
}

const requestBudgets = new AsyncLocalStorage<StripeBudget>();

/**
 * Runs one request's work under one Stripe budget (the check-in actions run in one each). A
 * Stripe call outside any has a budget of its own.
 */
export function withStripeBudget<T>(work: () => Promise<T>): Promise<T> {
  return requestBudgets.run({}, work);
}

/** The deadline of the current request's Stripe work, set now if this is its first call. */
function stripeDeadline(): number {
  const budget = requestBudgets.getStore() ?? {};
  budget.deadline ??= now() + STRIPE_TIME_BUDGET_MS;
  return budget.deadline;
}

type AttemptSettings = Required<Pick<Stripe.RequestOptions, 'timeout' | 'maxNetworkRetries'>>;

/**
 * The SDK's timeout and retries for a request to Stripe with `remainingMs` left: two attempts
 * and the pause between them fit in what is left, or else one attempt gets all of it.
 */
function attemptSettings(remainingMs: number): AttemptSettings {
  const halved = Math.floor((remainingMs - RETRY_PAUSE_MS) / 2);
  if (halved >= SHORTEST_RETRIED_ATTEMPT_MS)
    return { timeout: Math.min(ATTEMPT_TIMEOUT_MS, halved), maxNetworkRetries: 1 };
  return { timeout: Math.max(1, Math.min(ATTEMPT_TIMEOUT_MS, Math.floor(remainingMs))), maxNetworkRetries: 0 };
}

class StripeBudgetSpent extends Error {
  constructor() {
    super('The Stripe time budget of this request is spent');
    this.name = 'StripeBudgetSpent';
  }
}

/** Any failure of Stripe's API is the provider's: 502, and the caller rolls its reservation back. */
function providerFailure(operation: string, error: unknown): DomainError {
  logger.error('Stripe call failed', { operation, error: loggableError(error) });
  return new DomainError('payment_provider_unavailable');
}

/**
 * One operation on Stripe within the request's budget. `settings()` gives each SDK request the
 * timeout and retries that fit in what is left; and since the SDK's timeout counts silence, not
 * time (nor the connecting), the operation is also given up at the deadline itself.
 */
async function callStripe<T>(
  operation: string,
  call: (sdk: Stripe, settings: () => AttemptSettings) => Promise<T>,
): Promise<T> {
  const deadline = stripeDeadline();
  const remainingMs = () => Math.min(STRIPE_TIME_BUDGET_MS, deadline - now());
  let giveUp: ReturnType<typeof setTimeout> | undefined;
  try {
    if (remainingMs() < SHORTEST_CALL_MS) throw new StripeBudgetSpent();
    const timeUp = new Promise<never>((_resolve, reject) => {
      giveUp = setTimeout(() => reject(new StripeBudgetSpent()), remainingMs());
    });
    const work = stripe().then((sdk) => call(sdk, () => attemptSettings(remainingMs())));
    return await Promise.race([work, timeUp]);
  } catch (error) {
    throw providerFailure(operation, error);
  } finally {
    clearTimeout(giveUp);
  }
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

export function createCheckoutSession(request: CheckoutRequest): Promise<{ sessionId: string; url: string }> {
  return callStripe('checkout.sessions.create', async (sdk, settings) => {
    const session = await sdk.checkout.sessions.create(
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
        ...(request.applicationFeeAmount > 0
          ? { payment_intent_data: { application_fee_amount: request.applicationFeeAmount } }
          : {}),
        metadata: { orderId: request.orderId, tenantId: request.tenantId, galleryToken: request.galleryToken },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
        expires_at: request.expiresAtSeconds,
      },
      // One key per session opened, reused by the SDK's own retries of this request.
      {
        stripeAccount: request.accountId,
        idempotencyKey: `checkout-${request.orderId}-${randomUUID()}`,
        ...settings(),
      },
    );
    if (!session.url) throw new Error('Checkout Session without URL');
    return { sessionId: session.id, url: session.url };
  });
}

/** Expires an open session so it can no longer be paid; one that is not open any more is left alone. */
export function expireCheckoutSession(
  accountId: string,
  sessionId: string,
): Promise<'expired' | 'complete' | 'not_open'> {
  return callStripe('checkout.sessions.expire', async (sdk, settings) => {
    const statusNow = async () =>
      (await sdk.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId, ...settings() })).status;
    const ended = (status: Stripe.Checkout.Session.Status | null) => (status === 'complete' ? 'complete' : 'not_open');
    const status = await statusNow();
    if (status !== 'open') return ended(status);
    try {
      await sdk.checkout.sessions.expire(sessionId, {}, { stripeAccount: accountId, ...settings() });
      return 'expired';
    } catch (error) {
      // Stripe refuses to expire a session that is no longer open: a concurrent retry may have
      // expired it (or the participant paid) between the read and the expiry. That is an outcome.
      const statusAfter = await statusNow().catch(() => 'open' as const);
      if (statusAfter === 'open') throw error;
      return ended(statusAfter);
    }
  });
}

/** Whether the connected account can take card payments: charges enabled and card_payments active. */
export function accountCanTakeCharges(accountId: string): Promise<boolean> {
  return callStripe('accounts.retrieve', async (sdk, settings) => {
    const account = await sdk.accounts.retrieve(accountId, {}, settings());
    return account.charges_enabled === true && account.capabilities?.card_payments === 'active';
  });
}

/** The event of a webhook request, after checking its signature over the exact raw body. */
export async function verifiedWebhookEvent(
  rawBody: string,
  signature: string | undefined,
): Promise<Stripe.Event | undefined> {
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

/** Where a Checkout Session stands at Stripe: open, complete or expired, and whether it was paid. */
export function checkoutSessionState(accountId: string, sessionId: string): Promise<{ status: string; paid: boolean }> {
  return callStripe('checkout.sessions.retrieve', async (sdk, settings) => {
    const session = await sdk.checkout.sessions.retrieve(sessionId, {}, { stripeAccount: accountId, ...settings() });
    return {
      status: session.status ?? 'open',
      paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
    };
  });
}
