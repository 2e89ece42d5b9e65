import { nowIso } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import { type Language, firstLanguage } from '#lib/platform/languages';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import { getPerson } from '#lib/persons/store/persons';
import { findTenantById } from '#lib/tenants/store/tenant-directory';
import { subjectOfUnsubscribeLink } from '#lib/photos/links/unsubscribe-links';
import { recordConsentChange } from '#lib/privacy/store/consent-records';

/**
 * One-click unsubscribe (docs/photos.md#one-click-unsubscribe): the link of a notification
 * email's List-Unsubscribe header withdraws its person's notificationConsent, as the page a photo
 * link opens does (recorded with its time, announced by person.consent_changed), and nothing else:
 * it opens no photos and picks none. A GET only shows what a POST would do.
 */

/** What the confirmation page says: in the person's language, the gallery and studio, whether emails still go out. */
export interface UnsubscribeView {
  language: Language;
  galleryName: string;
  studioName: string;
  /** Whether photo-ready emails still go to the person. */
  notified: boolean;
}

/** The person a link names; 403 unsubscribe_link_invalid for a link that is not valid now, or whose person was erased. */
async function subjectOf(link: string): Promise<{ scope: GalleryScope; personId: string }> {
  const subject = await subjectOfUnsubscribeLink(link);
  if (!subject) throw new DomainError('unsubscribe_link_invalid');
  return { scope: { tenantId: subject.tenantId, token: subject.galleryToken }, personId: subject.personId };
}

async function viewOf(scope: GalleryScope, personId: string): Promise<UnsubscribeView> {
  const [person, configuration, tenant] = await Promise.all([
    getPerson(scope, personId, { consistent: true }),
    getGalleryConfiguration(scope.tenantId, scope.token),
    findTenantById(scope.tenantId),
  ]);
  if (!person || !configuration || !tenant) throw new DomainError('unsubscribe_link_invalid');
  return {
    language: firstLanguage(person.language, configuration.gallery.defaultLanguage),
    galleryName: configuration.gallery.galleryName,
    studioName: tenant.name,
    notified: person.consents.notificationConsent === true,
  };
}

/** GET: what the link's confirmation page shows; it changes nothing (mail scanners follow links). */
export async function unsubscribeView(link: string): Promise<UnsubscribeView> {
  const { scope, personId } = await subjectOf(link);
  return viewOf(scope, personId);
}

/**
 * POST: withdraws the link's person's notificationConsent, at once and without any further step
 * (RFC 8058). Safe to repeat: a second POST changes and announces nothing. `changed`: whether this one did.
 */
export async function unsubscribeByLink(link: string): Promise<UnsubscribeView & { changed: boolean }> {
  const { scope, personId } = await subjectOf(link);
  const recorded = await recordConsentChange(scope, personId, 'notificationConsent', {
    given: false,
    at: nowIso(),
    by: 'participant',
  });
  if (recorded === 'unknown_person') throw new DomainError('unsubscribe_link_invalid');
  return { ...(await viewOf(scope, personId)), changed: recorded === 'changed' };
}
