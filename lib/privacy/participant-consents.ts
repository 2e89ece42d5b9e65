import type { GalleryConfiguration, GalleryScope } from '#lib/galleries/rules/gallery-model';
import { DomainError, invalidField } from '#lib/platform/domain-error';
import { nowIso } from '#lib/platform/clock';
import type { ResultMembers } from '#lib/platform/schema-parts';
import type { Tenant } from '#lib/tenants/store/tenants';
import type { Person } from '#lib/persons/rules/person-model';
import { getPerson } from '#lib/persons/store/persons';
import { participantOfProof } from '#lib/photos/access/participant-photos';
import type { ParticipantProof, PhotoLinkRequested } from '#lib/photos/access/photo-schemas';
import type { ManageConsentsInput, ParticipantConsents } from '#lib/privacy/consent-schemas';
import { withdrawFaceConsent } from '#lib/privacy/face-consent';
import { type RequestedConsentChange, consentChangeRefusal, consentStates } from '#lib/privacy/rules/consent-states';
import { type ConsentRecording, recordConsentChange } from '#lib/privacy/store/consent-records';

/**
 * A participant's own consents (docs/personal-data.md#consents): listed, withdrawn and given
 * again on the page a photo link opens, with the same proof and budgets as pickPhoto. Each change
 * takes effect at once (notifications: no photo-ready email from now on; HR export: out of every
 * export built from now on; face: exactly the withdrawal of withdrawFaceConsent), is recorded with
 * its time on the person, and is announced by a person.consent_changed event.
 */

/**
 * Changes one consent of the person, as the participant (`participant`); what the participant
 * may not change is 400 invalid_field (consentChangeRefusal). The face consent goes the way of
 * withdrawFaceConsent. What it recorded: `changed`, `unchanged` (it had that value), `unknown_person`.
 */
export async function changeParticipantConsent(
  scope: GalleryScope,
  configuration: GalleryConfiguration,
  personId: string,
  change: RequestedConsentChange,
): Promise<ConsentRecording> {
  const refusal = consentChangeRefusal(configuration.gallery, change);
  if (refusal) throw invalidField(change.consent === 'consentGiven' ? 'consent' : 'given', refusal);
  if (change.consent === 'consentGiven') throw new Error('consentChangeRefusal lets no consentGiven through');
  if (change.consent === 'faceConsent') {
    const withdrawal = await withdrawFaceConsent(scope, personId, 'participant');
    if (withdrawal.outcome === 'unknown_person') return 'unknown_person';
    return withdrawal.changed ? 'changed' : 'unchanged';
  }
  return recordConsentChange(scope, personId, change.consent, { given: change.given, at: nowIso(), by: 'participant' });
}

/** The refusal a proof gets for a person erased meanwhile, as photosByLink and myPhotos refuse one. */
function erasedRefusal(proof: ParticipantProof): DomainError {
  return new DomainError('photoLink' in proof ? 'invalid_photo_link' : 'unknown_access_pair');
}

/**
 * `manageConsents`: the participant's consents, after the change the body asks for, if any.
 * Who they are: a photo link (403 photo_link_invalid) or their access code and its second factor
 * (with myPhotos' budgets of wrong pairs; past one, the uniform answer and nothing changed). The
 * person's ID comes with the answer for the idempotency record.
 */
export async function manageConsentsAsParticipant(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  request: ManageConsentsInput,
  clientAddress: string | undefined,
): Promise<{
  personId?: string;
  answer: ResultMembers<typeof ParticipantConsents> | ResultMembers<typeof PhotoLinkRequested>;
}> {
  const verdict = await participantOfProof(tenant, configuration, request.proof, clientAddress);
  if (!verdict.person) return { answer: verdict.uniformAnswer };
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  let person: Person | undefined = verdict.person;
  if (request.change) {
    const recorded = await changeParticipantConsent(scope, configuration, person.personId, request.change);
    if (recorded === 'unknown_person') throw erasedRefusal(request.proof);
    // Read again, strongly: the answer shows the change just made, with its time.
    if (recorded === 'changed') person = await getPerson(scope, person.personId, { consistent: true });
    if (!person) throw erasedRefusal(request.proof);
  }
  return { personId: person.personId, answer: { consents: consentStates(configuration.gallery, person) } };
}
