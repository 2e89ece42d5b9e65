import { createHmac } from 'node:crypto';
import { now } from '#lib/platform/clock';
import { optionalEnv, requireEnv } from '#lib/platform/config';
import { type Language, firstLanguage } from '#lib/platform/languages';
import { emailSender } from '#lib/photos/notices/adapters/email-sender';
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
import { type PhotoNoticeContent, photoLinkContent, photoViewUrl } from '#lib/photos/notices/rules/photo-notice';
import { signPhotoLink, verifyPhotoLink } from '#lib/photos/links/rules/photo-link-token';
import type {
  ParticipantPhotos,
  PhotoLinkRequested,
  PhotosByLinkInput,
  SendPhotoLinkInput,
} from '#lib/photos/access/photo-schemas';
import { participantPhotosAnswer } from '#lib/photos/access/person-photos';

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
  return createHmac('sha256', await photoLinkKey())
    .update(`${purpose}\n${value}`)
    .digest('base64url')
    .slice(0, 22);
}

/** PHOTO_NOTICE_FROM: undefined when photo emails are off; a value that is no address is a configuration error. */
export function photoEmailSender(): string | undefined {
  const from = optionalEnv('PHOTO_NOTICE_FROM');
  if (from !== undefined && !isPlausibleEmail(from)) throw new Error('PHOTO_NOTICE_FROM is not an email address');
  return from;
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
      const { url, expiresAt } = await photoLinkOf(tenant.slug, scope, person.personId);
      return photoLinkContent({
        personName: person.name,
        galleryName: configuration.gallery.galleryName,
        studioName: tenant.name,
        photoViewUrl: url,
        linkExpiresAt: expiresAt,
        language: firstLanguage(askedLanguage, person.language, configuration.gallery.defaultLanguage),
      });
    },
  );
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
export async function sendPhotoLink(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: SendPhotoLinkInput,
): Promise<ResultMembers<typeof PhotoLinkRequested>> {
  const startedAt = performance.now();
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const persons = await listPersonsWithEmail(scope, request.email);
  await Promise.all(persons.map((person) => emailPhotoLink(tenant, configuration, person, request.language)));
  return answerUniformly(startedAt);
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

/**
 * `photosByLink`: the photos of the link's person (personOfPhotoLink), the same answer as
 * myPhotos. The person's ID comes with the answer for the idempotency record.
 */
export async function photosByLink(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: PhotosByLinkInput,
): Promise<{ personId: string; answer: ResultMembers<typeof ParticipantPhotos> }> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const person = await personOfPhotoLink(scope, request.photoLink);
  return { personId: person.personId, answer: await participantPhotosAnswer(scope, person) };
}
