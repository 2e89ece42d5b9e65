import type { Stripe } from '#lib/adapters/stripe-payments';
import { addToGalleryCounters } from '#lib/db/gallery-counters';
import { claimStripeEvent, endPendingOrder, finalizePaidOrder, getOrder, releaseStripeEvent } from '#lib/db/orders';
import { getTenantByStripeAccount, recordStripeReadiness } from '#lib/db/tenants';
import type { Order } from '#lib/domain/order-model';
import { logger } from '#lib/http/logger';
import { countTransition } from '#lib/payments/checkout';

export type EventOutcome = 'handled' | 'duplicate' | 'ignored' | 'unknown_order';

/** The order a Checkout Session event is about, if it is one of ours on the account that sent it. */
async function orderOfSession(event: Stripe.Event, session: Stripe.Checkout.Session): Promise<Order | undefined> {
  const { orderId, tenantId, galleryToken } = session.metadata ?? {};
  if (!orderId || !tenantId || !galleryToken) return undefined;
  const order = await getOrder(tenantId, galleryToken, orderId);
  // Metadata alone is not trusted: the event must come from the order's connected account.
  return order && order.accountId === event.account ? order : undefined;
}

async function finalize(order: Order): Promise<void> {
  const person = await finalizePaidOrder(order);
  if (person === 'already') return;
  await Promise.all([
    countTransition(order, 'pending', 'paid'),
    addToGalleryCounters(
      { tenantId: order.tenantId, token: order.galleryToken },
      { personsCheckedIn: 1, personsWithSelfie: person.hasSelfie ? 1 : 0 },
    ).catch((error: Error) => logger.error('check-in counters not updated', error)),
  ]);
}

async function end(order: Order, sessionId: string, status: 'expired' | 'canceled'): Promise<void> {
  if (await endPendingOrder(order, sessionId, status)) await countTransition(order, 'pending', status);
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
      if (session.payment_status === 'paid' || session.payment_status === 'no_payment_required') await finalize(order);
      return 'handled';
    case 'checkout.session.async_payment_succeeded':
      await finalize(order);
      return 'handled';
    case 'checkout.session.async_payment_failed':
      await end(order, session.id, 'canceled');
      return 'handled';
    case 'checkout.session.expired':
      await end(order, session.id, 'expired');
      return 'handled';
    default:
      return 'ignored';
  }
}

async function handleAccountUpdated(event: Stripe.Event, account: Stripe.Account): Promise<EventOutcome> {
  const tenant = await getTenantByStripeAccount(account.id);
  if (!tenant) return 'ignored';
  const ready = account.charges_enabled === true && account.capabilities?.card_payments === 'active';
  await recordStripeReadiness(tenant.slug, { accountId: account.id, ready, checkedAt: Date.now() });
  return 'handled';
}

/**
 * Handles one verified Stripe event, once: a redelivery is recognised by its event ID, and
 * every transition is conditional on the order's state besides. A failure forgets the event
 * ID again so that Stripe's next delivery is handled.
 */
export async function handleStripeEvent(event: Stripe.Event): Promise<EventOutcome> {
  if (!(await claimStripeEvent(event.id))) return 'duplicate';
  try {
    if (event.type === 'account.updated') return await handleAccountUpdated(event, event.data.object as Stripe.Account);
    if (event.type.startsWith('checkout.session.')) {
      return await handleSessionEvent(event, event.data.object as Stripe.Checkout.Session);
    }
    return 'ignored';
  } catch (error) {
    await releaseStripeEvent(event.id).catch(() => undefined);
    throw error;
  }
}
