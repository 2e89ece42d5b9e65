import type { WebhookEnvelope, WebhookEventDataOf, WebhookEventType } from '#lib/client/webhook-signature';
import {
  type EVENT_API_VERSION,
  EVENT_TYPES,
  type EventDataOf,
  type EventType,
  checkinCompleted,
  envelopeOf,
  hrExportReady,
  orderEnded,
  orderPaid,
  personCreated,
  photoPicked,
  personConsentChanged,
} from '#lib/events/rules/event-catalogue';
import { type MutuallyAssignable, sampleOrder, samplePerson } from '../../support/event-samples';

/**
 * The typed client (lib/client/webhook-signature.ts) is self-contained, so it repeats the
 * catalogue's data types; the compiler holds the two copies equal, and the samples below,
 * typed with the client's types, hold it to the members the catalogue really fills in.
 */

// Compile time: `npx tsc` fails as soon as one side changes without the other.
const sameTypes: MutuallyAssignable<WebhookEventType, EventType> = true;
const sameData: { [T in EventType]: MutuallyAssignable<EventDataOf[T], WebhookEventDataOf[T]> } = {
  'person.created': true,
  'checkin.completed': true,
  'order.paid': true,
  'order.expired': true,
  'order.canceled': true,
  'photos.assigned': true,
  'photos.withheld': true,
  'photo.picked': true,
  'hr_export.ready': true,
  'person.consent_changed': true,
};
const sameApiVersion: MutuallyAssignable<typeof EVENT_API_VERSION, WebhookEnvelope['apiVersion']> = true;

/** One `data` of each type, written against the client's types (an object literal may hold no member they lack). */
const CLIENT_SAMPLES: { [T in WebhookEventType]: WebhookEventDataOf[T] } = {
  'person.created': { personId: 'per_1', source: 'import', employeeId: 'E-1', email: null, shootingDayId: null },
  'checkin.completed': { personId: 'per_1', shootingDayId: null, packageId: null, orderId: null },
  'order.paid': {
    orderId: 'ord_1',
    packageId: 'pkg_1',
    amount: 2900,
    currency: 'eur',
    shootingDayId: null,
    personId: 'per_1',
  },
  'order.expired': { orderId: 'ord_1', packageId: 'pkg_1', amount: 2900, currency: 'eur', shootingDayId: null },
  'order.canceled': { orderId: 'ord_1', packageId: 'pkg_1', amount: 2900, currency: 'eur', shootingDayId: null },
  'photos.assigned': { personId: 'per_1', photosAdded: 1 },
  'photos.withheld': { photosWithheld: 1 },
  'photo.picked': { personId: 'per_1', photoId: 'pho_1', pickedBy: 'participant' },
  'hr_export.ready': { exportId: 'hrx_1', shootingDayId: null, exported: 1, skipped: { noConsent: 0, noPhoto: 0 } },
  'person.consent_changed': {
    personId: 'per_1',
    consent: 'notificationConsent',
    given: false,
    changedBy: 'participant',
  },
};

const scope = { tenantId: 'ten_1', galleryToken: 'hpfvwks795s6wvs8' };
const buyer = samplePerson({
  personId: 'per_1',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  employeeId: 'E-1',
  department: null,
  shootingDayId: null,
  packageId: 'pkg_1',
  source: 'checkin',
  createdAt: '2026-12-06T09:14:03.512Z',
});
const reservation = sampleOrder(scope, buyer, {
  orderId: 'ord_1',
  packageId: 'pkg_1',
  accountId: 'acct_1',
  createdAt: buyer.createdAt,
  updatedAt: buyer.createdAt,
});

/** The `data` members the catalogue fills in for each type (the coalesced photos.* events' come from their stored item, lib/events/store/outbox.ts). */
const CATALOGUE_MEMBERS: { [T in EventType]: string[] } = {
  'person.created': Object.keys(personCreated(scope, buyer).data),
  'checkin.completed': Object.keys(checkinCompleted(scope, buyer, null).data),
  'order.paid': Object.keys(orderPaid(reservation, buyer.personId).data),
  'order.expired': Object.keys(orderEnded(reservation, 'expired').data),
  'order.canceled': Object.keys(orderEnded(reservation, 'canceled').data),
  'photos.assigned': ['personId', 'photosAdded'],
  'photos.withheld': ['photosWithheld'],
  'photo.picked': Object.keys(
    photoPicked(scope, { personId: 'per_1', photoId: 'pho_1', pickedBy: 'photographer' }).data,
  ),
  'hr_export.ready': Object.keys(
    hrExportReady(scope, { exportId: 'hrx_1', shootingDayId: null, exported: 1, skipped: { noConsent: 0, noPhoto: 0 } })
      .data,
  ),
  'person.consent_changed': Object.keys(
    personConsentChanged(
      scope,
      { personId: 'per_1', consent: 'hrExportConsent', given: false, changedBy: 'participant' },
      '2026-12-09T18:44:30.261Z',
    ).data,
  ),
};

/** What a receiver writes: narrowing on `type` reaches each type's own members. */
function summary(event: WebhookEnvelope): string {
  switch (event.type) {
    case 'order.paid':
      return `${event.data.orderId} paid ${event.data.amount} ${event.data.currency} for ${event.data.personId}`;
    case 'photos.assigned':
      return `${event.data.photosAdded} photos for ${event.data.personId}`;
    default:
      return event.type;
  }
}

describe('typed client: webhook event types', () => {
  it('has the catalogue’s event types and data shapes (checked by the compiler)', () => {
    // Assess: the constants above compile only while every entry is true.
    expect([sameTypes, sameApiVersion]).toEqual([true, true]);
    expect(Object.keys(sameData).sort()).toEqual([...EVENT_TYPES].sort());
    expect(Object.values(sameData).every(Boolean)).toBe(true);
  });

  it.each(EVENT_TYPES)('types %s with exactly the members the catalogue sends', (type) => {
    expect(Object.keys(CLIENT_SAMPLES[type]).sort()).toEqual([...CATALOGUE_MEMBERS[type]].sort());
  });

  it('narrows `data` by `type` on a body the service built', () => {
    // Prepare
    const body = JSON.parse(
      JSON.stringify(envelopeOf(orderPaid(reservation, buyer.personId), 'acme-photo')),
    ) as WebhookEnvelope;

    // Act
    const text = summary(body);

    // Assess
    expect(text).toBe('ord_1 paid 2900 eur for per_1');
  });
});
