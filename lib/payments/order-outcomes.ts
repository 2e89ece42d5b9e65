import { addToGalleryCounters } from '#lib/galleries/store/gallery-counters';
import { endPendingOrder, payOrder, removeReservation } from '#lib/payments/store/order-transitions';
import { type StoredOrder, getOrder, isRedacted } from '#lib/payments/store/orders';
import { selfieObjectKey } from '#lib/platform/media-keys';
import { ORDER_STATUS_COUNTER, orderState } from '#lib/payments/rules/order-lifecycle';
import type { Order } from '#lib/payments/rules/order-model';
import { loggableError, logger } from '#lib/platform/logger';
import { countTransition } from '#lib/payments/checkout';

/**
 * How a reservation ends once its Checkout Session has: paid, or expired and canceled. Stripe's
 * events (stripe-events.ts) and the reservation sweep (reservation-sweep.ts) both end orders so.
 */

/** pay: the paid reservation becomes its person (or completes its invitee); counters follow. Nothing twice when another delivery got there first. */
export async function completePaidOrder(order: Order): Promise<void> {
  const paid = await payOrder(order);
  await moveInviteeSelfie(order);
  if (paid === 'already') return;
  const { person, invitee } = paid;
  // One update of the statistics item: two at once would defeat each other's protection
  // against being applied twice when an answer is lost (gallery-counters.ts). A completed
  // invitee stays counted as imported.
  await addToGalleryCounters(
    { tenantId: order.tenantId, token: order.galleryToken },
    {
      [ORDER_STATUS_COUNTER.pending]: -1,
      [ORDER_STATUS_COUNTER.paid]: 1,
      ...(invitee ? {} : { personsCheckedIn: 1 }),
      personsWithSelfie: person.hasSelfie && !invitee?.hasSelfie ? 1 : 0,
    },
  ).catch((error: Error) =>
    logger.error('check-in and order counters not updated', { orderId: order.orderId, error: loggableError(error) }),
  );
}

/**
 * The selfie of a check-in that completed its invitee on payment was stored under the
 * reservation's own person ID: it moves to the invitee's. Run for every delivery of the payment
 * (a no-op once moved), so a move that failed is made by Stripe's next delivery.
 */
async function moveInviteeSelfie(order: Order): Promise<void> {
  if (!order.invitee || !order.person.hasSelfie) return;
  const stored = await getOrder(order.tenantId, order.galleryToken, order.orderId);
  if (!stored || isRedacted(stored) || stored.completedPersonId !== order.invitee.personId) return;
  const bucket = await import('#lib/platform/media-bucket');
  const reservationKey = selfieObjectKey(order.tenantId, order.galleryToken, order.person.personId);
  const selfie = await bucket.findMediaObject(reservationKey);
  if (!selfie) return;
  await bucket.putMediaObject(
    selfieObjectKey(order.tenantId, order.galleryToken, order.invitee.personId),
    selfie.bytes,
    'image/jpeg',
  );
  await bucket.deleteObjectForGood(reservationKey);
}

/**
 * expire or cancel for the session `sessionId`; or, for a check-in that failed after storing its
 * reservation and could not undo it (no session attached, nobody answered its tokens, and the
 * only session it opened ended), releaseUnattached. True when the order ended here.
 */
export async function endOrderOfSession(
  order: StoredOrder,
  sessionId: string,
  transition: 'expire' | 'cancel',
): Promise<boolean> {
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
