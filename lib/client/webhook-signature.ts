/**
 * Checking the webhooks groupshoot sends, for the receiving end (an integrator's server). Each
 * POST carries `Groupshoot-Signature: t=<Unix seconds>,v1=<hex>[,v1=<hex>…]`, an HMAC-SHA256 of
 * `<t>.<body>` under the subscription's signing secret (one v1 per secret while a rotated secret
 * is still valid). Verify the raw body as received, before parsing it: re-serialised JSON differs.
 *
 * Self-contained on purpose (node:crypto only), so that receivers can copy it as it is.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';

/** `data` of person.created: a person was added to the gallery, by an import or a check-in. */
export interface PersonCreatedEventData {
  personId: string;
  /** import: an HR import; checkin: the participant's own check-in (free, or once paid). */
  source: 'import' | 'checkin';
  employeeId: string | null;
  email: string | null;
  shootingDayId: string | null;
}

/** `data` of checkin.completed: a participant checked in (a paid check-in once paid). */
export interface CheckinCompletedEventData {
  personId: string;
  shootingDayId: string | null;
  packageId: string | null;
  /** The paid order the check-in completed with; null for a free check-in. */
  orderId: string | null;
}

/** `data` of order.expired and order.canceled: a payment reservation ended unpaid. */
export interface OrderEventData {
  orderId: string;
  packageId: string;
  /** Minor units of the currency (cents). */
  amount: number;
  /** ISO 4217, lowercase (eur). */
  currency: string;
  shootingDayId: string | null;
}

/** `data` of order.paid: the reservation was paid and its person created. */
export interface OrderPaidEventData extends OrderEventData {
  personId: string;
}

/** `data` of photos.assigned: photos were assigned to a person (one event per person and 5-minute window). */
export interface PhotosAssignedEventData {
  personId: string;
  photosAdded: number;
}

/** `data` of photos.withheld: shoot photos wait for the studio's review (one event per gallery and 5-minute window). */
export interface PhotosWithheldEventData {
  photosWithheld: number;
}

/** `data` of photo.picked: the person's portrait was chosen; a later pick replaces it. */
export interface PhotoPickedEventData {
  personId: string;
  photoId: string;
  /** participant: on "My photos" of the check-in page; photographer: the studio's admin tool. */
  pickedBy: 'participant' | 'photographer';
}

/** `data` of hr_export.ready: an HR export's ZIP is ready (GET …/hr-exports/{exportId} gives its download URL). */
export interface HrExportReadyEventData {
  exportId: string;
  shootingDayId: string | null;
  exported: number;
  skipped: { noConsent: number; noPhoto: number };
}

/** `data` of person.consent_changed: a consent of the person changed after check-in; the event's createdAt is the change's time. */
export interface PersonConsentChangedEventData {
  personId: string;
  consent: 'faceConsent' | 'notificationConsent' | 'hrExportConsent';
  /** false: withdrawn; true: given again. */
  given: boolean;
  /** participant: the photo link's page or an email's unsubscribe link; studio: the studio's admin tool. */
  changedBy: 'participant' | 'studio';
}

/** Each event type and the shape of its `data` (docs/events.md#the-catalogue). */
export interface WebhookEventDataOf {
  'person.created': PersonCreatedEventData;
  'checkin.completed': CheckinCompletedEventData;
  'order.paid': OrderPaidEventData;
  'order.expired': OrderEventData;
  'order.canceled': OrderEventData;
  'photos.assigned': PhotosAssignedEventData;
  'photos.withheld': PhotosWithheldEventData;
  'photo.picked': PhotoPickedEventData;
  'hr_export.ready': HrExportReadyEventData;
  'person.consent_changed': PersonConsentChangedEventData;
}

/** The events a subscription can receive. */
export type WebhookEventType = keyof WebhookEventDataOf;

/** The JSON body of a webhook POST of one type. */
export interface WebhookEventOf<T extends WebhookEventType> {
  /** evt_…, the same for every attempt of one event: use it to ignore repeats. */
  id: string;
  type: T;
  /** When the change happened (ISO 8601), not when it was sent. */
  createdAt: string;
  apiVersion: 'v1';
  tenantSlug: string;
  galleryToken: string;
  data: WebhookEventDataOf[T];
}

/**
 * The JSON body of every webhook POST: a union told apart by `type`, so that checking the type
 * narrows `data` (`if (event.type === 'order.paid') event.data.amount`).
 */
export type WebhookEnvelope<T extends WebhookEventType = WebhookEventType> = { [K in T]: WebhookEventOf<K> }[T];

export type WebhookSignatureErrorCode =
  'missing_header' | 'malformed_header' | 'timestamp_outside_tolerance' | 'no_matching_signature';

/** A webhook that must not be trusted; `code` says why. Answer it with a 400. */
export class WebhookSignatureError extends Error {
  constructor(
    readonly code: WebhookSignatureErrorCode,
    message: string,
  ) {
    super(`${code}: ${message}`);
    this.name = 'WebhookSignatureError';
  }
}

export interface VerifyOptions {
  /** How far the signing time may be from now, either way (default 300 s): older ones may be replays. */
  toleranceSeconds?: number;
  /** The current time in milliseconds (default Date.now). */
  now?: () => number;
}

const DEFAULT_TOLERANCE_SECONDS = 300;
const SHA256_HEX = /^[0-9a-f]{64}$/i;

/**
 * Throws WebhookSignatureError unless the header holds a v1 signature of this body under
 * `secret` (any one of them matching is enough) and its time is within the tolerance of now.
 */
export function verifyWebhookSignature(
  body: string | Buffer,
  header: string | undefined | null,
  secret: string,
  options: VerifyOptions = {},
): void {
  const { timestamp, signatures } = parseHeader(header);
  const expected = createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
  // Every signature is compared, and in constant time, so timing tells nothing about the secret.
  const matches = signatures.map((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  if (!matches.includes(true))
    throw new WebhookSignatureError('no_matching_signature', 'No signature in the header matches the body and secret.');
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError(
      'timestamp_outside_tolerance',
      `The signature was made more than ${toleranceSeconds} s from now.`,
    );
  }
}

/** Verifies a webhook (see verifyWebhookSignature) and returns its parsed body. */
export function constructWebhookEvent<T = WebhookEnvelope>(
  body: string | Buffer,
  header: string | undefined | null,
  secret: string,
  options: VerifyOptions = {},
): T {
  verifyWebhookSignature(body, header, secret, options);
  return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as T;
}

/** `t=<seconds>` once and at least one `v1=<64 hex>`; other schemes (v0, …) are ignored. */
function parseHeader(header: string | undefined | null): { timestamp: number; signatures: string[] } {
  if (header === undefined || header === null || header.trim() === '') {
    throw new WebhookSignatureError('missing_header', 'The Groupshoot-Signature header is missing.');
  }
  const malformed = () =>
    new WebhookSignatureError('malformed_header', 'The Groupshoot-Signature header is not t=<seconds>,v1=<signature>.');
  const timestamps: string[] = [];
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const separator = part.indexOf('=');
    if (separator <= 0) throw malformed();
    const key = part.slice(0, separator).trim();
    const value = part.slice(separator + 1).trim();
    if (key === 't') timestamps.push(value);
    else if (key === 'v1') signatures.push(value);
  }
  const [timestamp] = timestamps;
  if (timestamps.length !== 1 || !/^\d{1,12}$/.test(timestamp!)) throw malformed();
  if (signatures.length === 0 || !signatures.every((signature) => SHA256_HEX.test(signature))) throw malformed();
  return { timestamp: Number(timestamp), signatures };
}
