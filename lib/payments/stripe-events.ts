import type { Stripe } from '#lib/payments/adapters/stripe-payments';
import { type StoredOrder, getOrder, isRedacted } from '#lib/payments/store/orders';
import { rememberStripeEvent, stripeEventHandled } from '#lib/payments/store/stripe-event-log';
import { getTenantByStripeAccount, recordStripeReadiness } from '#lib/tenants/store/tenants';
import { now } from '#lib/platform/clock';
import { loggableError, logger } from '#lib/platform/logger';
import { completePaidOrder, endOrderOfSession } from '#lib/payments/order-outcomes';

export type EventOutcome = 'handled' | 'duplicate' | 'ignored' | 'unknown_order';

/** The order a Checkout Session event is about, if it is one of ours on the account that sent it. */
async function orderOfSession(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<StoredOrder | undefined> {
  const { orderId, tenantId, galleryToken } = (session.metadata ?? {}) as Record<string, unknown>;
  const usable = (value: unknown): value is string => typeof value === 'string' && value !== '' && value.length <= 200;
  if (typeof session.id !== 'string' || !usable(orderId) || !usable(tenantId) || !usable(galleryToken))
    return undefined;
  const order = await getOrder(tenantId, galleryToken, orderId);
  // Metadata alone is not trusted: the event must come from the order's connected account. An
  // order whose participant was erased has ended and names nobody to complete: it is unknown.
  return order && !isRedacted(order) && order.accountId === event.account ? order : undefined;
}

async function handleSessionEvent(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<EventOutcome> {
  const order = await orderOfSession(event, session);
  if (!order) {
    logger.warn('Stripe event for an unknown order', { eventType: event.type, sessionId: session.id });
    return 'unknown_order';
  }
  switch (event.type) {
    case 'checkout.session.completed':
      // Delayed methods (bank debits) complete unpaid and report later through async_payment_*.
      if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required')
        await completePaidOrder(order);
      return 'handled';
    case 'checkout.session.async_payment_succeeded':
      await completePaidOrder(order);
      return 'handled';
    case 'checkout.session.async_payment_failed':
      await endOrderOfSession(order, session.id, 'cancel');
      return 'handled';
    case 'checkout.session.expired':
      await endOrderOfSession(order, session.id, 'expire');
      return 'handled';
    default:
      return 'ignored';
  }
}

async function handleAccountUpdated(event: Stripe.Event, account: Stripe.Account): Promise<EventOutcome> {
  const tenant = await getTenantByStripeAccount(account.id);
  if (!tenant) return 'ignored';
  const ready = account.charges_enabled === true && account.capabilities?.card_payments === 'active';
  await recordStripeReadiness(tenant.slug, { accountId: account.id, ready, checkedAt: now() });
  return 'handled';
}

/**
 * Handles one verified Stripe event. Every transition is conditional on the order's state, so
 * handling an event again changes nothing twice: a redelivery after a failure (or after a
 * handling that was cut off half-way) completes what is left, and deliveries that overlap do
 * not count twice. Once handled, the event ID is remembered, and later deliveries are
 * answered `duplicate` without touching the order.
 */
export async function handleStripeEvent(event: Stripe.Event): Promise<EventOutcome> {
  if (!wellFormed(event)) {
    logger.warn('signed Stripe webhook body that is not an event', {
      eventType: typeof event?.type === 'string' ? event.type : undefined,
    });
    return 'ignored';
  }
  if (await stripeEventHandled(event.id)) return 'duplicate';
  const outcome = await handleEvent(event);
  // Only an optimisation: a redelivery of an event not remembered is handled again, harmlessly.
  await rememberStripeEvent(event.id).catch((error: Error) =>
    logger.warn('handled Stripe event not remembered', { eventId: event.id, error: loggableError(error) }),
  );
  return outcome;
}

/** What an event needs to be handled: a usable ID, a type, and its object. */
function wellFormed(event: Stripe.Event): boolean {
  const object: unknown = (event as { data?: { object?: unknown } } | null)?.data?.object;
  return (
    typeof event?.id === 'string' &&
    event.id.length > 0 &&
    event.id.length <= 255 &&
    typeof event.type === 'string' &&
    typeof object === 'object' &&
    object !== null &&
    !Array.isArray(object)
  );
}

async function handleEvent(event: Stripe.Event): Promise<EventOutcome> {
  if (event.type === 'account.updated') return handleAccountUpdated(event, event.data.object);
  if (event.type.startsWith('checkout.session.'))
    return handleSessionEvent(event, event.data.object as Stripe.Checkout.Session);
  return 'ignored';
}
