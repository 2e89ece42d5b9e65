/**
 * The items of payments: orders, live reservations per address, checkout tokens, handled Stripe events.
 * Only this feature's stores build these keys (the boundary check holds it); docs/data-model.md
 * documents the access pattern each serves.
 */
/** Checkout tokens' partition keys start so (tests and audits find them by it). */
export const CHECKOUT_TOKEN_KEY_PREFIX = 'CHECKOUTTOKEN#';
/** The sort-key prefix of order items. */
export const ORDER_ITEM_PREFIX = 'ORDER#';

export const paymentKeys = {
  /** GSI1 partition of every order waiting for payment, of all tenants, by creation (the reservation sweep reads it). */
  pendingOrders: () => 'PENDINGORDERS',
  /** Payment reservations of a gallery: one item collection. */
  ordersOfGallery: (tenantId: string, token: string) => `T#${tenantId}#G#${token}#ORDERS`,
  order: (tenantId: string, token: string, orderId: string) => ({
    pk: `T#${tenantId}#G#${token}#ORDERS`,
    sk: `${ORDER_ITEM_PREFIX}${orderId}`,
  }),
  /** The one reservation an email address may have waiting for payment in a gallery, by a hash of the address. */
  liveReservationOfEmail: (tenantId: string, token: string, emailKey: string) => ({
    pk: `T#${tenantId}#G#${token}#EMAILRESERVATION#${emailKey}`,
    sk: 'RESERVATION',
  }),
  /**
   * The orders of one participant in a gallery, one pointer item per order and identity the order
   * carries: `P#<personId>`, `A#<hash of the email address>`, `E#<employee ID>`. Erasure of a person
   * reads these instead of every order of the gallery.
   */
  orderOfParticipant: (tenantId: string, token: string, identity: string, orderId: string) => ({
    pk: `T#${tenantId}#G#${token}#ORDERSOF#${identity}`,
    sk: `${ORDER_ITEM_PREFIX}${orderId}`,
  }),
  /** The identities of orderOfParticipant: a person ID, a hash of an address (emailKey), an employee ID. */
  participantByPersonId: (personId: string) => `P#${personId}`,
  participantByAddress: (addressHash: string) => `A#${addressHash}`,
  participantByEmployeeId: (employeeId: string) => `E#${employeeId}`,
  /** A status or retry token of a reservation, by the SHA-256 of its value. */
  checkoutToken: (tokenHash: string) => ({ pk: `${CHECKOUT_TOKEN_KEY_PREFIX}${tokenHash}`, sk: 'TOKEN' }),
  /** A Stripe event already handled (expires after Stripe's retry window). */
  stripeEvent: (eventId: string) => ({ pk: `STRIPEEVENT#${eventId}`, sk: 'EVENT' }),
} as const;
