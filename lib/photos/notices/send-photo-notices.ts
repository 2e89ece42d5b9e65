import { type ChangeRecord, eventOfRecord } from '#lib/events/adapters/stream-records';
import { now } from '#lib/platform/clock';
import { emailSender } from '#lib/photos/notices/adapters/email-sender';
import { getGalleryConfiguration } from '#lib/galleries/store/galleries';
import {
  claimPhotoNotice,
  completePhotoNotice,
  getNoticeRecipient,
  releasePhotoNotice,
} from '#lib/persons/store/photo-notice-marks';
import { findTenantById } from '#lib/tenants/store/tenant-directory';
import type { Gallery, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { photoNoticeContent, photoNoticeDecision } from '#lib/photos/notices/rules/photo-notice';
import { firstLanguage } from '#lib/platform/languages';
import { photoEmailSender } from '#lib/photos/notices/participant-emails';
import { photoLinkOf } from '#lib/photos/links/photo-links';
import { unsubscribeUrlOf } from '#lib/photos/links/unsubscribe-links';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';

/**
 * Photo-ready emails (docs/photos.md#photo-ready-emails): the table's stream brings each
 * photos.assigned event item as the photo assignment writes it (created by a window's first
 * photo, counted up by the others); for the event's person, one email ever, when the gallery
 * asks for the notification consent, the person gave it, has an email address and has photos.
 *
 * Delivery is at least once, with a duplicate only in one narrow case. The email is claimed on
 * the person item before it is sent (a conditional update, so two senders never both send) and
 * marked sent after; a redelivered record finds it sent and does nothing. A send that fails gives
 * the claim back and fails the record, so the stream tries it again. A sender that dies between
 * claim and mark leaves a claim that lapses after PHOTO_NOTICE_CLAIM_MS; the stream retries the
 * record until then and sends: a second email only where SES had accepted the first one and the
 * sender died (or the table failed) before marking it.
 *
 * Configuration: PHOTO_NOTICE_FROM (the sender address; without it no email is sent),
 * CHECKIN_PAGE_URL (the check-in page, whose "My photos" view the link opens) and PHOTO_LINK_KEY
 * (the key the email's photo link is signed with, lib/photos/links/photo-links.ts).
 */

export type NoticeOutcome =
  | 'sent'
  | 'rejected'
  | 'not_an_assignment'
  | 'handled_in_batch'
  | 'not_configured'
  | 'no_gallery'
  | 'no_person'
  | 'no_tenant'
  | 'gallery_not_asking'
  | 'no_consent'
  | 'no_email'
  | 'no_photos'
  | 'done_already';

/** Another sender holds the person's notice: the record is tried again once that one sent, or its claim lapsed. */
export class PhotoNoticeBusyError extends Error {
  constructor() {
    super('Another sender holds the photo notice');
    this.name = 'PhotoNoticeBusyError';
  }
}

/**
 * The sender of one batch's photo-ready emails, a record at a time: it reads each gallery once a
 * batch and sends a person's email once however often the batch holds their event. A record
 * that fails (the table or SES failed, or another sender holds the notice) throws, logged, so
 * that it and the records after it are tried again.
 */
export function photoNoticeSender(): (record: ChangeRecord) => Promise<NoticeOutcome> {
  const galleries = new Map<string, Promise<Gallery | undefined>>();
  const handled = new Set<string>();
  return async (record) => {
    try {
      return await noticeOf(record, galleries, handled);
    } catch (error) {
      const idOf = (value: unknown) => (typeof value === 'string' ? value : undefined);
      const fields = { eventId: idOf(record.newImage?.eventId), personId: idOf(record.newImage?.personId) };
      if (error instanceof PhotoNoticeBusyError) logger.warn('photo notice held by another sender', fields);
      else logger.error('photo notice failed', { ...fields, error: loggableError(error) });
      throw error;
    }
  };
}

async function noticeOf(
  record: ChangeRecord,
  galleries: Map<string, Promise<Gallery | undefined>>,
  handled: Set<string>,
): Promise<NoticeOutcome> {
  const image = eventOfRecord(record);
  if (image?.type !== 'photos.assigned' || image.personId === null) return 'not_an_assignment';
  const scope: GalleryScope = { tenantId: image.tenantId, token: image.galleryToken };
  const personKey = `${scope.tenantId}/${scope.token}/${image.personId}`;
  // A batch often holds the same person's event several times (each photo counts it up).
  if (handled.has(personKey)) return 'handled_in_batch';
  const from = photoEmailSender();
  if (!from) return 'not_configured';
  let gallery = galleries.get(`${scope.tenantId}/${scope.token}`);
  if (!gallery)
    galleries.set(
      `${scope.tenantId}/${scope.token}`,
      (gallery = getGalleryConfiguration(scope.tenantId, scope.token).then((found) => found?.gallery)),
    );
  const found = await gallery;
  if (!found) return 'no_gallery';
  // Most galleries do not ask: their events cost no read of the person.
  if (!found.granularConsents.notification) return 'gallery_not_asking';
  const recipient = await getNoticeRecipient(scope, image.personId);
  if (!recipient) return 'no_person';
  const at = now();
  const decision = photoNoticeDecision(found, recipient.person, recipient.state, at);
  if (decision === 'claimed_elsewhere') throw new PhotoNoticeBusyError();
  handled.add(personKey);
  if (decision !== 'send') return decision;
  const tenant = await findTenantById(scope.tenantId);
  if (!tenant) return 'no_tenant';
  const [link, unsubscribeUrl] = await Promise.all([
    photoLinkOf(tenant.slug, scope, image.personId),
    unsubscribeUrlOf(scope, image.personId),
  ]);
  const content = photoNoticeContent({
    personName: recipient.person.name,
    galleryName: found.galleryName,
    studioName: tenant.name,
    photoViewUrl: link.url,
    linkExpiresAt: link.expiresAt,
    language: firstLanguage(recipient.person.language, found.defaultLanguage),
    unsubscribeUrl,
  });
  if (!(await claimPhotoNotice(scope, image.personId, at))) throw new PhotoNoticeBusyError();
  let sent;
  try {
    sent = await emailSender().send({ from, to: recipient.person.email!, ...content });
  } catch (error) {
    await releasePhotoNotice(scope, image.personId, at);
    throw error;
  }
  const fields = {
    personId: image.personId,
    eventId: image.eventId,
    gallery: galleryRef(scope.token),
    tenantId: scope.tenantId,
    outcome: sent.outcome,
  };
  // Not completed: the claim lapsed and another sender took it over, so this email may be a second one.
  if (!(await completePhotoNotice(scope, image.personId, at, sent.outcome, new Date(now()).toISOString())))
    logger.warn('photo notice claim lost before it was marked', fields);
  if (sent.outcome === 'sent') logger.info('photo notice sent', fields);
  else logger.warn('photo notice refused by the mail service', { ...fields, operation: sent.reason });
  return sent.outcome;
}
