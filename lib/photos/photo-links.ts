import { createHmac } from 'node:crypto';
import { now } from '#lib/platform/clock';
import { optionalEnv, requireEnv } from '#lib/platform/config';
import { emailSender } from '#lib/platform/email-sender';
import { isPlausibleEmail } from '#lib/platform/email-address';
import { secretValue } from '#lib/platform/secrets-manager';
import { galleryRef, loggableError, logger } from '#lib/platform/logger';
import { consumeRateLimit, publicCounterId } from '#lib/rate-limits/store/rate-limit-counters';
import { getPerson, listPersonsWithEmail } from '#lib/persons/store/persons';
import type { Person } from '#lib/persons/rules/person-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { DomainError } from '#lib/platform/domain-error';
import type { ResultMembers } from '#lib/platform/schema-parts';
import { type PhotoNoticeContent, photoLinkContent, photoViewUrl } from '#lib/photos/rules/photo-notice';
import { signPhotoLink, verifyPhotoLink } from '#lib/photos/rules/photo-link';
import type { ParticipantPhotos, PhotoLinkRequested, PhotosByLinkInput, SendPhotoLinkInput } from '#lib/photos/photo-schemas';
import { participantPhotosAnswer } from '#lib/photos/person-photos';

/**
 * Photo links by email (docs/photos.md#photo-links): sendPhotoLink emails each person of the
 * gallery with the address a link to their photos and answers the same whatever it found;
 * photosByLink opens the photos of a link's person. Configuration: PHOTO_LINK_KEY (the signing
 * key, a secret), PHOTO_NOTICE_FROM (the sender; without it no email goes out) and
 * CHECKIN_PAGE_URL (the page whose "My photos" view the link opens).
 */

/** At most one link email per person this often, however many ask for it: nobody can flood a participant's inbox. */
export const PHOTO_LINK_EMAIL_INTERVAL_MS = 5 * 60_000;

/**
 * The uniform answer (sendPhotoLink, a lookup past its budgets) takes at least this long, so that
 * the time it takes does not tell whether an email went out (an SES call is tens of milliseconds).
 * PHOTO_LINK_ANSWER_MS may lower it where nothing is measured (tests).
 */
const UNIFORM_ANSWER_MS = 600;

/** The key photo links are signed with (the deployment's PhotoLinkKey secret); never logged. */
export async function photoLinkKey(): Promise<string> {
  const key = await secretValue('PHOTO_LINK_KEY');
  if (!key) throw new Error('PHOTO_LINK_KEY is not configured');
  return key;
}

/** A keyed hash of a value under the photo link key, for counters that must not hold the value (an access code). */
export async function keyedDigest(purpose: string, value: string): Promise<string> {
  return createHmac('sha256', await photoLinkKey()).update(`${purpose}\n${value}`).digest('base64url').slice(0, 22);
}

/** PHOTO_NOTICE_FROM: undefined when photo emails are off; a value that is no address is a configuration error. */
export function photoEmailSender(): string | undefined {
  const from = optionalEnv('PHOTO_NOTICE_FROM');
  if (from !== undefined && !isPlausibleEmail(from)) throw new Error('PHOTO_NOTICE_FROM is not an email address');
  return from;
}

/** A new photo link of the person (of the tenant with this slug), and the view's address that opens it. */
export async function photoLinkOf(tenantSlug: string, scope: GalleryScope, personId: string): Promise<{ url: string; expiresAt: string }> {
  const { photoLink, expiresAt } = signPhotoLink(await photoLinkKey(), { tenantId: scope.tenantId, galleryToken: scope.token, personId }, now());
  return { url: photoViewUrl(requireEnv('CHECKIN_PAGE_URL'), { tenantSlug, galleryToken: scope.token, photoLink }), expiresAt };
}

/**
 * Emails the person a fresh photo link, at most once per PHOTO_LINK_EMAIL_INTERVAL_MS (silently
 * not otherwise). Never throws: whoever asked gets the same answer whether or not this sent, so a
 * failure is logged and the email is simply not sent.
 */
export async function emailPhotoLink(tenant: Tenant, configuration: GalleryConfiguration, person: Pick<Person, 'personId' | 'name' | 'email'>): Promise<void> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const fields = { personId: person.personId, gallery: galleryRef(scope.token), tenantId: scope.tenantId };
  try {
    const from = photoEmailSender();
    if (!from || !person.email) return;
    const throttle = publicCounterId(scope.tenantId, scope.token, 'photoLinkEmails', person.personId);
    const turn = await consumeRateLimit(throttle, { limit: 1, windowMs: PHOTO_LINK_EMAIL_INTERVAL_MS }, now());
    if (!turn.admitted) {
      logger.info('photo link email held back: one went out lately', fields);
      return;
    }
    const { url, expiresAt } = await photoLinkOf(tenant.slug, scope, person.personId);
    const content: PhotoNoticeContent = photoLinkContent({
      personName: person.name,
      galleryName: configuration.gallery.galleryName,
      studioName: tenant.name,
      photoViewUrl: url,
      linkExpiresAt: expiresAt,
    });
    const sent = await emailSender().send({ from, to: person.email, ...content });
    if (sent.outcome === 'sent') logger.info('photo link sent', fields);
    else logger.warn('photo link refused by the mail service', { ...fields, operation: sent.reason });
  } catch (error) {
    logger.error('photo link not sent', { ...fields, error: loggableError(error) });
  }
}

/** Waits until the uniform answer's time has passed since `startedAt` (performance.now()). */
export async function answerUniformly(startedAt: number): Promise<ResultMembers<typeof PhotoLinkRequested>> {
  const minimum = Number(optionalEnv('PHOTO_LINK_ANSWER_MS') ?? UNIFORM_ANSWER_MS);
  const left = startedAt + minimum - performance.now();
  if (left > 0) await new Promise((resolve) => setTimeout(resolve, left));
  return { photoLinkRequested: true };
}

/**
 * `sendPhotoLink`: emails a photo link to each person of the gallery with this address (a parent
 * may have checked in two children), and answers the same whether or not there is one, after
 * the same time. The per-client lookup budget is the pipeline's.
 */
export async function sendPhotoLink(tenant: Tenant, configuration: GalleryConfiguration, request: SendPhotoLinkInput): Promise<ResultMembers<typeof PhotoLinkRequested>> {
  const startedAt = performance.now();
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const persons = await listPersonsWithEmail(scope, request.email);
  await Promise.all(persons.map((person) => emailPhotoLink(tenant, configuration, person)));
  return answerUniformly(startedAt);
}

/**
 * `photosByLink`: the photos of the link's person, the same answer as myPhotos. A link that is
 * malformed, forged, of another gallery, expired, or whose person was erased is 403
 * photo_link_invalid. The person's ID comes with the answer for the idempotency record.
 */
export async function photosByLink(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: PhotosByLinkInput,
): Promise<{ personId: string; answer: ResultMembers<typeof ParticipantPhotos> }> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const personId = verifyPhotoLink(await photoLinkKey(), { tenantId: scope.tenantId, galleryToken: scope.token }, request.photoLink, now());
  const person = personId === undefined ? undefined : await getPerson(scope, personId);
  if (!person) throw new DomainError('invalid_photo_link');
  return { personId: person.personId, answer: await participantPhotosAnswer(scope, person) };
}
