import { randomUUID } from 'node:crypto';
import { DomainError } from '#lib/platform/domain-error';
import { importedPerson, importedPersonsWithEmail } from '#lib/persons/store/guest-list';
import { claimImportedPerson } from '#lib/persons/store/imported-completion';
import { type GuestMatch, matchGuest } from '#lib/checkin/rules/guest-match';
import { emailInvitation, invitationsRequired, invitedPersonId } from '#lib/checkin/invitations';
import type { CheckinSubmission } from '#lib/checkin/rules/checkin-request';
import type { GalleryConfiguration } from '#lib/galleries/rules/gallery-model';
import type { Person } from '#lib/persons/rules/person-model';
import type { Tenant } from '#lib/tenants/store/tenants';
import { firstLanguage } from '#lib/platform/languages';

/**
 * An imported person this check-in names, to complete it: a free check-in holds the claim
 * `claimId` on it; a paid one holds none (its payment completes the person, if nobody has meanwhile).
 */
export interface Guest {
  person: Person;
  claimId?: string;
}

/**
 * The guest-list check of an `importedOnly` gallery: not_on_guest_list when the check-in names no
 * imported person. A person imported with the check-in's address is completed only with its
 * invitation (where the deployment sends email): without one, every such person is emailed
 * theirs and the check-in is refused with invitation_required. When it names one still to check
 * in, and `claim` (a check-in that completes now; a paid one does not), it claims that person, so
 * that no other check-in completes it at the same time; a person another check-in claimed first
 * counts as checked in. Without `claim`, it answers the person it names unclaimed. Undefined: the
 * check-in creates a person, as in an open gallery (a repeated check-in of an invited address).
 */
export async function checkGuestList(
  tenant: Tenant,
  configuration: GalleryConfiguration,
  submission: CheckinSubmission,
  { claim, invitation }: { claim: boolean; invitation?: string | null },
): Promise<Guest | undefined> {
  const scope = { tenantId: tenant.tenantId, token: configuration.gallery.token };
  const [byEmail, invited] = await Promise.all([
    importedPersonsWithEmail(scope, submission.email),
    invitedPersonId(scope, invitation).then((personId) => (personId ? importedPerson(scope, personId) : undefined)),
  ]);
  const taken = new Set<string>();
  const claimId = randomUUID();
  for (;;) {
    const match: GuestMatch = matchGuest(byEmail.filter(untaken(taken)), submission.email, {
      invitedAddress: byEmail.length > 0,
      invitationsRequired: invitationsRequired(),
      invitedPerson: invited && !taken.has(invited.personId) ? invited : undefined,
    });
    if (match.kind === 'none') throw new DomainError('not_on_guest_list');
    if (match.kind === 'repeat') return undefined;
    if (match.kind === 'invite') {
      const language = firstLanguage(submission.language, configuration.gallery.defaultLanguage);
      await Promise.all(match.persons.map((person) => emailInvitation(tenant, configuration, person, language)));
      throw new DomainError('invitation_required');
    }
    if (!claim) return { person: match.person };
    if (await claimImportedPerson(scope, match.person.personId, claimId)) return { person: match.person, claimId };
    taken.add(match.person.personId);
  }
}

const untaken = (taken: ReadonlySet<string>) => (person: Person) => !taken.has(person.personId);
