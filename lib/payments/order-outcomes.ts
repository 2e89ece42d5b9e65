import { addToGalleryCounters } from '#lib/galleries/store/gallery-counters';
import { endPendingOrder, payOrder, removeReservation } from '#lib/payments/store/order-transitions';
import type { StoredOrder } from '#lib/payments/store/orders';
import { ORDER_STATUS_COUNTER, orderState } from '#lib/payments/rules/order-lifecycle';
import type { Order } from '#lib/payments/rules/order-model';
import { loggableError, logger } from '#lib/platform/logger';
import { countTransition } from '#lib/payments/checkout';

/**
 * How a reservation ends once its Checkout Session has: paid, or expired and canceled. Stripe's
 * events (stripe-events.ts) and the reservation sweep (reservation-sweep.ts) both end orders so.
 */

/** pay: the paid reservation becomes its person; counters follow. Nothing twice when another delivery got there first. */
export async function completePaidOrder(order: Order): Promise<void> {
  const person = await payOrder(order);
  if (person === 'already') return;
  // One update of the statistics item: two at once would defeat each other's protection
  // against being applied twice when an answer is lost (gallery-counters.ts).
  await addToGalleryCounters(
    { tenantId: order.tenantId, token: order.galleryToken },
    {
      [ORDER_STATUS_COUNTER.pending]: -1,
      [ORDER_STATUS_COUNTER.paid]: 1,
      personsCheckedIn: 1,
      personsWithSelfie: person.hasSelfie ? 1 : 0,
    },
  ).catch((error: Error) => logger.error('check-in and order counters not updated', { orderId: order.orderId, error: loggableError(error) }));
}

/**
 * expire or cancel for the session `sessionId`; or, for a check-in that failed after storing its
 * reservation and could not undo it (no session attached, nobody answered its tokens, and the
 * only session it opened ended), releaseUnattached. True when the order ended here.
 */
export async function endOrderOfSession(order: StoredOrder, sessionId: string, transition: 'expire' | 'cancel'): Promise<boolean> {
  if (await endPendingOrder(order, sessionId, transition)) {
    await countTransition(order, 'pending', transition === 'expire' ? 'expired' : 'canceled');
    return true;
  }
  if (orderState(order) === 'reserved' && (await removeReservation(order, 'releaseUnattached'))) {
    logger.info('reservation of a failed check-in released', { orderId: order.orderId, sessionId });
    return true;
  }
  return false;
}
