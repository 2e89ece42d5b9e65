import { now } from '#lib/platform/clock';
import { requireEnv } from '#lib/platform/config';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { photoLinkKey } from '#lib/photos/links/photo-links';
import type { PersonLinkSubject } from '#lib/platform/person-link-token';
import { signUnsubscribeLink, verifyUnsubscribeLink } from '#lib/photos/links/rules/unsubscribe-link-token';

/**
 * One-click unsubscribe links of the notification emails (docs/photos.md#one-click-unsubscribe):
 * the API's address `/unsubscribe/{link}` (PUBLIC_API_URL, the API's base address ending in /v1),
 * with a link token that withdraws one person's notificationConsent and does nothing else.
 */

/** The path of an unsubscribe link under the API's base address: the one place that knows it (routes.ts names the template). */
export const UNSUBSCRIBE_PATH_PREFIX = '/unsubscribe/';

/** A new unsubscribe address of the person, for the List-Unsubscribe header and the email's text. */
export async function unsubscribeUrlOf(scope: GalleryScope, personId: string): Promise<string> {
  const link = signUnsubscribeLink(
    await photoLinkKey(),
    { tenantId: scope.tenantId, galleryToken: scope.token, personId },
    now(),
  );
  return `${requireEnv('PUBLIC_API_URL').replace(/\/$/, '')}${UNSUBSCRIBE_PATH_PREFIX}${link}`;
}

/** Who an unsubscribe link token names, or undefined for one that is not a valid unsubscribe link now. */
export async function subjectOfUnsubscribeLink(link: string): Promise<PersonLinkSubject | undefined> {
  return verifyUnsubscribeLink(await photoLinkKey(), link, now());
}
