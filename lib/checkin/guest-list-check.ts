import { randomUUID } from 'node:crypto';
import { DomainError } from '#lib/platform/domain-error';
import { importedPersonsWithEmail, importedPersonsWithEmployeeId } from '#lib/persons/store/guest-list';
import { claimImportedPerson } from '#lib/checkin/store/imported-checkins';
import { type GuestMatch, matchGuest } from '#lib/checkin/rules/guest-match';
import type { CheckinSubmission } from '#lib/checkin/rules/checkin-request';
import type { GalleryScope } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';

/** An imported person this check-in holds the claim on, to complete it. */
export interface ClaimedGuest {
  person: Person;
  claimId: string;
}

/**
 * The guest-list check of an `importedOnly` gallery: not_on_guest_list when the check-in names no
 * imported person. When it names one still to check in, and `claim` (a check-in that completes
 * now; a paid one does not), it claims that person, so that no other check-in completes it at the
 * same time; a person another check-in claimed first counts as checked in. Undefined: the check-in
 * creates a person, as in an open gallery (a repeated check-in of an invited address).
 */
export async function checkGuestList(scope: GalleryScope, submission: CheckinSubmission, { claim }: { claim: boolean }): Promise<ClaimedGuest | undefined> {
  const [byEmail, byEmployeeId] = await Promise.all([
    importedPersonsWithEmail(scope, submission.email),
    submission.employeeId ? importedPersonsWithEmployeeId(scope, submission.employeeId) : [],
  ]);
  const taken = new Set<string>();
  const claimId = randomUUID();
  for (;;) {
    const match: GuestMatch = matchGuest(byEmail.filter(untaken(taken)), byEmployeeId.filter(untaken(taken)), byEmail.length > 0);
    if (match.kind === 'none') throw new DomainError('not_on_guest_list');
    if (match.kind === 'repeat' || !claim) return undefined;
    if (await claimImportedPerson(scope, match.person.personId, claimId)) return { person: match.person, claimId };
    taken.add(match.person.personId);
  }
}

const untaken = (taken: ReadonlySet<string>) => (person: Person) => !taken.has(person.personId);
