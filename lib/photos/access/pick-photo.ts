import { now } from '#lib/platform/clock';
import { DomainError } from '#lib/platform/domain-error';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { ParticipantPhotos, PhotoLinkRequested, PickPhotoInput } from '#lib/photos/access/photo-schemas';
import type { PickedBy } from '#lib/photos/access/rules/portrait-photo';
import { recordPick } from '#lib/photos/access/store/photo-picks';
import { participantPhotosAnswer } from '#lib/photos/access/person-photos';
import { participantOfProof } from '#lib/photos/access/participant-photos';

/**
 * Picks one of the person's photos as their portrait (docs/photos.md#picking-the-portrait), for
 * the participant or the photographer: recorded with who picked it, replacing an earlier pick by
 * either, and announced by a photo.picked event in the same transaction. 404 photo_not_found for
 * a photo that is not one of the person's in this gallery; person_not_found for a person it no
 * longer has.
 */
export async function pickPhoto(
  scope: GalleryScope,
  personId: string,
  photoId: string,
  pickedBy: PickedBy,
): Promise<void> {
  const outcome = await recordPick(scope, { personId, photoId, pickedBy }, now());
  if (outcome === 'unknown_photo') throw new DomainError('unknown_photo');
  if (outcome === 'unknown_person') throw new DomainError('unknown_person');
}

/**
 * `pickPhoto`: the participant picks their portrait, proving who they are with a photo link (as
 * photosByLink: photo_link_invalid) or an access code and its second factor (as myPhotos, with
 * its budgets of wrong pairs; past one, the uniform answer and no pick). The answer is their
 * photos, as photosByLink answers them, with the pick marked; the person's ID comes with it for
 * the idempotency record.
 */
export async function pickPhotoAsParticipant(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: PickPhotoInput,
  clientAddress: string | undefined,
): Promise<{
  personId?: string;
  answer: ResultMembers<typeof ParticipantPhotos> | ResultMembers<typeof PhotoLinkRequested>;
}> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const verdict = await participantOfProof(tenant, configuration, request.proof, clientAddress);
  if (!verdict.person) return { answer: verdict.uniformAnswer };
  const person = verdict.person;
  await pickPhoto(scope, person.personId, request.photoId, 'participant');
  return {
    personId: person.personId,
    answer: await participantPhotosAnswer(scope, { ...person, pickedPhotoId: request.photoId }),
  };
}
