import { createHmac } from 'node:crypto';
import { randomBase62 } from '#lib/platform/secret-values';

/**
 * How a webhook receiver knows a POST came from us and was not replayed later: the header
 * carries the time of signing and an HMAC-SHA256 of `<time>.<body>` under the subscription's
 * signing secret (the scheme Stripe uses, so receivers know it). While a rotated secret is in
 * its grace period the header holds one `v1` per valid secret, and a receiver that still
 * knows only the old one keeps accepting.
 */
export const SIGNATURE_HEADER = 'Groupshoot-Signature';

/** Where a signing secret starts, so that one pasted in the wrong place is recognisable. */
const SIGNING_SECRET_PREFIX = 'whsec_';

/**
 * The value of the Groupshoot-Signature header for a body: `t=<seconds>,v1=<hex>[,v1=<hex>…]`,
 * one `v1` per secret, in the order given. The body must be the exact bytes sent.
 */
export function signatureHeader(body: string, secrets: readonly string[], timestampSeconds: number): string {
  if (secrets.length === 0) throw new Error('a webhook is signed with at least one secret');
  if (!Number.isSafeInteger(timestampSeconds) || timestampSeconds < 0)
    throw new Error('the signing time is whole Unix seconds');
  const signedPayload = `${timestampSeconds}.${body}`;
  const signatures = secrets.map(
    (secret) => `v1=${createHmac('sha256', secret).update(signedPayload, 'utf8').digest('hex')}`,
  );
  return [`t=${timestampSeconds}`, ...signatures].join(',');
}

/** A new signing secret: 'whsec_' and 32 base62 characters (190 random bits). */
export function newSigningSecret(): string {
  return SIGNING_SECRET_PREFIX + randomBase62(32);
}
