import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { DomainError } from '#lib/platform/domain-error';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import { participantOfProof } from '#lib/photos/access/participant-photos';
import type { ParticipantProof, PhotoLinkRequested } from '#lib/photos/access/photo-schemas';
import type { FaceConsentWithdrawn } from '#lib/privacy/face-consent-schemas';
import { deleteReferenceFaces, getReferenceFace } from '#lib/faces/store/reference-faces';
import { forgetFaceCandidates } from '#lib/photos/sorting/forget-face-candidates';
import { withdrawFaceConsentRecords } from '#lib/privacy/store/person-erasure';
import type { ConsentChangedBy } from '#lib/persons/rules/person-model';

/**
 * Faces that leave: a withdrawn face consent (the studio's, or the participant's own on the
 * photo link's page) takes the person's reference face with it, and the
 * person out of every shoot photo's face candidates (personal data of theirs:
 * docs/personal-data.md). The reference face goes first, so that no new second opinion names
 * them; the candidates after (docs/photos.md#face-candidates-after-a-face-goes).
 */

/** What a withdrawal changed; `unknown_person` changes nothing. */
export type FaceConsentWithdrawal =
  | { outcome: 'withdrawn'; referenceFaces: number; candidateLists: number; changed: boolean }
  | { outcome: 'unknown_person' };

/**
 * Withdraws a person's face consent (the studio's, on the person's word, or the participant's
 * own, `by`): the consent is false from now on, their reference face is deleted at once, and they
 * leave the face candidates of every other photo. The change's time is recorded on the person and
 * announced (person.consent_changed) where it changed anything (`changed`). Safe to run again: a
 * withdrawn person's run changes nothing.
 */
export async function withdrawFaceConsent(
  scope: GalleryScope,
  personId: string,
  by: ConsentChangedBy = 'studio',
): Promise<FaceConsentWithdrawal> {
  const hadReference = (await getReferenceFace(scope, personId)) !== undefined;
  const recorded = await withdrawFaceConsentRecords(scope, personId, by);
  if (recorded === 'unknown_person') return { outcome: 'unknown_person' };
  const candidateLists = await forgetFaceCandidates(scope, new Set([personId]));
  return {
    outcome: 'withdrawn',
    referenceFaces: hadReference ? 1 : 0,
    candidateLists,
    changed: recorded === 'changed',
  };
}

/** What forgetting a gallery's faces removed. */
export interface GalleryFacesForgotten {
  referenceFaces: number;
  candidateLists: number;
}

/**
 * Every face of a gallery that no longer matches faces (switched off, or its check-in stopped
 * asking for face consent): its reference faces are deleted, then nobody stays among the face
 * candidates of its photos. Safe to run again.
 */
export async function forgetFacesOfGallery(scope: GalleryScope): Promise<GalleryFacesForgotten> {
  // The marks of rejected selfies stay with the selfies: asked again, the gallery must not describe them again.
  const referenceFaces = await deleteReferenceFaces(scope, undefined, { keepRejections: true });
  return { referenceFaces, candidateLists: await forgetFaceCandidates(scope, 'all') };
}

/**
 * `withdrawFaceConsent`: the participant withdraws their own face consent, proving who they are
 * with a photo link (403 photo_link_invalid as for photosByLink) or their access code and its
 * second factor (as myPhotos, with its budgets of wrong pairs; past one, the uniform answer and
 * nothing withdrawn). Then exactly the studio's withdrawal (withdrawFaceConsent): the consent is
 * false, the reference face deleted at once, the person out of every face candidate list. The
 * same in a gallery that does not ask for face consent (the consent is recorded false; there is
 * nothing else to delete). Safe to repeat: a second call answers the same, with no reference to
 * delete. The person's ID comes with the answer for the idempotency record.
 */
export async function withdrawFaceConsentAsParticipant(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  proof: ParticipantProof,
  clientAddress: string | undefined,
): Promise<{
  personId?: string;
  answer: ResultMembers<typeof FaceConsentWithdrawn> | ResultMembers<typeof PhotoLinkRequested>;
}> {
  const verdict = await participantOfProof(tenant, configuration, proof, clientAddress);
  if (!verdict.person) return { answer: verdict.uniformAnswer };
  const { personId } = verdict.person;
  const withdrawal = await withdrawFaceConsent(
    { tenantId: tenant.tenantId, token: configuration.gallery.token },
    personId,
    'participant',
  );
  // Erased between the proof and the withdrawal: the refusal the proof gets for an erased person.
  if (withdrawal.outcome === 'unknown_person')
    throw new DomainError('photoLink' in proof ? 'invalid_photo_link' : 'unknown_access_pair');
  return { personId, answer: { faceConsent: false, referenceDeleted: withdrawal.referenceFaces > 0 } };
}
