import type { WebhookEnvelope, WebhookEventType } from '#lib/client/webhook-signature';

/**
 * Example answers for the OpenAPI document, hand-written where generation cannot invent
 * realistic values; tests validate each against its own schema.
 */
export const EXAMPLES: Record<string, Record<string, unknown>> = {
  importPersons: {
    ok: true,
    requestId: 'a1B2c3D4e5F6g7H8',
    galleryToken: 'hpfvwks795s6wvs8',
    imported: 1,
    skipped: 1,
    persons: [
      {
        personId: 'per_01m80q1gezmm1ck1e5s2zp25hb',
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        employeeId: 'E-1',
        shootingDayId: null,
        code: 'K7QM',
      },
    ],
    skippedDetails: [{ index: 1, reason: 'email_invalid' }],
  },
  listShootingDays: {
    ok: true,
    requestId: 'a1B2c3D4e5F6g7H8',
    galleryToken: 'hpfvwks795s6wvs8',
    shootingDays: [
      {
        id: 'day_01m80q1gezmm1ck1e5s2zp25hb',
        date: '2026-12-06',
        label: 'Headquarters',
        startTime: '09:00',
        endTime: '17:00',
        maxPersons: 60,
        spotsRemaining: 19,
        booked: 41,
      },
    ],
  },
  submitCheckin: {
    ok: true,
    personId: 'per_01m80q1gezmm1ck1e5s2zp25hb',
    code: 'K7QM',
    name: 'Ada Lovelace',
    requestId: 'a1B2c3D4e5F6g7H8',
  },
};

const envelope = { apiVersion: 'v1', tenantSlug: 'acme-photo', galleryToken: 'hpfvwks795s6wvs8' } as const;
const shootingDayId = 'day_01m6r25xbsgcvrzwhakaambmqy';
const packageId = 'pkg_01m6r25xbtazhpeqcrzn3c9ej4';

/**
 * An example body of each webhook event, for the OpenAPI document's `webhooks`; tests validate
 * each against its schema, and docs/events.md shows the same bodies.
 */
export const EVENT_EXAMPLES: { [T in WebhookEventType]: WebhookEnvelope<T> } = {
  'person.created': {
    id: 'evt_01M95A3FBR2REVF2CSY2AX4HSP',
    type: 'person.created',
    createdAt: '2026-12-06T09:14:03.512Z',
    ...envelope,
    data: {
      personId: 'per_01m6r25xbrbjvqqh90ejd3y8jz',
      source: 'import',
      employeeId: 'E-1042',
      email: 'grace@example.com',
      shootingDayId,
    },
  },
  'checkin.completed': {
    id: 'evt_01M95A5AY0YR4CQSHKSH22Y2WS',
    type: 'checkin.completed',
    createdAt: '2026-12-06T09:15:04.512Z',
    ...envelope,
    data: {
      personId: 'per_01m95a3fbq7c2x9k4d6h8j0m2n',
      shootingDayId,
      packageId,
      orderId: 'ord_01m95a3fbq9w6t4r2p0n8m6k4j',
    },
  },
  'order.paid': {
    id: 'evt_01M95A5AY0YR4CQSHKSH22Y2WT',
    type: 'order.paid',
    createdAt: '2026-12-06T09:15:04.512Z',
    ...envelope,
    data: {
      orderId: 'ord_01m95a3fbq9w6t4r2p0n8m6k4j',
      packageId,
      amount: 2900,
      currency: 'eur',
      shootingDayId,
      personId: 'per_01m95a3fbq7c2x9k4d6h8j0m2n',
    },
  },
  'order.expired': {
    id: 'evt_01M95A76G89NKDFZPPACSEK8P3',
    type: 'order.expired',
    createdAt: '2026-12-06T09:16:05.512Z',
    ...envelope,
    data: { orderId: 'ord_01m95a5ay0c3e5g7j9k1m3p5r7', packageId, amount: 2900, currency: 'eur', shootingDayId },
  },
  'order.canceled': {
    id: 'evt_01M95A922GBB56E8ZW5MJQ3ADR',
    type: 'order.canceled',
    createdAt: '2026-12-06T09:17:06.512Z',
    ...envelope,
    data: { orderId: 'ord_01m95a5ay1d4f6h8k0m2n4q6s8', packageId, amount: 2900, currency: 'eur', shootingDayId },
  },
  'photos.assigned': {
    id: 'evt_01M95G5EW06KWVNW74PFC1E9JC',
    type: 'photos.assigned',
    createdAt: '2026-12-06T11:02:41.208Z',
    ...envelope,
    data: { personId: 'per_01m6r25xbrbjvqqh90ejd3y8jz', photosAdded: 12 },
  },
  'photos.withheld': {
    id: 'evt_01M95GEKV0V16H16F6CKR84G1G',
    type: 'photos.withheld',
    createdAt: '2026-12-06T11:07:18.604Z',
    ...envelope,
    data: { photosWithheld: 3 },
  },
  'photo.picked': {
    id: 'evt_01M95H2Q8R3T6V9X1Z4B7D0F2H',
    type: 'photo.picked',
    createdAt: '2026-12-06T11:20:05.117Z',
    ...envelope,
    data: {
      personId: 'per_01m6r25xbrbjvqqh90ejd3y8jz',
      photoId: 'pho_3f9c2a71d0b84e56a1c7e2d9',
      pickedBy: 'participant',
    },
  },
  'hr_export.ready': {
    id: 'evt_01M95H2T9Q4X7B3N6C8D0F2G4J',
    type: 'hr_export.ready',
    createdAt: '2026-12-08T08:30:12.044Z',
    ...envelope,
    data: {
      exportId: 'hrx_01m95h2r4k6m8p0r2t4v6x8z0b',
      shootingDayId: null,
      exported: 118,
      skipped: { noConsent: 9, noPhoto: 3 },
    },
  },
  'person.consent_changed': {
    id: 'evt_01M95J4A2C5E8G1J3K6M9P2R5T',
    type: 'person.consent_changed',
    createdAt: '2026-12-09T18:44:30.261Z',
    ...envelope,
    data: {
      personId: 'per_01m6r25xbrbjvqqh90ejd3y8jz',
      consent: 'hrExportConsent',
      given: false,
      changedBy: 'participant',
    },
  },
};
