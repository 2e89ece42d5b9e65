import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { ConsentChange, ParticipantConsent } from '#lib/persons/rules/person-model';
import { consentChangeUpdate } from '#lib/persons/store/person-marks';
import { eventPut } from '#lib/events/store/outbox';
import { personConsentChanged } from '#lib/events/rules/event-catalogue';
import { type TransactItem, conditionFailedAt, itemAt, transact } from '#lib/platform/table/conditional-writes';

/**
 * A consent's change after check-in (docs/personal-data.md#consents): the person's consent and
 * the time of its change (persons builds the update), and the person.consent_changed event
 * (docs/events.md), in one transaction, so that a change is announced exactly when it is made.
 */

/** What recording a change did: changed, nothing to change (the consent had that value), or no such person. */
export type ConsentRecording = 'changed' | 'unchanged' | 'unknown_person';

/** The transaction items of one consent change: the person's update first (its condition tells the outcome), then the event. */
export function consentChangeItems(
  scope: GalleryScope,
  personId: string,
  consent: ParticipantConsent,
  change: ConsentChange,
): TransactItem[] {
  return [
    consentChangeUpdate(scope, personId, consent, change),
    eventPut(
      personConsentChanged(
        { tenantId: scope.tenantId, galleryToken: scope.token },
        { personId, consent, given: change.given, changedBy: change.by },
        change.at,
      ),
    ),
  ];
}

/**
 * Commits a consent change and its event, with `alongside` (what the change takes with it, the
 * face consent's reference face). The person's condition failing at the first item is no error:
 * `unchanged` where the person is there (the consent had that value already: nothing written,
 * nothing announced), `unknown_person` where not.
 */
export async function commitConsentChange(
  items: readonly TransactItem[],
  alongside: readonly TransactItem[] = [],
): Promise<ConsentRecording> {
  try {
    await transact([...items, ...alongside]);
    return 'changed';
  } catch (error) {
    if (!conditionFailedAt(error, 0)) throw error;
    return itemAt(error, 0) ? 'unchanged' : 'unknown_person';
  }
}

/** Records one consent's change and its event (commitConsentChange). */
export function recordConsentChange(
  scope: GalleryScope,
  personId: string,
  consent: ParticipantConsent,
  change: ConsentChange,
): Promise<ConsentRecording> {
  return commitConsentChange(consentChangeItems(scope, personId, consent, change));
}
