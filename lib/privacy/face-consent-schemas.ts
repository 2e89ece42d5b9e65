import * as v from 'valibot';
import { BodyGalleryToken } from '#lib/galleries/gallery-schemas';
import {
  PROOF_REFUSALS,
  PROOF_REQUIRED,
  type ParticipantProof,
  participantProofMembers,
  proofOf,
} from '#lib/photos/access/photo-schemas';
import { parseBody, requestId } from '#lib/platform/schema-parts';

/** The documented bodies of a participant's own withdrawal of face consent (docs/personal-data.md#reference-faces). */

/**
 * The body of the `withdrawFaceConsent` action of POST /group-shoot: who the participant is, a
 * photo link or else the access code with its second factor, as pickPhoto takes them.
 */
export const WithdrawFaceConsentRequest = v.pipe(
  v.object({
    action: v.literal('withdrawFaceConsent'),
    token: BodyGalleryToken,
    ...participantProofMembers('the withdrawal'),
  }),
  v.metadata(PROOF_REQUIRED),
);

/**
 * A withdrawFaceConsent body, parsed: 400 invalid_field for the photoLink, then the code, email
 * and employee ID, then (`field: photoLink`) for a body with neither photoLink nor code.
 */
export function parseWithdrawFaceConsent(body: unknown): ParticipantProof {
  return proofOf(parseBody(WithdrawFaceConsentRequest, body, PROOF_REFUSALS), 'withdrawFaceConsent');
}

/** What withdrawFaceConsent answers: the consent is withdrawn, and whether this request deleted a reference face. */
export const FaceConsentWithdrawn = v.object({
  ok: v.literal(true),
  faceConsent: v.pipe(
    v.literal(false),
    v.description("The participant's face consent from now on: withdrawn, whatever it was before."),
  ),
  referenceDeleted: v.pipe(
    v.boolean(),
    v.description(
      'Whether this request deleted a reference face of the participant; false where there was none (never made, or deleted by an earlier withdrawal).',
    ),
  ),
  requestId,
});
