import { createHmac } from 'node:crypto';
import { now } from '#lib/platform/clock';
import { requireEnv } from '#lib/platform/config';
import { secretValue } from '#lib/platform/secrets-manager';
import { getPerson } from '#lib/persons/store/persons';
import type { Person } from '#lib/persons/rules/person-model';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { DomainError } from '#lib/platform/domain-error';
import { photoViewUrl } from '#lib/photos/links/rules/photo-view-url';
import { signPhotoLink, verifyPhotoLink } from '#lib/photos/links/rules/photo-link-token';

/**
 * Photo links (docs/photos.md#photo-links): the link of a person, signed with the deployment's
 * link key, and the person a link opens. The emails of lib/photos/notices/ carry one; the
 * "My photos" view and picks of lib/photos/access/ open one. Configuration: PHOTO_LINK_KEY (the
 * signing key, a secret) and CHECKIN_PAGE_URL (the page whose "My photos" view the link opens).
 */

/** The key photo links are signed with (the deployment's PhotoLinkKey secret); never logged. */
export async function photoLinkKey(): Promise<string> {
  const key = await secretValue('PHOTO_LINK_KEY');
  if (!key) throw new Error('PHOTO_LINK_KEY is not configured');
  return key;
}

/** A keyed hash of a value under the photo link key, for counters that must not hold the value (an access code). */
export async function keyedDigest(purpose: string, value: string): Promise<string> {
  return createHmac('sha256', await photoLinkKey())
    .update(`${purpose}\n${value}`)
    .digest('base64url')
    .slice(0, 22);
}

/** A new photo link of the person (of the tenant with this slug), and the view's address that opens it. */
export async function photoLinkOf(
  tenantSlug: string,
  scope: GalleryScope,
  personId: string,
): Promise<{ url: string; expiresAt: string }> {
  const { photoLink, expiresAt } = signPhotoLink(
    await photoLinkKey(),
    { tenantId: scope.tenantId, galleryToken: scope.token, personId },
    now(),
  );
  return {
    url: photoViewUrl(requireEnv('CHECKIN_PAGE_URL'), { tenantSlug, galleryToken: scope.token, photoLink }),
    expiresAt,
  };
}

/**
 * The person of a photo link of the gallery `scope`. A link that is malformed, forged, of
 * another gallery, expired, or whose person was erased is 403 photo_link_invalid.
 */
export async function personOfPhotoLink(scope: GalleryScope, photoLink: string): Promise<Person> {
  const personId = verifyPhotoLink(
    await photoLinkKey(),
    { tenantId: scope.tenantId, galleryToken: scope.token },
    photoLink,
    now(),
  );
  const person = personId === undefined ? undefined : await getPerson(scope, personId);
  if (!person) throw new DomainError('invalid_photo_link');
  return person;
}
