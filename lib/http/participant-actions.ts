import { participantPhotos } from '#lib/photos/access/participant-photos';
import { photosByLink, sendPhotoLink } from '#lib/photos/access/photos-by-link';
import { parseMyPhotos, parsePhotosByLink, parsePickPhoto, parseSendPhotoLink } from '#lib/photos/access/photo-schemas';
import { pickPhotoAsParticipant } from '#lib/photos/access/pick-photo';
import { withdrawFaceConsentAsParticipant } from '#lib/privacy/face-consent';
import { parseWithdrawFaceConsent } from '#lib/privacy/face-consent-schemas';
import { manageConsentsAsParticipant } from '#lib/privacy/participant-consents';
import { parseManageConsents } from '#lib/privacy/consent-schemas';
import { type Action, galleryOfBody } from '#lib/http/group-shoot-action';

/**
 * The actions of POST /group-shoot that a participant takes after the check-in, of two features
 * (photos, privacy): their photos, their portrait, their consents. lib/http/group-shoot-actions.ts
 * loads this module at the first of them an instance serves, so that an instance that only
 * checks participants in never compiles their code (docs/benchmarks/cold-starts.md).
 */
export const PARTICIPANT_ACTIONS = {
  myPhotos: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await participantPhotos(tenant, configuration, parseMyPhotos(body), clientAddress);
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
  sendPhotoLink: async (tenant, body, { loaded }) =>
    sendPhotoLink(tenant, await galleryOfBody(tenant, body, loaded), parseSendPhotoLink(body)),
  photosByLink: async (tenant, body, { loaded, answerConcerns }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await photosByLink(tenant, configuration, parsePhotosByLink(body));
    answerConcerns?.([personId]);
    return answer;
  },
  pickPhoto: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await pickPhotoAsParticipant(
      tenant,
      configuration,
      parsePickPhoto(body),
      clientAddress,
    );
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
  withdrawFaceConsent: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await withdrawFaceConsentAsParticipant(
      tenant,
      configuration,
      parseWithdrawFaceConsent(body),
      clientAddress,
    );
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
  manageConsents: async (tenant, body, { loaded, answerConcerns, clientAddress }) => {
    const configuration = await galleryOfBody(tenant, body, loaded);
    const { personId, answer } = await manageConsentsAsParticipant(
      tenant,
      configuration,
      parseManageConsents(body),
      clientAddress,
    );
    if (personId !== undefined) answerConcerns?.([personId]);
    return answer;
  },
} satisfies Record<string, Action>;
