/**
 * Checking the webhooks groupshoot sends, for the receiving end (an integrator's server). Each
 * POST carries `Groupshoot-Signature: t=<Unix seconds>,v1=<hex>[,v1=<hex>…]`, an HMAC-SHA256 of
 * `<t>.<body>` under the subscription's signing secret (one v1 per secret while a rotated secret
 * is still valid). Verify the raw body as received, before parsing it: re-serialised JSON differs.
 *
 * Self-contained on purpose (node:crypto only), so that receivers can copy it as it is.
 */

import { createHmac, timingSafeEqual } from 'node:crypto';

/** The events a subscription can receive. */
export type WebhookEventType = 'person.created' | 'checkin.completed' | 'order.paid' | 'order.expired' | 'order.canceled' | 'photos.assigned';

/** The JSON body of every webhook POST. */
export interface WebhookEnvelope {
  /** evt_…, the same for every attempt of one event: use it to ignore repeats. */
  id: string;
  type: WebhookEventType;
  /** When the change happened (ISO 8601), not when it was sent. */
  createdAt: string;
  apiVersion: 'v1';
  tenantSlug: string;
  galleryToken: string;
  data: unknown;
}

export type WebhookSignatureErrorCode = 'missing_header' | 'malformed_header' | 'timestamp_outside_tolerance' | 'no_matching_signature';

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
export function verifyWebhookSignature(body: string | Buffer, header: string | undefined | null, secret: string, options: VerifyOptions = {}): void {
  const { timestamp, signatures } = parseHeader(header);
  const expected = createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest();
  // Every signature is compared, and in constant time, so timing tells nothing about the secret.
  const matches = signatures.map((signature) => timingSafeEqual(Buffer.from(signature, 'hex'), expected));
  if (!matches.includes(true)) throw new WebhookSignatureError('no_matching_signature', 'No signature in the header matches the body and secret.');
  const toleranceSeconds = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  const nowSeconds = (options.now ?? Date.now)() / 1000;
  if (Math.abs(nowSeconds - timestamp) > toleranceSeconds) {
    throw new WebhookSignatureError('timestamp_outside_tolerance', `The signature was made more than ${toleranceSeconds} s from now.`);
  }
}

/** Verifies a webhook (see verifyWebhookSignature) and returns its parsed body. */
export function constructWebhookEvent<T = WebhookEnvelope>(body: string | Buffer, header: string | undefined | null, secret: string, options: VerifyOptions = {}): T {
  verifyWebhookSignature(body, header, secret, options);
  return JSON.parse(typeof body === 'string' ? body : body.toString('utf8')) as T;
}

/** `t=<seconds>` once and at least one `v1=<64 hex>`; other schemes (v0, …) are ignored. */
function parseHeader(header: string | undefined | null): { timestamp: number; signatures: string[] } {
  if (header === undefined || header === null || header.trim() === '') {
    throw new WebhookSignatureError('missing_header', 'The Groupshoot-Signature header is missing.');
  }
  const malformed = () => new WebhookSignatureError('malformed_header', 'The Groupshoot-Signature header is not t=<seconds>,v1=<signature>.');
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
