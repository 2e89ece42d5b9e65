import { now } from '#lib/platform/clock';
import { checkoutSessionState, expireCheckoutSession } from '#lib/payments/adapters/stripe-payments';
import { abandonSessionReplacement, removeReservation } from '#lib/payments/store/order-transitions';
import { type StoredOrder, getOrder, isRedacted, listPendingOrdersCreatedBefore } from '#lib/payments/store/orders';
import { REPLACEMENT_ABANDONED_MS, orderState } from '#lib/payments/rules/order-lifecycle';
import { loggableError, logger } from '#lib/platform/logger';
import { countTransition } from '#lib/payments/checkout';
import { completePaidOrder, endOrderOfSession } from '#lib/payments/order-outcomes';
import { CHECKOUT_SESSION_MINUTES } from '#lib/payments/payment-settings';

/**
 * A reservation left reserved this long never got its Checkout Session: the check-in that made
 * it ended (functions time out after 29 s) without attaching one or undoing itself.
 */
export const UNATTACHED_AFTER_MS = 2 * 60_000;
/** An open reservation whose session should have expired this long ago is asked about at Stripe (its expiry event may be lost). */
export const SESSION_OVERDUE_MS = 5 * 60_000;

export type SweepOutcome = 'released' | 'ended' | 'paid' | 'left';

/**
 * Gives back the spots of reservations that nothing else will end, every few minutes: one left
 * reserved by a check-in that died before attaching its session (released), one left replacing
 * by a retry that died (its replaced session expired at Stripe, then ended as expired, or paid if
 * it was paid meanwhile), and one whose session expired or was paid at Stripe without the event
 * reaching the webhook. Everything else is left to Stripe's events. Each order is handled by its
 * transitions' conditions, so a sweep that overlaps an event, or another sweep, changes nothing twice.
 */
export async function sweepReservations(): Promise<Record<SweepOutcome, number>> {
  const tally: Record<SweepOutcome, number> = { released: 0, ended: 0, paid: 0, left: 0 };
  const candidates = await listPendingOrdersCreatedBefore(new Date(now() - UNATTACHED_AFTER_MS).toISOString());
  for (const candidate of candidates) {
    // The index's copy says whether an order is due; only a due one is read again, consistently.
    const order = isDue(candidate)
      ? await getOrder(candidate.tenantId, candidate.galleryToken, candidate.orderId)
      : undefined;
    const outcome =
      order && !isRedacted(order) && isDue(order)
        ? await settle(order).catch((error: Error) => {
            logger.error('reservation not swept; the next sweep tries again', {
              orderId: candidate.orderId,
              error: loggableError(error),
            });
            return 'left' as const;
          })
        : 'left';
    tally[outcome] += 1;
  }
  return tally;
}

/** Whether nothing but the sweep will end the order now: the request or event that should have is surely over. */
function isDue(order: StoredOrder): boolean {
  const idleMs = now() - Date.parse(order.updatedAt);
  switch (orderState(order)) {
    case 'reserved':
      return idleMs >= UNATTACHED_AFTER_MS;
    case 'replacing':
      return idleMs >= REPLACEMENT_ABANDONED_MS;
    case 'open':
      return idleMs >= CHECKOUT_SESSION_MINUTES * 60_000 + SESSION_OVERDUE_MS;
    default:
      return false;
  }
}

async function settle(order: StoredOrder): Promise<SweepOutcome> {
  switch (orderState(order)) {
    case 'reserved':
      return (await removeReservation(order, 'releaseUnattached')) ? 'released' : 'left';
    case 'replacing':
      return settleAbandonedRetry(order);
    default:
      return settleOverdueSession(order, order.sessionId!);
  }
}

/** A retry died while replacing the session: the replaced one must not stay payable, and the spot comes back. */
async function settleAbandonedRetry(order: StoredOrder): Promise<SweepOutcome> {
  if (order.replacedSessionId) {
    const state = await checkoutSessionState(order.accountId, order.replacedSessionId);
    if (state.status === 'complete') return state.paid ? (await completePaidOrder(order), 'paid') : 'left';
    if (
      state.status === 'open' &&
      (await expireCheckoutSession(order.accountId, order.replacedSessionId)) === 'complete'
    )
      return 'left';
  }
  if (!(await abandonSessionReplacement(order, order.replacingBy!, 'expired'))) return 'left';
  await countTransition(order, 'pending', 'expired');
  return 'ended';
}

/** The session should have expired by now: end the order as Stripe saw it. */
async function settleOverdueSession(order: StoredOrder, sessionId: string): Promise<SweepOutcome> {
  const state = await checkoutSessionState(order.accountId, sessionId);
  if (state.status === 'complete' && state.paid) return (await completePaidOrder(order), 'paid');
  if (state.status === 'expired') return (await endOrderOfSession(order, sessionId, 'expire')) ? 'ended' : 'left';
  return 'left';
}
