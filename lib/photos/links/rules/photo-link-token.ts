import {
  PERSON_LINK_MAX_LENGTH,
  type PersonLinkSubject,
  signPersonLink,
  verifyPersonLink,
} from '#lib/platform/person-link-token';

/**
 * Photo links (docs/photos.md#photo-links): a token that opens one person's "My photos" view
 * without their access code, signed with the deployment's link key (lib/platform/person-link-token.ts).
 */

/** How long a photo link opens the photos: 7 days, long enough to find the email again after a week of holidays. */
export const PHOTO_LINK_LIFETIME_MS = 7 * 24 * 60 * 60_000;

/** Who a link is for: the person of one gallery of one tenant. */
export type PhotoLinkSubject = PersonLinkSubject;

/** The longest token this module makes, for the schema's limit. */
export const PHOTO_LINK_MAX_LENGTH = PERSON_LINK_MAX_LENGTH;

/** A link token for the subject that expires PHOTO_LINK_LIFETIME_MS after `at`. */
export function signPhotoLink(
  key: string,
  subject: PhotoLinkSubject,
  at: number,
): { photoLink: string; expiresAt: string } {
  const { token, expiresAt } = signPersonLink(key, 'photo-link-v1', subject, at + PHOTO_LINK_LIFETIME_MS);
  return { photoLink: token, expiresAt };
}

/**
 * The person a link token opens in this gallery at `at`, or undefined for a token that is
 * malformed, forged, made for another gallery or tenant, or expired. Whether the person still
 * exists is the caller's question (erasure ends a link).
 */
export function verifyPhotoLink(
  key: string,
  gallery: { tenantId: string; galleryToken: string },
  photoLink: string,
  at: number,
): string | undefined {
  return verifyPersonLink(key, 'photo-link-v1', gallery, photoLink, at);
}
