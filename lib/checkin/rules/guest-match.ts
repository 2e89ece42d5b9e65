import { sameEmailAddress } from '#lib/platform/email-address';
import type { Person } from '#lib/persons/rules/person-model';

/**
 * What an `importedOnly` check-in does with the imported persons it names:
 * - `complete`: the imported person it completes instead of creating one;
 * - `invite`: it names persons imported with its address but carries the invitation of none of
 *   them: those persons are sent their invitations (invitation_required), so that only whoever
 *   reads the address completes them, or checks in again with it;
 * - `repeat`: every person holding its address has checked in already, and it carries one of
 *   their invitations (or the deployment sends no email): a repeated check-in of the address,
 *   which creates a person as in an open gallery (within `checkinsPerEmail`);
 * - `none`: it names nobody on the guest list (not_on_guest_list).
 */
export type GuestMatch =
  { kind: 'complete'; person: Person } | { kind: 'invite'; persons: Person[] } | { kind: 'repeat' } | { kind: 'none' };

export interface GuestMatchOptions {
  /** Whether any imported person holds the address (also one left out of `byEmail` as taken); by default, whether `byEmail` has one. */
  invitedAddress?: boolean;
  /** Whether completing a person imported with an address takes its invitation (a deployment that sends email). */
  invitationsRequired?: boolean;
  /** The imported person the check-in's invitation names, if it carries one that verifies. */
  invitedPerson?: Person;
}

/**
 * Decides from the imported persons holding the check-in's email address (`byEmail`, in creation
 * order) and the person its invitation names. Only something the person alone has completes
 * them: their invitation, emailed to the address they were imported with, or handed to them by
 * the studio when they were imported without one (docs/checkin-page.md#invitations). An address
 * alone completes its person only where the deployment sends no email. An employee ID never
 * does: it is known to colleagues.
 */
export function matchGuest(byEmail: readonly Person[], email: string, options: GuestMatchOptions = {}): GuestMatch {
  const { invitedAddress = byEmail.length > 0, invitationsRequired = false, invitedPerson } = options;
  const pending = (person: Person) => person.checkedInAt === undefined;
  if (
    invitedPerson &&
    pending(invitedPerson) &&
    (invitedPerson.email === null || sameEmailAddress(invitedPerson.email, email))
  )
    return { kind: 'complete', person: invitedPerson };
  const byAddress = byEmail.filter(pending);
  if (byAddress.length > 0) {
    if (!invitationsRequired) return { kind: 'complete', person: byAddress[0]! };
    return { kind: 'invite', persons: byAddress };
  }
  if (!invitedAddress) return { kind: 'none' };
  const invitedHere =
    invitedPerson !== undefined && byEmail.some((person) => person.personId === invitedPerson.personId);
  if (!invitationsRequired || invitedHere) return { kind: 'repeat' };
  return { kind: 'invite', persons: [...byEmail] };
}
