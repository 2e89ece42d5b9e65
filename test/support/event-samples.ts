import type { Order } from '#lib/payments/rules/order-model';
import { NO_CONSENTS, type Person, newPersonId } from '#lib/persons/rules/person-model';

/**
 * Samples for the event catalogue's unit tests (a stored person and the order of a paid
 * check-in), and the person other tests store with overrides (its code is drawn anew on insert).
 */

/** `true` only where each type is assignable to the other: the compiler then holds two copies of a type equal. */
export type MutuallyAssignable<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export function samplePerson(overrides: Partial<Person> = {}): Person {
  return {
    personId: newPersonId(),
    name: 'Grace Hopper',
    email: 'grace@example.com',
    employeeId: 'E-1042',
    phone: null,
    department: 'Engineering',
    notes: null,
    shootingDayId: 'day_01m6r25xbsgcvrzwhakaambmqy',
    packageId: null,
    orderNotes: null,
    code: 'K7QM',
    consents: NO_CONSENTS,
    customFields: {},
    source: 'import',
    createdAt: new Date().toISOString(),
    hasSelfie: false,
    photoCount: 0,
    ...overrides,
  };
}

export function sampleOrder(
  scope: { tenantId: string; galleryToken: string },
  buyer: Person,
  overrides: Partial<Order> = {},
): Order {
  const createdAt = new Date().toISOString();
  return {
    orderId: 'ord_01m95a3fbq9w6t4r2p0n8m6k4j',
    ...scope,
    status: 'pending',
    person: buyer,
    packageId: 'pkg_01m6r25xbtazhpeqcrzn3c9ej4',
    packageName: 'Portrait',
    amount: 2900,
    currency: 'eur',
    accountId: 'acct_1Abc',
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}
