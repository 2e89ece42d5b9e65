import type { PersonDraft } from '#lib/persons/rules/person-model';

/**
 * The status of a payment reservation as the API shows it. lib/payments/rules/order-lifecycle.ts
 * holds the states and transitions behind it.
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
  /** The Checkout Session that may complete the order (the latest one); absent while reserved or replacing. */
  sessionId?: string;
  checkoutUrl?: string;
  code?: string;
  createdAt: string;
  updatedAt: string;
}
