import type { Person } from '#lib/persons/rules/person-model';

/**
 * What an `importedOnly` check-in does with the imported persons it names:
 * - `complete`: the first imported person it names that has not checked in yet; the check-in
 *   completes that person instead of creating one;
 * - `invite`: it names persons imported with its address, but carries the invitation of none of
 *   them: those persons are sent their invitations (invitation_required), so that only whoever
 *   reads the address completes them;
 * - `repeat`: every person it names by email has checked in already: a repeated check-in of the
 *   address, which creates a person as in an open gallery (within `checkinsPerEmail`);
 * - `none`: it names nobody on the guest list (not_on_guest_list).
 */
export type GuestMatch =
  { kind: 'complete'; person: Person } | { kind: 'invite'; persons: Person[] } | { kind: 'repeat' } | { kind: 'none' };

export interface GuestMatchOptions {
  /** Whether any imported person holds the address (also one left out of `byEmail` as taken); by default, whether `byEmail` has one. */
  invitedAddress?: boolean;
  /** Whether completing a person imported with an address takes its invitation (a deployment that sends email). */
  invitationsRequired?: boolean;
  /** The person the check-in's invitation names, if it carries one that verifies. */
  invitedPersonId?: string;
}

/**
 * Decides from the imported persons holding the check-in's email address (`byEmail`) and those
 * with its employee ID (`byEmployeeId`), each in creation order. A person imported with an email
 * address is matched by that address only, and with its invitation where invitations are
 * required, so that knowing someone's address or employee ID does not open their check-in; one
 * imported without is matched by its employee ID, once: completing it gives it the address, by
 * which it is matched from then on.
 */
export function matchGuest(
  byEmail: readonly Person[],
  byEmployeeId: readonly Person[],
  options: GuestMatchOptions = {},
): GuestMatch {
  const { invitedAddress = byEmail.length > 0, invitationsRequired = false, invitedPersonId } = options;
  const pending = (person: Person) => person.checkedInAt === undefined;
  const byAddress = byEmail.filter(pending);
  if (byAddress.length > 0) {
    if (!invitationsRequired) return { kind: 'complete', person: byAddress[0]! };
    const invited = byAddress.find((person) => person.personId === invitedPersonId);
    return invited ? { kind: 'complete', person: invited } : { kind: 'invite', persons: byAddress };
  }
  const withoutAddress = byEmployeeId.find((person) => pending(person) && person.email === null);
  if (withoutAddress) return { kind: 'complete', person: withoutAddress };
  return invitedAddress ? { kind: 'repeat' } : { kind: 'none' };
}
