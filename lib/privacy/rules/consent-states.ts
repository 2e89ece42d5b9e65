import type { Gallery } from '#lib/galleries/rules/gallery-model';
import type { ConsentChangedBy, ParticipantConsent, Person, PersonConsents } from '#lib/persons/rules/person-model';

/**
 * What a participant may do with each of their consents after check-in
 * (docs/personal-data.md#consents), as the page a photo link opens shows them: every consent
 * given can be withdrawn there, but the studio's own (consentGiven), which only erasure ends; a
 * withdrawn one can be given again where the gallery still asks for it, but the face consent
 * (its withdrawal deleted the face template, and only a check-in's selfie makes one).
 */

export type ConsentName = keyof PersonConsents;

/** The consents in the order the check-in form asks for them. */
export const CONSENT_NAMES: readonly ConsentName[] = [
  'consentGiven',
  'faceConsent',
  'notificationConsent',
  'hrExportConsent',
];

/** One consent as the participant sees it. */
export interface ConsentState {
  consent: ConsentName;
  /** true given, false withdrawn or refused, null never asked. */
  given: boolean | null;
  /** Whether the gallery's check-in asks for it now. */
  asked: boolean;
  /** The last change since check-in, ISO 8601; null where it is as the check-in left it. */
  changedAt: string | null;
  changedBy: ConsentChangedBy | null;
  /** Whether manageConsents may withdraw it now. */
  withdrawable: boolean;
  /** Whether manageConsents may give it again now. */
  givable: boolean;
}

/** Which granular consent of the gallery each participant consent is. */
const GRANULAR_OF: Record<ParticipantConsent, keyof Gallery['granularConsents']> = {
  faceConsent: 'face',
  notificationConsent: 'notification',
  hrExportConsent: 'hrExport',
};

function isParticipantConsent(name: ConsentName): name is ParticipantConsent {
  return name !== 'consentGiven';
}

/** Whether the gallery asks for the consent at check-in now. */
export function galleryAsks(
  gallery: Pick<Gallery, 'consentRequired' | 'granularConsents'>,
  name: ConsentName,
): boolean {
  return isParticipantConsent(name) ? gallery.granularConsents[GRANULAR_OF[name]] : gallery.consentRequired;
}

/** Every consent of the person, with what the participant may do with it. */
export function consentStates(
  gallery: Pick<Gallery, 'consentRequired' | 'granularConsents'>,
  person: Pick<Person, 'consents' | 'consentChanges'>,
): ConsentState[] {
  return CONSENT_NAMES.map((name) => {
    const given = person.consents[name];
    const change = isParticipantConsent(name) ? person.consentChanges?.[name] : undefined;
    const asked = galleryAsks(gallery, name);
    return {
      consent: name,
      given,
      asked,
      changedAt: change?.at ?? null,
      changedBy: change?.by ?? null,
      withdrawable: isParticipantConsent(name) && given === true,
      givable: isParticipantConsent(name) && name !== 'faceConsent' && asked && given !== true,
    };
  });
}

/** A change a participant asks for. */
export interface RequestedConsentChange {
  consent: ConsentName;
  given: boolean;
}

/**
 * Why the participant may not make this change, in a sentence for the answer; undefined where
 * they may. Withdrawing what is withdrawn already, or giving what is given, is no refusal: it
 * changes nothing.
 */
export function consentChangeRefusal(
  gallery: Pick<Gallery, 'consentRequired' | 'granularConsents'>,
  change: RequestedConsentChange,
): string | undefined {
  if (change.consent === 'consentGiven')
    return "consentGiven cannot be withdrawn here: the studio's consent ends with the erasure of your data, which the studio does on request.";
  if (!change.given) return undefined;
  if (change.consent === 'faceConsent')
    return 'faceConsent cannot be given again here: its face template was deleted, and only a check-in with a selfie makes one.';
  if (!galleryAsks(gallery, change.consent)) return `This gallery no longer asks for ${change.consent}.`;
  return undefined;
}
