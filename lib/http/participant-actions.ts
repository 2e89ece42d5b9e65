import { participantPhotos } from '#lib/photos/access/participant-photos';
import { photosByLink, sendPhotoLink } from '#lib/photos/access/photos-by-link';
import { parseMyPhotos, parsePhotosByLink, parsePickPhoto, parseSendPhotoLink } from '#lib/photos/access/photo-schemas';
import { pickPhotoAsParticipant } from '#lib/photos/access/pick-photo';
import { withdrawFaceConsentAsParticipant } from '#lib/privacy/face-consent';
import { parseWithdrawFaceConsent } from '#lib/privacy/face-consent-schemas';
import { manageConsentsAsParticipant } from '#lib/privacy/participant-consents';
import { parseManageConsents } from '#lib/privacy/consent-schemas';
import { type Action, galleryOfBody } from '#lib/http/group-shoot-action';
import type { CheckinResult } from '#lib/http/group-shoot-schemas';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';

/**
 * An action that answers about one participant, who proves who they are in the body: the
 * gallery first, then the body parsed, then the use case, whose answer names the person it
 * concerns (for the log) where the proof held.
 */
function aboutOneParticipant<Input>(
  parse: (body: unknown) => Input,
  useCase: (
    tenant: Tenant,
    configuration: GalleryConfiguration,
    input: Input,
    clientAddress: string | undefined,
  ) => Promise<{ personId?: string; answer: ResultMembers<typeof CheckinResult> }>,
): Action {
  return async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await useCase(tenant, configuration, parse(body), clientAddress);
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  };
}

/**
 * The actions of POST /group-shoot that a participant takes after the check-in, of two features
 * (photos, privacy): their photos, their portrait, their consents. lib/http/group-shoot-actions.ts
 * loads this module at the first of them an instance serves, so that an instance that only
 * checks participants in never compiles their code (docs/benchmarks/cold-starts.md).
 */
export const PARTICIPANT_ACTIONS = {
  myPhotos: aboutOneParticipant(parseMyPhotos, participantPhotos),
  sendPhotoLink: async (tenant, body, { loaded }) =>
    sendPhotoLink(tenant, await galleryOfBody(tenant, body, loaded), parseSendPhotoLink(body)),
  photosByLink: aboutOneParticipant(parsePhotosByLink, photosByLink),
  pickPhoto: aboutOneParticipant(parsePickPhoto, pickPhotoAsParticipant),
  withdrawFaceConsent: aboutOneParticipant(parseWithdrawFaceConsent, withdrawFaceConsentAsParticipant),
  manageConsents: aboutOneParticipant(parseManageConsents, manageConsentsAsParticipant),
} satisfies Record<string, Action>;
