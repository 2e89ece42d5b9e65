import { createHash } from 'node:crypto';
import { encodeTime, monotonicFactory } from 'ulid';
import { pooledRandomFraction } from '#lib/platform/secret-values';
import { now } from '#lib/platform/clock';

/**
 * The events the service reports to webhook subscriptions (docs/events.md). Each is written
 * as an item in the same transaction as the change it reports (lib/events/store/outbox.ts), so a change
 * that rolls back reports nothing. `data` holds only what an integration needs to act: IDs,
 * the matching keys HR systems use (employee ID, email), never names, access codes, form answers
 * or selfies, and no consent but the one a person.consent_changed names with its new value.
 */

export const EVENT_TYPES = [
  'person.created',
  'checkin.completed',
  'order.paid',
  'order.expired',
  'order.canceled',
  'photos.assigned',
  'photos.withheld',
  'photo.picked',
  'hr_export.ready',
  'person.consent_changed',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** The version of the envelope and of every `data` shape; a change that breaks a consumer gets a new one. */
export const EVENT_API_VERSION = 'v1';

export interface PersonCreatedData {
  personId: string;
  source: 'import' | 'checkin';
  employeeId: string | null;
  email: string | null;
  shootingDayId: string | null;
}

export interface CheckinCompletedData {
  personId: string;
  shootingDayId: string | null;
  packageId: string | null;
  /** The paid order the check-in completed with, or null for a free check-in. */
  orderId: string | null;
}

export interface OrderData {
  orderId: string;
  packageId: string;
  amount: number;
  currency: string;
  shootingDayId: string | null;
}

export interface OrderPaidData extends OrderData {
  personId: string;
}

export interface PhotosAssignedData {
  personId: string;
  /** Photos assigned to the person within the coalescing window this event covers. */
  photosAdded: number;
}

export interface PhotosWithheldData {
  /** Shoot photos withheld for review within the coalescing window this event covers. */
  photosWithheld: number;
}

export interface PhotoPickedData {
  personId: string;
  photoId: string;
  /** Who chose it: the participant on "My photos", or the photographer (admin photo pick). */
  pickedBy: 'participant' | 'photographer';
}

export interface HrExportReadyData {
  exportId: string;
  /** The shooting day the export covers, or null for the whole gallery. */
  shootingDayId: string | null;
  /** Portraits in the ZIP. */
  exported: number;
  /** Persons left out, by reason. */
  skipped: { noConsent: number; noPhoto: number };
}

export interface PersonConsentChangedData {
  personId: string;
  /** Which consent changed: never consentGiven, which only erasure ends. */
  consent: 'faceConsent' | 'notificationConsent' | 'hrExportConsent';
  /** Its value from now on: false withdrawn, true given again. */
  given: boolean;
  /** Who changed it: the participant (photo link page, unsubscribe link) or the studio. */
  changedBy: 'participant' | 'studio';
}

export interface EventDataOf {
  'person.created': PersonCreatedData;
  'checkin.completed': CheckinCompletedData;
  'order.paid': OrderPaidData;
  'order.expired': OrderData;
  'order.canceled': OrderData;
  'photos.assigned': PhotosAssignedData;
  'photos.withheld': PhotosWithheldData;
  'photo.picked': PhotoPickedData;
  'hr_export.ready': HrExportReadyData;
  'person.consent_changed': PersonConsentChangedData;
}

/** An event as the outbox stores it; the envelope a subscriber receives is built from it (envelopeOf). */
export interface ServiceEvent<T extends EventType = EventType> {
  eventId: string;
  type: T;
  createdAt: string;
  tenantId: string;
  galleryToken: string;
  /** The person the event concerns, where there is one: erasure removes the person's events. */
  personId: string | null;
  data: EventDataOf[T];
  /** Not delivered before this time (ms): a coalesced event waits for its window to close. */
  deliverAfter?: number;
}

/** What a subscriber receives. */
export interface EventEnvelope {
  id: string;
  type: EventType;
  createdAt: string;
  apiVersion: string;
  tenantSlug: string;
  galleryToken: string;
  data: unknown;
}

/** Photos of one person assigned within this window become one photos.assigned event. */
export const PHOTOS_COALESCING_WINDOW_MS = 5 * 60_000;

const eventUlid = monotonicFactory(pooledRandomFraction);

/** `evt_` + a ULID: unique, and sorting by ID sorts by creation. */
export function newEventId(): string {
  return `evt_${eventUlid(now())}`;
}

export function isEventType(value: string): value is EventType {
  return (EVENT_TYPES as readonly string[]).includes(value);
}

type EventScope = { tenantId: string; galleryToken: string };

/**
 * What the events below read of a person and of an order. Stated here, not imported, so that the
 * events module stays below the persons and payments features that write events.
 */
interface PersonFacts {
  personId: string;
  source: PersonCreatedData['source'];
  employeeId: string | null;
  email: string | null;
  shootingDayId: string | null;
  packageId: string | null;
}

interface OrderFacts {
  tenantId: string;
  galleryToken: string;
  orderId: string;
  packageId: string;
  amount: number;
  currency: string;
  person: { shootingDayId: string | null };
}

function serviceEvent<T extends EventType>(
  scope: EventScope,
  type: T,
  personId: string | null,
  data: EventDataOf[T],
): ServiceEvent<T> {
  return { eventId: newEventId(), type, createdAt: new Date(now()).toISOString(), ...scope, personId, data };
}

export function personCreated(scope: EventScope, person: PersonFacts): ServiceEvent<'person.created'> {
  return serviceEvent(scope, 'person.created', person.personId, {
    personId: person.personId,
    source: person.source,
    employeeId: person.employeeId,
    email: person.email,
    shootingDayId: person.shootingDayId,
  });
}

export function checkinCompleted(
  scope: EventScope,
  person: PersonFacts,
  orderId: string | null,
): ServiceEvent<'checkin.completed'> {
  return serviceEvent(scope, 'checkin.completed', person.personId, {
    personId: person.personId,
    shootingDayId: person.shootingDayId,
    packageId: person.packageId,
    orderId,
  });
}

function orderData(order: OrderFacts): OrderData {
  return {
    orderId: order.orderId,
    packageId: order.packageId,
    amount: order.amount,
    currency: order.currency,
    shootingDayId: order.person.shootingDayId,
  };
}

export function orderPaid(order: OrderFacts, personId: string): ServiceEvent<'order.paid'> {
  return serviceEvent({ tenantId: order.tenantId, galleryToken: order.galleryToken }, 'order.paid', personId, {
    ...orderData(order),
    personId,
  });
}

/** order.expired or order.canceled: a reservation ended unpaid; no person was created, so none is named. */
export function orderEnded(
  order: OrderFacts,
  status: 'expired' | 'canceled',
): ServiceEvent<'order.expired' | 'order.canceled'> {
  return serviceEvent(
    { tenantId: order.tenantId, galleryToken: order.galleryToken },
    status === 'expired' ? 'order.expired' : 'order.canceled',
    null,
    orderData(order),
  );
}

/** photo.picked: the person's portrait was chosen; a later pick sends another. */
export function photoPicked(scope: EventScope, pick: PhotoPickedData): ServiceEvent<'photo.picked'> {
  return serviceEvent(scope, 'photo.picked', pick.personId, {
    personId: pick.personId,
    photoId: pick.photoId,
    pickedBy: pick.pickedBy,
  });
}

/**
 * person.consent_changed: a consent of the person changed after check-in. It names the consent and
 * its new value, never the person's data; its createdAt is the change's time.
 */
export function personConsentChanged(
  scope: EventScope,
  change: PersonConsentChangedData,
  at: string,
): ServiceEvent<'person.consent_changed'> {
  return {
    ...serviceEvent(scope, 'person.consent_changed', change.personId, {
      personId: change.personId,
      consent: change.consent,
      given: change.given,
      changedBy: change.changedBy,
    }),
    createdAt: at,
  };
}

/** hr_export.ready: an HR export's ZIP is ready to download (GET …/hr-exports/{exportId}); it names no person. */
export function hrExportReady(scope: EventScope, data: HrExportReadyData): ServiceEvent<'hr_export.ready'> {
  return serviceEvent(scope, 'hr_export.ready', null, data);
}

/**
 * The photos.assigned event that collects a person's photos assigned in the window containing
 * `at`: its ID is derived from person and window, so every photo of the window adds to the same
 * event, and it is delivered once the window has closed.
 */
export function photosAssignedWindow(personId: string, at: number): { eventId: string; windowEnd: number } {
  return coalescingWindow(personId, at);
}

/**
 * The photos.withheld event that collects a gallery's photos withheld for review in the window
 * containing `at`: one per gallery and window, naming no person (a withheld photo may show
 * someone who never consented to anything).
 */
export function photosWithheldWindow(galleryToken: string, at: number): { eventId: string; windowEnd: number } {
  return coalescingWindow(`withheld@${galleryToken}`, at);
}

function coalescingWindow(subject: string, at: number): { eventId: string; windowEnd: number } {
  const windowStart = Math.floor(at / PHOTOS_COALESCING_WINDOW_MS) * PHOTOS_COALESCING_WINDOW_MS;
  const suffix = crockfordOf(createHash('sha256').update(`${subject}@${windowStart}`).digest()).slice(0, 16);
  return {
    eventId: `evt_${encodeTime(windowStart, 10)}${suffix}`,
    windowEnd: windowStart + PHOTOS_COALESCING_WINDOW_MS,
  };
}

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

function crockfordOf(bytes: Buffer): string {
  return [...bytes].map((byte) => CROCKFORD[byte % 32]).join('');
}

/** The JSON a subscriber receives for an event; the same bytes on every attempt. */
export function envelopeOf(event: ServiceEvent, tenantSlug: string): EventEnvelope {
  return {
    id: event.eventId,
    type: event.type,
    createdAt: event.createdAt,
    apiVersion: EVENT_API_VERSION,
    tenantSlug,
    galleryToken: event.galleryToken,
    data: event.data,
  };
}
