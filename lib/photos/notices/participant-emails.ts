import { now } from '#lib/platform/clock';
import { optionalEnv } from '#lib/platform/config';
import { type Language, firstLanguage } from '#lib/platform/languages';
import { emailSender } from '#lib/photos/notices/adapters/email-sender';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';
import { consumeRateLimit, publicCounterId } from '#lib/rate-limits/store/rate-limit-counters';
import type { Person } from '#lib/persons/rules/person-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { type PhotoNoticeContent, photoLinkContent } from '#lib/photos/notices/rules/photo-notice';
import { photoLinkOf } from '#lib/photos/links/photo-links';
import { unsubscribeUrlOf } from '#lib/photos/links/unsubscribe-links';

/**
 * Emails to participants: sent from PHOTO_NOTICE_FROM (without it none goes out), each kind at
 * most once per interval and person (check-in's invitations are one kind), among them the photo
 * link email (docs/photos.md#photo-links) that sendPhotoLink and a lookup past its budgets send.
 */

/** At most one link email per person this often, however many ask for it: nobody can flood a participant's inbox. */
export const PHOTO_LINK_EMAIL_INTERVAL_MS = 5 * 60_000;

/** PHOTO_NOTICE_FROM: undefined when photo emails are off; a value that is no address is a configuration error. */
export function photoEmailSender(): string | undefined {
  const from = optionalEnv('PHOTO_NOTICE_FROM');
  if (from !== undefined && !isPlausibleEmail(from)) throw new Error('PHOTO_NOTICE_FROM is not an email address');
  return from;
}

/** What the log says of each kind of throttled email (messages are literals, lib/platform/logger.ts). */
const THROTTLED_EMAIL_LOG = {
  photoLinkEmails: {
    heldBack: 'photo link email held back: one went out lately',
    sent: 'photo link sent',
    refused: 'photo link refused by the mail service',
    failed: 'photo link not sent',
  },
  invitationEmails: {
    heldBack: 'invitation email held back: one went out lately',
    sent: 'invitation sent',
    refused: 'invitation refused by the mail service',
    failed: 'invitation not sent',
  },
} as const;

/**
 * Emails a participant what `compose` writes, at most once per `intervalMs` for each kind of
 * email (`throttle`) and person, silently not otherwise. Never throws: whoever asked gets the
 * same answer whether or not this sent, so a failure is logged and the email is simply not sent.
 */
export async function emailParticipantAtMostEvery(
  scope: GalleryScope,
  person: Pick<Person, 'personId' | 'email'>,
  options: { throttle: keyof typeof THROTTLED_EMAIL_LOG; intervalMs: number },
  compose: () => Promise<PhotoNoticeContent>,
): Promise<void> {
  const fields = { personId: person.personId, gallery: galleryRef(scope.token), tenantId: scope.tenantId };
  const log = THROTTLED_EMAIL_LOG[options.throttle];
  try {
    const from = photoEmailSender();
    if (!from || !person.email) return;
    const throttle = publicCounterId(scope.tenantId, scope.token, options.throttle, person.personId);
    const turn = await consumeRateLimit(throttle, { limit: 1, windowMs: options.intervalMs }, now());
    if (!turn.admitted) {
      logger.info(log.heldBack, fields);
      return;
    }
    const sent = await emailSender().send({ from, to: person.email, ...(await compose()) });
    if (sent.outcome === 'sent') logger.info(log.sent, fields);
    else logger.warn(log.refused, { ...fields, operation: sent.reason });
  } catch (error) {
    logger.error(log.failed, { ...fields, error: loggableError(error) });
  }
}

/**
 * Emails the person a fresh photo link, at most once per PHOTO_LINK_EMAIL_INTERVAL_MS, in the
 * language asked for, else the person's, else the gallery's.
 */
export async function emailPhotoLink(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  person: Pick<Person, 'personId' | 'name' | 'email' | 'language'>,
  askedLanguage?: Language,
): Promise<void> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  await emailParticipantAtMostEvery(
    scope,
    person,
    { throttle: 'photoLinkEmails', intervalMs: PHOTO_LINK_EMAIL_INTERVAL_MS },
    async () => {
      const [{ url, expiresAt }, unsubscribeUrl] = await Promise.all([
        photoLinkOf(tenant.slug, scope, person.personId),
        unsubscribeUrlOf(scope, person.personId),
      ]);
      return photoLinkContent({
        personName: person.name,
        galleryName: configuration.gallery.galleryName,
        studioName: tenant.name,
        photoViewUrl: url,
        linkExpiresAt: expiresAt,
        language: firstLanguage(askedLanguage, person.language, configuration.gallery.defaultLanguage),
        unsubscribeUrl,
      });
    },
  );
}
