import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { db } from '#lib/platform/table/client';
import { type TransactItem, conditionFailedAt } from '#lib/platform/table/conditional-writes';
import { withStoreRetries } from '#lib/platform/table/retry';
import { countersUpdate } from '#lib/galleries/store/gallery-counters';
import { giveBackSpot } from '#lib/galleries/store/day-bookings';
import type { GalleryCounters, GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import { personDeletion, selfieFlagClearing } from '#lib/persons/store/person-erasure';
import { faceConsentWithdrawal } from '#lib/persons/store/person-marks';
import { referenceFaceDeletion, referenceFacesChangedUpdate } from '#lib/faces/store/reference-faces';
import { emailCheckinsDeletion } from '#lib/checkin/store/email-checkins';
import type { ConsentChangedBy } from '#lib/persons/rules/person-model';
import { nowIso } from '#lib/platform/clock';
import { commitConsentChange, consentChangeItems } from '#lib/privacy/store/consent-records';

/**
 * The transactions of erasure and retention that span features: each feature gives the writes
 * of its own items, and they commit together or not at all. Safe to run again: counters change
 * only in the transaction that deletes what they count.
 */

/** What deleting a person takes off the gallery's statistics. */
function counterDecrements(person: Person): Partial<GalleryCounters> {
  return {
    [person.source === 'import' ? 'personsImported' : 'personsCheckedIn']: -1,
    personsWithSelfie: person.hasSelfie ? -1 : 0,
    personsWithPhotos: person.photoCount > 0 ? -1 : 0,
    photos: -person.photoCount,
  };
}

function addToStatistics(scope: GalleryScope, deltas: Partial<GalleryCounters>): TransactItem[] {
  const update = countersUpdate(scope, deltas);
  return update ? [update] : [];
}

/**
 * Deletes a person, its access code, its reference face and its email's free check-in count,
 * gives its day's spot back (when the day still exists) and corrects the statistics, in one
 * transaction conditional on the person still being there (a reference face is stored only
 * while the person is, so none can be left behind). False when it was gone already (nothing changed).
 */
export async function deletePersonRecords(
  scope: GalleryScope,
  person: Person,
  existingDayIds: ReadonlySet<string>,
): Promise<boolean> {
  const dayId = person.shootingDayId;
  return commitUnlessFirstFails([
    ...personDeletion(scope, person),
    referenceFaceDeletion(scope, person.personId),
    ...(person.email ? [emailCheckinsDeletion(scope, person.email)] : []),
    ...(dayId && existingDayIds.has(dayId) ? [giveBackSpot(scope, dayId)] : []),
    ...addToStatistics(scope, counterDecrements(person)),
  ]);
}

/** Marks a person as having no selfie any more and counts it so, once. False when it had none (already). */
export function clearSelfieFlag(scope: GalleryScope, personId: string): Promise<boolean> {
  return commitUnlessFirstFails([
    selfieFlagClearing(scope, personId),
    ...addToStatistics(scope, { personsWithSelfie: -1 }),
  ]);
}

/**
 * Withdraws a person's face consent and deletes their reference face, in one transaction
 * conditional on the person being there. A reference face being described at that moment is
 * put on condition that the person consents (putReferenceFace), so none can be left behind.
 * Where the consent was not withdrawn yet, the same transaction records the change's time and
 * `by` on the person and puts the person.consent_changed event; where it was, the withdrawal runs
 * again without them (nothing is announced twice). Safe to run again. `unknown_person` when there
 * is no such person.
 */
export async function withdrawFaceConsentRecords(
  scope: GalleryScope,
  personId: string,
  by: ConsentChangedBy,
): Promise<'changed' | 'unchanged' | 'unknown_person'> {
  const faceGoes = [
    referenceFaceDeletion(scope, personId),
    // Warm instances' copies of the confirmed faces are stale from this commit on.
    referenceFacesChangedUpdate(scope),
  ];
  const change = { given: false, at: nowIso(), by };
  const recorded = await commitConsentChange(consentChangeItems(scope, personId, 'faceConsent', change), faceGoes);
  if (recorded !== 'unchanged') return recorded;
  return (await commitUnlessFirstFails([faceConsentWithdrawal(scope, personId), ...faceGoes]))
    ? 'unchanged'
    : 'unknown_person';
}

/** Commits the transaction; false when its first item's condition failed (the change was made already). */
async function commitUnlessFirstFails(items: TransactItem[]): Promise<boolean> {
  try {
    await withStoreRetries(() => db.send(new TransactWriteCommand({ TransactItems: items })));
    return true;
  } catch (error) {
    if (conditionFailedAt(error, 0)) return false;
    throw error;
  }
}
