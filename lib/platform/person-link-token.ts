import { createHmac, timingSafeEqual } from 'node:crypto';
import { PERSON_ID_SOURCE } from '#lib/platform/identifiers';

/**
 * Tokens that open something for one person of one gallery by a link sent to their address
 * (photo links, check-in invitations). A token names the person and when it expires, and
 * carries an HMAC-SHA256 over its purpose, the tenant, the gallery, the person and the expiry,
 * made with the deployment's link key: whoever holds no key cannot make one, and one made for
 * another purpose, person, gallery or tenant, or with its expiry changed, does not verify. It
 * holds no email, name or code.
 *
 * Form: `<personId>.<expiry in epoch seconds>.<MAC, base64url>`.
 */

/** Who a token is for: the person of one gallery of one tenant. */
export interface PersonLinkSubject {
  tenantId: string;
  galleryToken: string;
  personId: string;
}

/**
 * What a token is for, named and versioned by the feature that makes it (`photo-link-v1`); part
 * of its MAC, so that a token of one purpose opens nothing of another.
 */
export type PersonLinkPurpose = `${string}-v${number}`;

/** The longest token this module makes, for the schemas' limits. */
export const PERSON_LINK_MAX_LENGTH = 120;

const PERSON_ID = new RegExp(`^${PERSON_ID_SOURCE}$`);
const EXPIRY = /^[0-9]{1,12}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

function macOf(key: string, purpose: PersonLinkPurpose, subject: PersonLinkSubject, expirySeconds: number): Buffer {
  // Every part is of a known shape without dots or newlines, so joining them is unambiguous.
  const message = [purpose, subject.tenantId, subject.galleryToken, subject.personId, String(expirySeconds)].join('\n');
  return createHmac('sha256', key).update(message, 'utf8').digest();
}

/** A token for the subject that expires at `expiresAtMs` (to the second below). */
export function signPersonLink(
  key: string,
  purpose: PersonLinkPurpose,
  subject: PersonLinkSubject,
  expiresAtMs: number,
): { token: string; expiresAt: string } {
  const expirySeconds = Math.floor(expiresAtMs / 1000);
  const mac = macOf(key, purpose, subject, expirySeconds).toString('base64url');
  return {
    token: `${subject.personId}.${expirySeconds}.${mac}`,
    expiresAt: new Date(expirySeconds * 1000).toISOString(),
  };
}

/**
 * The person a token of `purpose` names in this gallery at `at`, or undefined for a token that
 * is malformed, forged, made for another purpose, gallery or tenant, or expired. The MAC is
 * compared in constant time. Whether the person still exists is the caller's question.
 */
export function verifyPersonLink(
  key: string,
  purpose: PersonLinkPurpose,
  gallery: { tenantId: string; galleryToken: string },
  token: string,
  at: number,
): string | undefined {
  const [personId, expiry, mac, ...rest] = token.split('.');
  if (
    rest.length > 0 ||
    !personId ||
    !expiry ||
    !mac ||
    !PERSON_ID.test(personId) ||
    !EXPIRY.test(expiry) ||
    !MAC.test(mac)
  )
    return undefined;
  const expected = macOf(key, purpose, { ...gallery, personId }, Number(expiry));
  if (!timingSafeEqual(expected, Buffer.from(mac, 'base64url'))) return undefined;
  return Number(expiry) * 1000 > at ? personId : undefined;
}
