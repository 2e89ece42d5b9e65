import { optionalEnv } from '#lib/platform/config';
import { listPersonsWithEmail } from '#lib/persons/store/persons';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type {
  ParticipantPhotos,
  PhotoLinkRequested,
  PhotosByLinkInput,
  SendPhotoLinkInput,
} from '#lib/photos/access/photo-schemas';
import { participantPhotosAnswer } from '#lib/photos/access/person-photos';
import { emailPhotoLink } from '#lib/photos/notices/participant-emails';
import { personOfPhotoLink } from '#lib/photos/links/photo-links';

/**
 * Photos by link (docs/photos.md#photo-links): sendPhotoLink emails each person of the gallery
 * with the address a link to their photos and answers the same whatever it found; photosByLink
 * opens the photos of a link's person.
 */

/**
 * The uniform answer (sendPhotoLink, a lookup past its budgets) takes at least this long, so that
 * the time it takes does not tell whether an email went out (an SES call is tens of milliseconds).
 * PHOTO_LINK_ANSWER_MS may lower it where nothing is measured (tests).
 */
const UNIFORM_ANSWER_MS = 600;

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
