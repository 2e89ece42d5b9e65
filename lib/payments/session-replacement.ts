import { expireCheckoutSession } from '#lib/payments/adapters/stripe-payments';
import { claimSessionReplacement, restoreReplacedSession } from '#lib/payments/store/order-transitions';
import type { StoredOrder } from '#lib/payments/store/orders';
import { DomainError } from '#lib/platform/domain-error';
import { orderState } from '#lib/payments/rules/order-lifecycle';
import { loggableError, logger } from '#lib/platform/logger';

/**
 * Takes a pending order's session away from it for `claim` (a retry, or a new check-in of the
 * same email address): the order is claimed (claimReplacement) and its open session expired at
 * Stripe first, so it can never be paid twice. reservation_changed when the order is still
 * opening its first session or changed meanwhile; order_already_paid when that session was paid
 * meanwhile (its webhook completes the order).
 */
export async function takeOverSession(order: StoredOrder, claim: string): Promise<void> {
  const state = orderState(order);
  if (state === 'reserved' || !(await claimSessionReplacement(order, claim))) {
    throw new DomainError('reservation_changed', 'The reservation changed meanwhile; retry.');
  }
  // The session to expire: the order's, or the one an earlier retry that failed half-way was replacing.
  const detached = state === 'open';
  const oldSession = detached ? order.sessionId : order.replacedSessionId;
  if (!oldSession) return;
  const outcome = await expireCheckoutSession(order.accountId, oldSession).catch(async (error: unknown) => {
    // Stripe unreachable: the session unhooked here becomes the order's again, so its expiry
    // still frees the spot. (One an earlier retry left being replaced stays so: the expiry of
    // any of the order's sessions ends it once that retry is over.)
    if (detached) {
      await restoreReplacedSession(order, oldSession, order.checkoutUrl, claim).catch((restore: Error) =>
        logger.error('replaced session not restored; its expiry ends the reservation', {
          orderId: order.orderId,
          error: loggableError(restore),
        }),
      );
    }
    throw error;
  });
  if (outcome === 'complete') throw new DomainError('order_already_paid');
}
