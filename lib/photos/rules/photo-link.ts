import { createHmac, timingSafeEqual } from 'node:crypto';
import { PERSON_ID_SOURCE } from '#lib/platform/identifiers';

/**
 * Photo links (docs/photos.md#photo-links): a token that opens one person's "My photos" view
 * without their access code. It names the person and when it expires, and carries an HMAC-SHA256
 * over the tenant, the gallery, the person and the expiry, made with the deployment's photo link
 * key: whoever holds no key cannot make one, and one made for another person, gallery or tenant,
 * or with its expiry changed, does not verify. The token holds no email, name or code.
 *
 * Form: `<personId>.<expiry in epoch seconds>.<MAC, base64url>`.
 */

/** How long a photo link opens the photos: 7 days, long enough to find the email again after a week of holidays. */
export const PHOTO_LINK_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** Who a link is for: the person of one gallery of one tenant. */
export interface PhotoLinkSubject {
  tenantId: string;
  galleryToken: string;
  personId: string;
}

const PERSON_ID = new RegExp(`^${PERSON_ID_SOURCE}$`);
const EXPIRY = /^[0-9]{1,12}$/;
const MAC = /^[A-Za-z0-9_-]{43}$/;

/** The longest token this module makes, for the schema's limit. */
export const PHOTO_LINK_MAX_LENGTH = 120;

function macOf(key: string, subject: PhotoLinkSubject, expirySeconds: number): Buffer {
  // Every part is of a known shape without dots or newlines, so joining them is unambiguous.
  const message = ['photo-link-v1', subject.tenantId, subject.galleryToken, subject.personId, String(expirySeconds)].join('\n');
  return createHmac('sha256', key).update(message, 'utf8').digest();
}

/** A link token for the subject that expires PHOTO_LINK_LIFETIME_MS after `at`. */
export function signPhotoLink(key: string, subject: PhotoLinkSubject, at: number): { photoLink: string; expiresAt: string } {
  const expirySeconds = Math.floor((at + PHOTO_LINK_LIFETIME_MS) / 1000);
  const mac = macOf(key, subject, expirySeconds).toString('base64url');
  return { photoLink: `${subject.personId}.${expirySeconds}.${mac}`, expiresAt: new Date(expirySeconds * 1000).toISOString() };
}

/**
 * The person a link token opens in this gallery at `at`, or undefined for a token that is
 * malformed, forged, made for another gallery or tenant, or expired. The MAC is compared in
 * constant time. Whether the person still exists is the caller's question (erasure ends a link).
 */
export function verifyPhotoLink(key: string, gallery: { tenantId: string; galleryToken: string }, photoLink: string, at: number): string | undefined {
  const [personId, expiry, mac, ...rest] = photoLink.split('.');
  if (rest.length > 0 || !personId || !expiry || !mac || !PERSON_ID.test(personId) || !EXPIRY.test(expiry) || !MAC.test(mac)) return undefined;
  const expected = macOf(key, { ...gallery, personId }, Number(expiry));
  if (!timingSafeEqual(expected, Buffer.from(mac, 'base64url'))) return undefined;
  return Number(expiry) * 1000 > at ? personId : undefined;
}
