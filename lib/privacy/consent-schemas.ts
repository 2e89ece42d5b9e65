import * as v from 'valibot';
import { BodyGalleryToken } from '#lib/galleries/gallery-schemas';
import {
  PROOF_REFUSALS,
  PROOF_REQUIRED,
  type ParticipantProof,
  participantProofMembers,
  proofOf,
} from '#lib/photos/access/photo-schemas';
import { invalidField } from '#lib/platform/domain-error';
import { parseBody, requestId } from '#lib/platform/schema-parts';
import { CONSENT_NAMES, type RequestedConsentChange } from '#lib/privacy/rules/consent-states';

/** The documented bodies of a participant's own consents (docs/personal-data.md#consents). */

const CONSENT_MESSAGE = `consent must be one of: ${CONSENT_NAMES.join(', ')}.`;
const GIVEN_MESSAGE = 'given must be true (give the consent) or false (withdraw it), with consent.';

const consentName = v.picklist(CONSENT_NAMES, CONSENT_MESSAGE);

/**
 * The body of the `manageConsents` action of POST /group-shoot: who the participant is (a photo
 * link, or else the access code with its second factor, as pickPhoto takes them), and where a
 * consent is to change, which one and its new value. Without `consent`, the consents are only listed.
 */
export const ManageConsentsRequest = v.pipe(
  v.object({
    action: v.literal('manageConsents'),
    token: BodyGalleryToken,
    consent: v.pipe(
      v.optional(consentName),
      v.description(
        "The consent to change, by its check-in field: faceConsent, notificationConsent or hrExportConsent. consentGiven, the studio's own, is refused (invalid_field): it ends with erasure, by the studio. Without it, nothing changes and the consents are listed.",
      ),
    ),
    given: v.pipe(
      v.optional(v.boolean(GIVEN_MESSAGE)),
      v.description(
        'With consent: false withdraws it, true gives it again (where the gallery still asks for it; not faceConsent, whose face template is gone). A change that changes nothing is no error.',
      ),
    ),
    ...participantProofMembers('reading and changing the consents'),
  }),
  v.metadata({ ...PROOF_REQUIRED, dependentRequired: { consent: ['given'], given: ['consent'] } }),
);

export interface ManageConsentsInput {
  proof: ParticipantProof;
  change?: RequestedConsentChange;
}

/**
 * A manageConsents body, parsed: 400 invalid_field for the consent, then given (also where one
 * of the two comes without the other), then the photoLink, code, email and employee ID, then for
 * a body with neither photoLink nor code.
 */
export function parseManageConsents(body: unknown): ManageConsentsInput {
  const parsed = parseBody(ManageConsentsRequest, body, [
    { member: 'consent', refusal: () => invalidField('consent', CONSENT_MESSAGE) },
    { member: 'given', refusal: () => invalidField('given', GIVEN_MESSAGE) },
    ...PROOF_REFUSALS,
  ]);
  if (parsed.consent === undefined && parsed.given !== undefined)
    throw invalidField('consent', `consent is required with given: ${CONSENT_MESSAGE}`);
  if (parsed.consent !== undefined && parsed.given === undefined) throw invalidField('given', GIVEN_MESSAGE);
  const proof = proofOf(parsed, 'manageConsents');
  return parsed.consent === undefined
    ? { proof }
    : { proof, change: { consent: parsed.consent, given: parsed.given! } };
}

const ConsentState = v.object({
  consent: v.pipe(v.picklist(CONSENT_NAMES), v.description("The consent, by its check-in field's name.")),
  given: v.pipe(
    v.nullable(v.boolean()),
    v.description('true given, false withdrawn or refused at check-in, null never asked.'),
  ),
  asked: v.pipe(v.boolean(), v.description("Whether the gallery's check-in asks for it now.")),
  changedAt: v.pipe(
    v.nullable(v.string()),
    v.description('When it last changed after check-in (ISO 8601); null where it is as the check-in left it.'),
  ),
  changedBy: v.pipe(
    v.nullable(v.picklist(['participant', 'studio'])),
    v.description('Who made that change; null with changedAt.'),
  ),
  withdrawable: v.pipe(
    v.boolean(),
    v.description('Whether manageConsents withdraws it now: given, and not consentGiven.'),
  ),
  givable: v.pipe(
    v.boolean(),
    v.description(
      'Whether manageConsents gives it again now: not given, the gallery asks for it, and neither consentGiven nor faceConsent.',
    ),
  ),
});

/** What manageConsents answers: every consent of the participant, after the change where one was asked for. */
export const ParticipantConsents = v.object({
  ok: v.literal(true),
  consents: v.pipe(
    v.array(ConsentState),
    v.description('consentGiven, faceConsent, notificationConsent and hrExportConsent, in this order.'),
  ),
  requestId,
});

/** What a one-click unsubscribe POST answers a mail provider (a browser that asks for HTML gets the page). */
export const Unsubscribed = v.object({
  ok: v.literal(true),
  notificationConsent: v.pipe(
    v.literal(false),
    v.description("The link's person's notification consent from now on: withdrawn, whatever it was before."),
  ),
  changed: v.pipe(
    v.boolean(),
    v.description('Whether this request withdrew it; false where it was not given (withdrawn before, or never given).'),
  ),
  requestId,
});
