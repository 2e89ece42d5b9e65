import { GALLERY_TOKEN_SOURCE, TENANT_ID_SOURCE } from '#lib/platform/identifiers';
import {
  PERSON_LINK_MAX_LENGTH,
  type PersonLinkSubject,
  signPersonLink,
  verifyPersonLink,
} from '#lib/platform/person-link-token';

/**
 * Unsubscribe links (docs/photos.md#one-click-unsubscribe): a token that does one thing for one
 * person, withdraw their notificationConsent, signed with the deployment's link key under a
 * purpose of its own (`unsubscribe-v1`, part of the MAC), so that it opens no photos and picks
 * none: a photo link's check refuses it, and this check refuses a photo link. Mail providers
 * POST to it without any header of ours, so it names the tenant and the gallery itself:
 * `<tenantId>.<galleryToken>.<person link token>` (none of the three holds a dot).
 */

const PURPOSE = 'unsubscribe-v1';

/**
 * How long an email's unsubscribe link works: a year, longer than a gallery keeps its persons by
 * default; an old email's link past it is refused, and the page a photo link opens still withdraws.
 */
export const UNSUBSCRIBE_LINK_LIFETIME_MS = 365 * 24 * 60 * 60_000;

/** The longest link this module makes: the tenant, the widest gallery token and the person token. */
export const UNSUBSCRIBE_LINK_MAX_LENGTH = 30 + 128 + PERSON_LINK_MAX_LENGTH + 2;

const SHAPE = new RegExp(`^(${TENANT_ID_SOURCE})\\.(${GALLERY_TOKEN_SOURCE})\\.(.+)$`);

/** The unsubscribe link token of the subject, expiring UNSUBSCRIBE_LINK_LIFETIME_MS after `at`. */
export function signUnsubscribeLink(key: string, subject: PersonLinkSubject, at: number): string {
  const { token } = signPersonLink(key, PURPOSE, subject, at + UNSUBSCRIBE_LINK_LIFETIME_MS);
  return `${subject.tenantId}.${subject.galleryToken}.${token}`;
}

/**
 * The person an unsubscribe link token names at `at`, with their tenant and gallery, or
 * undefined for a token that is malformed, forged, made for another purpose, or expired.
 */
export function verifyUnsubscribeLink(key: string, link: string, at: number): PersonLinkSubject | undefined {
  if (link.length > UNSUBSCRIBE_LINK_MAX_LENGTH) return undefined;
  const [, tenantId, galleryToken, token] = SHAPE.exec(link) ?? [];
  if (!tenantId || !galleryToken || !token) return undefined;
  const personId = verifyPersonLink(key, PURPOSE, { tenantId, galleryToken }, token, at);
  return personId === undefined ? undefined : { tenantId, galleryToken, personId };
}
