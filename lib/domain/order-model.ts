import type { PersonDraft } from '#lib/db/persons';

/**
 * A payment reservation. pending: the spot is held and a Checkout Session is open; paid: the
 * person exists; expired: the session expired unpaid and the spot was released; canceled: the
 * payment failed (asynchronous methods) and the spot was released. Expired and canceled
 * reservations can be retried while a spot can be taken again.
 */
export type OrderStatus = 'pending' | 'paid' | 'expired' | 'canceled';

export interface Order {
  orderId: string;
  tenantId: string;
  galleryToken: string;
  status: OrderStatus;
  /** The participant as the check-in described them; becomes the person once paid. */
  person: PersonDraft;
  packageId: string;
  packageName: string;
  amount: number;
  currency: string;
  accountId: string;
  /** The Checkout Session that may complete the order (the latest one). */
  sessionId?: string;
  checkoutUrl?: string;
  code?: string;
  createdAt: string;
  updatedAt: string;
}

/** Counter of the gallery statistics for each status. */
export const ORDER_STATUS_COUNTER = {
  pending: 'ordersPending',
  paid: 'ordersPaid',
  expired: 'ordersExpired',
  canceled: 'ordersCanceled',
} as const satisfies Record<OrderStatus, string>;
