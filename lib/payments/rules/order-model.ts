import type { PersonDraft } from '#lib/persons/rules/person-model';

/**
 * The status of a payment reservation as the API shows it. lib/payments/rules/order-lifecycle.ts
 * holds the states and transitions behind it.
 */
export type OrderStatus = 'pending' | 'paid' | 'expired' | 'canceled';

/**
 * The imported person an `importedOnly` check-in named (the guest list): paying completes that
 * person instead of creating one. `shootingDayId`: the day the import booked it on, whose spot it
 * already holds.
 */
export interface Invitee {
  personId: string;
  shootingDayId: string | null;
}

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
  invitee?: Invitee;
  /** Once paid: the person the payment completed, where that is the invitee rather than `person.personId`. */
  completedPersonId?: string;
  /** Once paid, with `completedPersonId`: that person's name, as HR imported it (the status answers it). */
  completedName?: string;
  createdAt: string;
  updatedAt: string;
}

/**
 * The day whose spot the reservation itself holds: the participant's chosen day, unless the
 * invitee already holds that day's spot (then the reservation takes none, so an invitee on a full
 * day can still pay for a package there).
 */
export function reservationSpotDay(order: Pick<Order, 'person' | 'invitee'>): string | null {
  const day = order.person.shootingDayId;
  return day !== null && day !== order.invitee?.shootingDayId ? day : null;
}

/** The person a paid order became: the invitee it completed, or the person its check-in described. */
export function paidPersonId(order: Pick<Order, 'person' | 'completedPersonId'>): string {
  return order.completedPersonId ?? order.person.personId;
}
