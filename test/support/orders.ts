import { randomBytes } from 'node:crypto';
import { nowIso } from '#lib/platform/clock';
import type { Order } from '#lib/payments/rules/order-model';
import { NO_CONSENTS, newPersonId } from '#lib/persons/rules/person-model';

/**
 * A pending order as a paid check-in makes it, for tests that write orders without the API.
 * Its participant has an address of their own (one reservation per address waits for payment).
 */
export function pendingOrder(
  scope: { tenantId: string; galleryToken: string; dayId: string },
  overrides: Partial<Order> = {},
): Order {
  const createdAt = nowIso();
  const orderId = `ord_${randomBytes(8).toString('hex')}`;
  return {
    orderId,
    tenantId: scope.tenantId,
    galleryToken: scope.galleryToken,
    status: 'pending',
    person: {
      personId: newPersonId(),
      name: 'Paying Participant',
      email: `participant-${orderId}@example.com`,
      employeeId: null,
      phone: null,
      department: null,
      notes: null,
      shootingDayId: scope.dayId,
      packageId: 'pkg_paid',
      orderNotes: null,
      consents: NO_CONSENTS,
      customFields: {},
      source: 'checkin',
      createdAt,
      hasSelfie: false,
      photoCount: 0,
    },
    packageId: 'pkg_paid',
    packageName: 'Prints',
    amount: 2500,
    currency: 'eur',
    accountId: 'acct_walk',
    createdAt,
    updatedAt: createdAt,
    ...overrides,
  };
}
